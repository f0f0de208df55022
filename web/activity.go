package web

// This file is the Discord Activity: the same pages, served under
// /activity/ for Discord's client to frame behind its proxy (an
// Activity's URL mapping sends / to this server's /activity, and the
// pages use relative addresses, so they work at the root and under
// /.proxy/ alike). The shell (/activity/) runs the Embedded App SDK
// (bundled into static/activity.js by go generate): authorize gives a
// code, this server exchanges it for the player's token (POST
// /activity/token) and gives back a session as a Bearer token, and
// authenticate hands the token to Discord's client; then it lists the
// player's games and the server's live games, and opens one's page.

import (
	"context"
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/gametext"
	"othello-bot/record"
)

// activityPolicy is the pages' policy in the Activity: Discord's client
// frames them (and a page of the Activity frames nothing else).
const activityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'self' https://discord.com https://*.discord.com " +
	"https://discordapp.com https://*.discordapp.com https://*.discordsays.com"

// Games lists running games and open challenges for the Activity's lobby.
type Games interface {
	// RunningGames returns a server's active games ("" for games outside
	// servers), at most limit; with playerID set, only that player's.
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
	// PendingChallenges returns the pending challenges.
	PendingChallenges(ctx context.Context) ([]*record.Challenge, error)
}

// Launcher starts games for the Activity's player, through the bot's own
// commands: a game against the bot, a challenge to someone in the same
// Activity, accepting a challenge.
type Launcher interface {
	Launch(ctx context.Context, l Launch) (Outcome, error)
	// Opening is the game (public id) to open for a player the Activity
	// just signed in, in the channel it runs in ("Watch in Discord"
	// pressed there); "" for the lobby.
	Opening(ctx context.Context, userID, channelID string) (string, error)
}

// Launch is what the Activity's player asked for, where it was launched.
type Launch struct {
	Player             record.Player
	GuildID, ChannelID string
	Lang               catalog.Lang
	Kind               string        // "start", "challenge", "open" (a seat for a friend) or "accept"
	Level              int           // start: the bot's level
	Opponent           record.Player // challenge: whom
	Challenge          int64         // accept: which
}

//go:generate sh activity/build.sh

//go:embed activity.html
var activityHTML string

// EnableActivity serves the Activity under /activity/ for the application
// clientID; login exchanges its codes (its RedirectURL is not used: an
// Activity's code comes from the SDK's authorize, with no redirect).
func (s *Server) EnableActivity(clientID string, login *DiscordLogin, games Games, launcher Launcher) {
	s.activity = &activity{clientID: clientID, login: login, games: games, launcher: launcher,
		shell: template.Must(template.New("activity").Parse(activityHTML))}
	if login.Client == nil {
		login.Client = defaultLoginClient()
	}
	page := func(w http.ResponseWriter, r *http.Request) { s.renderGame(w, r, true) }
	s.mux.HandleFunc("GET /activity/{$}", s.activityShell)
	s.mux.HandleFunc("GET /activity/g/{id}", page)
	s.mux.HandleFunc("GET /activity/g/{id}/events", s.events)
	s.mux.HandleFunc("GET /activity/g/{id}/data", s.gameData)
	s.mux.HandleFunc("GET /activity/g/{id}/me", s.whoAmI)
	s.mux.HandleFunc("POST /activity/g/{id}/act", s.act)
	s.mux.Handle("GET /activity/static/", http.StripPrefix("/activity/static/", assetHandler()))
	s.mux.HandleFunc("POST /activity/token", s.activityToken)
	s.mux.HandleFunc("GET /activity/games", s.activityGames)
	s.mux.HandleFunc("POST /activity/launch", s.activityLaunch)
}

type activity struct {
	clientID string
	login    *DiscordLogin
	games    Games
	launcher Launcher
	shell    *template.Template
}

// lobbyLevel is the level the lobby offers first: the old level 3 it
// offered before the twenty levels, on the new scale.
var lobbyLevel = engine.FromOldLevel(3)

