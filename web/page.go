package web

// This file is a game's page: its words in the reader's language, its
// policy, and the page itself, on the web or framed in the Activity.

import (
	"net/http"
	"net/url"

	"othello-bot/catalog"
)

// pageWords are the page's own words, in the reader's language.
type pageWords struct {
	Live, Board, First, Prev, PlayTitle, Next, Last, Play, Pause string
	// For a player: the line saying which side they play, the actions,
	// and the squares' labels and the premove's line, which the script
	// fills in ({square} is replaced there).
	YouPlay, Resign, ResignConfirm, Abort, Rematch, LoginDiscord string
	YouPlayBlack, YouPlayWhite                                   string
	// In the Activity: the way back to its lobby.
	Lobby                                          string
	SquareEmpty, SquareBlack, SquareWhite, Premove string
	// The tab's title on the reader's turn, the move list's heading and a
	// pass in it, the sound switch and its two states, and what a "?"
	// after a rating means.
	YourTurn, Moves, Pass, Sound, SoundOn, SoundOff, Provisional string
	// The board's colours and their names; in the Activity, sharing the
	// game and the message a share carries.
	Theme                                       string
	ThemeGreen, ThemeBlue, ThemeWood, ThemeGrey string
	Share, ShareMessage                         string
}

func wordsOf(t *catalog.Printer, me string) pageWords {
	w := pageWords{Live: t.T("web.live"), Board: t.T("web.board"), First: t.T("web.first"), Prev: t.T("web.prev"),
		PlayTitle: t.T("web.play_title"), Next: t.T("web.next"), Last: t.T("web.last"), Play: t.T("web.play"), Pause: t.T("web.pause"),
		Resign: t.T("web.resign"), ResignConfirm: t.T("web.resign_confirm"), Abort: t.T("web.abort"), Rematch: t.T("web.rematch"),
		LoginDiscord: t.T("web.login_discord"), Lobby: t.T("web.lobby"),
		SquareEmpty: t.T("web.square_empty", "Square", "{square}"), SquareBlack: t.T("web.square_black", "Square", "{square}"),
		SquareWhite: t.T("web.square_white", "Square", "{square}"), Premove: t.T("web.premove", "Square", "{square}"),
		YourTurn: t.T("web.your_turn"), Moves: t.T("web.moves"), Pass: t.T("web.pass"), Sound: t.T("web.sound"),
		SoundOn: t.T("web.sound_on"), SoundOff: t.T("web.sound_off"), Provisional: t.T("web.provisional"),
		Theme: t.T("web.theme"), ThemeGreen: t.T("web.theme_green"), ThemeBlue: t.T("web.theme_blue"), ThemeWood: t.T("web.theme_wood"),
		ThemeGrey: t.T("web.theme_grey"), Share: t.T("web.share"), ShareMessage: t.T("web.share_message")}
	w.YouPlayBlack, w.YouPlayWhite = t.T("web.you_play", "Side", t.T("color.black")), t.T("web.you_play", "Side", t.T("color.white"))
	switch me {
	case "X":
		w.YouPlay = w.YouPlayBlack
	case "O":
		w.YouPlay = w.YouPlayWhite
	}
	return w
}

// pagePolicy allows the page's own script, style and event stream, and
// nothing inline: a name that slipped past escaping still runs nothing.
// Images: its own, and players' avatars from Discord's CDN.
const pagePolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: https://cdn.discordapp.com; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) { s.renderGame(w, r, false) }

// renderGame writes a game's page: on the web, or framed in the Discord
// Activity (where its player is known by the token the Activity keeps, so
// the page asks who it is for once loaded).
func (s *Server) renderGame(w http.ResponseWriter, r *http.Request, activity bool) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	note, handled := "", false
	if !activity {
		if note, handled = s.logInFromLink(w, r); handled {
			return
		}
	}
	me, login := "", ""
	t := readerWords(r)
	if p, ok := s.sessions.viewer(r); ok && s.actor != nil {
		me, _ = colorOf(g, p.ID)
	} else if !ok && s.actor != nil && !activity {
		login = s.loginPath(PagePath(g.PublicID) + "?" + url.Values{"lang": {string(t.Lang())}}.Encode())
	}
	d, err := dataOf(t, g)
	if err != nil {
		s.log.Error("web: a game does not replay", "game", g.ID, "err", err)
		http.Error(w, t.T("web.show_failed"), http.StatusInternalServerError)
		return
	}
	d.SentAt = s.Now().UnixMilli()
	s.boxesOf(r.Context(), g, &d)
	clientID := ""
	if activity && s.activity != nil {
		clientID = s.activity.clientID
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	policy := pagePolicy
	if activity {
		policy = activityPolicy
	}
	w.Header().Set("Content-Security-Policy", policy)
	// A running game changes with every move: always ask again.
	w.Header().Set("Cache-Control", "no-cache")
	// A player's page is theirs alone: never kept by a shared cache.
	w.Header().Set("Vary", "Accept-Language, Cookie")
	err = s.page.Execute(w, struct {
		Lang   catalog.Lang
		Title  string
		Game   Data
		Events string
		Act    string
		Me     string // the side the reader plays: "X", "O", or "" to watch
		Login  string // where "Log in with Discord" goes; "" for none
		Note   string
		W      pageWords
		// Activity: framed in Discord; the script asks who the reader is.
		Activity bool
		ClientID string // the Activity's application, for its SDK
	}{t.Lang(), t.T("game.title", "ID", g.ID, "Black", d.Black, "White", d.White), d,
		eventsPath(g.PublicID, t.Lang()), actPath(g.PublicID, t.Lang()),
		me, login, note, wordsOf(t, me), activity, clientID})
	if err != nil {
		s.log.Warn("web: writing a page", "err", err)
	}
}