func (s *Server) activityShell(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", activityPolicy)
	w.Header().Set("Cache-Control", "no-cache")
	w8 := func(key string) string { return t.T("web.activity." + key) }
	storm := ""
	if s.storms != nil {
		storm = w8("storm")
	}
	// Each level in words with its rating, as /start's menu offers them.
	type level struct {
		N        int
		Label    string
		Selected bool
	}
	var levels []level
	for n := engine.MinLevel; n <= engine.MaxLevel; n++ {
		r, _ := engine.LevelRating(n)
		levels = append(levels, level{n, t.T("choice.level."+strconv.Itoa(n), "Rating", r), n == lobbyLevel})
	}
	err := s.activity.shell.Execute(w, struct {
		Lang                                      catalog.Lang
		ClientID                                  string
		Title, Signing, Mine, Live, None, NoLogin string
		PlayBot, Level, Accept, Challenge         string
		Challenges, People                        string
		Friend, Invite, SeatMessage, Presence     string
		Storm                                     string // the link to Puzzle Storm's page; "" without one
		Levels                                    []level
	}{t.Lang(), s.activity.clientID, w8("title"), w8("signing_in"), w8("mine"), w8("live"), w8("none"), w8("no_login"),
		w8("play_bot"), w8("level"), w8("accept"), w8("challenge"), w8("challenges"), w8("people"),
		w8("friend"), w8("invite"), w8("seat_message"), t.T("web.presence.lobby"), storm, levels})
	if err != nil {
		s.log.Warn("web: writing the Activity", "err", err)
	}
}

// activityToken exchanges the SDK's code for the player's access token
// (which the shell hands to Discord's authenticate) and a session here.
func (s *Server) activityToken(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	var body struct {
		Code    string `json:"code"`
		GuildID string `json:"guild_id"` // where the Activity was launched
	}
	if !sameOrigin(r) || s.sessions == nil {
		http.Error(w, t.T("web.forbidden"), http.StatusForbidden)
		return
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&body); err != nil || body.Code == "" {
		http.Error(w, t.T("web.bad_request"), http.StatusBadRequest)
		return
	}
	token, p, avatar, err := s.activity.login.identify(r.Context(), body.Code, "")
	if err != nil {
		s.log.Error("web: the Activity's login", "err", err)
		http.Error(w, t.T("web.login_failed"), http.StatusBadGateway)
		return
	}
	s.keepAvatar(r.Context(), p, avatar)
	// The session names the server only if Discord says the player is a
	// member: the lobby shows a server's games to its members alone.
	guild := ""
	if body.GuildID != "" {
		member, err := s.activity.login.memberOf(r.Context(), token, body.GuildID)
		if err != nil {
			s.log.Warn("web: the Activity's server", "user", p.ID, "err", err)
		}
		if member {
			guild = body.GuildID
		}
	}
	s.log.Info("web: logged in to the Activity", "user", p.ID, "guild", guild)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]string{"access_token": token, "session": s.sessions.sessionIn(p, guild)})
}

// lobbyGame is a game in the Activity's lobby.
type lobbyGame struct {
	ID    string `json:"id"` // the public id: its page is g/ID
	Title string `json:"title"`
}

// activityGames lists, for the Activity's player, their running games and
// the server's others.
func (s *Server) activityGames(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	c, ok := s.sessions.session(r)
	if !ok {
		http.Error(w, t.T("web.log_in"), http.StatusUnauthorized)
		return
	}
	p := record.Player{ID: c.ID, Name: c.Name}
	guild := r.URL.Query().Get("guild_id")
	if len(guild) > 24 || strings.Trim(guild, "0123456789") != "" {
		http.Error(w, t.T("web.bad_request"), http.StatusBadRequest)
		return
	}
	// A server's games are for its members (as Discord said when the
	// session was made); anywhere else, and outside servers (where "" is
	// every DM), only the player's own.
	only := p.ID
	if guild != "" && guild == c.Guild {
		only = ""
	}
	all, err := s.activity.games.RunningGames(r.Context(), guild, only, 50)
	if err != nil {
		s.log.Error("web: listing the Activity's games", "err", err)
		http.Error(w, t.T("web.load_failed"), http.StatusInternalServerError)
		return
	}
	words := gametext.Words{T: t}
	out := struct {
		Mine       []lobbyGame `json:"mine"`
		Live       []lobbyGame `json:"live"`
		Challenges []lobbyGame `json:"challenges"`     // to the player (or to anyone) here: id is the challenge's
		Open       string      `json:"open,omitempty"` // a game's page to open instead of the lobby
	}{Mine: []lobbyGame{}, Live: []lobbyGame{}, Challenges: []lobbyGame{}}
	pending, err := s.activity.games.PendingChallenges(r.Context())
	if err != nil {
		s.log.Error("web: listing the Activity's challenges", "err", err)
		http.Error(w, t.T("web.load_failed"), http.StatusInternalServerError)
		return
	}
	channel := r.URL.Query().Get("channel_id")
	for _, c := range pending {
		if c.ChannelID == channel && c.Challenger.ID != p.ID && (c.Opponent.ID == "" || c.Opponent.ID == p.ID) {
			out.Challenges = append(out.Challenges, lobbyGame{ID: strconv.FormatInt(c.ID, 10),
				Title: t.T("web.activity.challenge_from", "Name", c.Challenger.Name)})
		}
	}
	for _, g := range all {
		lg := lobbyGame{ID: g.PublicID, Title: t.T("game.title", "ID", g.ID, "Black", words.Side(g.Black), "White", words.Side(g.White))}
		if _, plays := colorOf(g, p.ID); plays {
			out.Mine = append(out.Mine, lg)
		} else {
			out.Live = append(out.Live, lg)
		}
	}
	if r.URL.Query().Get("first") == "1" {
		if out.Open, err = s.activity.launcher.Opening(r.Context(), p.ID, channel); err != nil {
			s.log.Error("web: reading the Activity's press", "err", err) // the lobby, then
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(out)
}

// whoAmI says which side the reader plays in a game ("" to watch).
func (s *Server) whoAmI(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	me := ""
	if p, ok := s.sessions.viewer(r); ok && s.actor != nil {
		me, _ = colorOf(g, p.ID)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]string{"me": me})
}

// activityLaunch starts what the lobby asked for; the reply names the new
// game's page when there is one.
func (s *Server) activityLaunch(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	reply := func(status int, out Outcome) { writeOutcome(w, status, out) }
	if s.activity.launcher == nil {
		http.NotFound(w, r)
		return
	}
	p, ok := s.player(w, r, t)
	if !ok {
		return
	}
	var body struct {
		Kind         string `json:"kind"`
		GuildID      string `json:"guild_id"`
		ChannelID    string `json:"channel_id"`
		Level        int    `json:"level"`
		Opponent     string `json:"opponent"`
		OpponentName string `json:"opponent_name"`
		Challenge    string `json:"challenge"`
	}
	snowflake := func(v string, empty bool) bool {
		return (v == "" && empty) || (v != "" && len(v) <= 24 && strings.Trim(v, "0123456789") == "")
	}
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&body)
	l := Launch{Player: p, GuildID: body.GuildID, ChannelID: body.ChannelID, Lang: t.Lang(), Kind: body.Kind, Level: body.Level,
		Opponent: record.Player{ID: body.Opponent, Name: body.OpponentName}}
	l.Challenge, _ = strconv.ParseInt(body.Challenge, 10, 64)
	valid := err == nil && snowflake(body.GuildID, true) && snowflake(body.ChannelID, false) && len(body.OpponentName) <= 64
	switch body.Kind {
	case "start":
		valid = valid && body.Level >= engine.MinLevel && body.Level <= engine.MaxLevel
	case "challenge":
		valid = valid && snowflake(body.Opponent, false) && body.Opponent != p.ID
	case "accept":
		valid = valid && l.Challenge > 0
	case "open":
	default:
		valid = false
	}
	if !valid {
		reply(http.StatusBadRequest, Outcome{Note: t.T("web.bad_request")})
		return
	}
	out, err := s.activity.launcher.Launch(r.Context(), l)
	if err != nil {
		s.log.Error("web: the Activity's launch failed", "user", p.ID, "kind", l.Kind, "err", err)
		reply(http.StatusInternalServerError, Outcome{Note: t.T("web.error")})
		return
	}
	reply(http.StatusOK, out)
}
