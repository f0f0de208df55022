package web

// This file is playing on the page: a game's players move by clicking,
// resign and abort, through the same game flow as Discord (one rule path,
// one store, and the Discord message updates as usual). Spectators, and
// anyone whose session is forged or expired, watch and never move.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// Actor is the game flow a page's player acts through.
type Actor interface {
	Act(ctx context.Context, a Action) (Outcome, error)
}

// Action is what a player did on a game's page.
type Action struct {
	Game   *record.Game // as the page's request found it
	Player record.Player
	Lang   catalog.Lang
	Kind   string // "move", "resign", "abort" or "rematch"
	Square string // a move's square, as named on the board ("d3")
	Ply    int    // the plies the page had seen: a board that moved on refuses a move
}

// Outcome is what came of an action: whether the game changed, and what
// the bot said to the player (in their language), if anything.
type Outcome struct {
	Changed bool   `json:"changed"`
	Note    string `json:"note"`
	// Next is the public id of a game the action started (a rematch
	// against the bot), whose page the player goes on to.
	Next string `json:"next,omitempty"`
	// Seat is an open seat the Activity's player may share (a share
	// link's custom_id: "c" and the open challenge's id), which lands a
	// friend who follows the link on it.
	Seat string `json:"seat,omitempty"`
}

// actions a page may take.
var actions = map[string]bool{"move": true, "resign": true, "abort": true, "rematch": true}

// EnablePlay lets players act on their games' pages: sessions say who a
// reader is, actor plays for them. Without it pages are for watching.
func (s *Server) EnablePlay(sessions *Sessions, actor Actor) {
	s.sessions, s.actor = sessions, actor
}

// sameOrigin reports whether a request that changes something comes from
// the page itself: the browser's own word (Sec-Fetch-Site), else the
// Origin it sends, must name this site. With the session cookie's SameSite
// and the JSON body (no form may send it), another site can make no move.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		return err == nil && u.Host == r.Host
	}
	return true // no browser: it still needs the session cookie
}

// act answers POST /g/{id}/act: {"kind": "move", "square": "d3", "ply": 7}
// (or a kind of actions with no square).
// writeOutcome answers a player's request with what came of it.
func writeOutcome(w http.ResponseWriter, status int, out Outcome) { writeJSON(w, status, out) }

// player is who sent a request that changes something: from the page
// itself, as JSON, with a session. Otherwise it answers the refusal and
// reports false.
func (s *Server) player(w http.ResponseWriter, r *http.Request, t *catalog.Printer) (record.Player, bool) {
	if !sameOrigin(r) || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		writeOutcome(w, http.StatusForbidden, Outcome{Note: t.T("web.forbidden")})
		return record.Player{}, false
	}
	p, ok := s.sessions.viewer(r)
	if !ok {
		writeOutcome(w, http.StatusUnauthorized, Outcome{Note: t.T("web.log_in")})
	}
	return p, ok
}

func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	reply := func(status int, out Outcome) { writeOutcome(w, status, out) }
	if s.actor == nil {
		http.NotFound(w, r)
		return
	}
	p, ok := s.player(w, r, t)
	if !ok {
		return
	}
	var body struct {
		Kind   string `json:"kind"`
		Square string `json:"square"`
		Ply    int    `json:"ply"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10))
	if err := dec.Decode(&body); err != nil || !actions[body.Kind] || len(body.Square) > 8 || body.Ply < 0 {
		reply(http.StatusBadRequest, Outcome{Note: t.T("web.bad_request")})
		return
	}
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	if _, plays := colorOf(g, p.ID); !plays {
		s.log.Info("web: a spectator's move refused", "game", g.ID, "user", p.ID)
		reply(http.StatusForbidden, Outcome{Note: t.T("web.not_your_game")})
		return
	}
	out, err := s.actor.Act(r.Context(), Action{Game: g, Player: p, Lang: t.Lang(), Kind: body.Kind, Square: body.Square, Ply: body.Ply})
	if err != nil {
		s.log.Error("web: a player's action failed", "game", g.ID, "user", p.ID, "kind", body.Kind, "err", err)
		reply(http.StatusInternalServerError, Outcome{Note: t.T("web.error")})
		return
	}
	if out.Changed {
		// Both players' pages hear of it now, not at the next poll.
		s.hub.refresh(context.WithoutCancel(r.Context()), g.PublicID)
	}
	reply(http.StatusOK, out)
}

// colorOf is the side userID plays in g: "X" black, "O" white.
func colorOf(g *record.Game, userID string) (string, bool) {
	switch {
	case !g.Black.IsBot() && g.Black.Player.ID == userID:
		return "X", true
	case !g.White.IsBot() && g.White.Player.ID == userID:
		return "O", true
	}
	return "", false
}

// logInFromLink turns a page's ?login= link into a session and sends the
// reader on to the page without it (so the token leaves the address bar
// and the history). A bad link leaves them watching, told why.
func (s *Server) logInFromLink(w http.ResponseWriter, r *http.Request) (note string, handled bool) {
	token := r.URL.Query().Get("login")
	if token == "" || s.sessions == nil {
		return "", false
	}
	p, err := s.sessions.read(purposeLink, token)
	if err != nil {
		return readerWords(r).T("web.link_expired"), false
	}
	s.sessions.logIn(w, r, p)
	q := r.URL.Query()
	q.Del("login")
	to := r.URL.Path
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return "", true
}

// legalOf is the squares the side to move may play, as page indices.
func legalOf(g *record.Game) []int {
	out := []int{}
	if g.Status != record.Active {
		return out
	}
	p, n := g.Position(), g.Size()
	for _, sq := range p.LegalMoves() {
		out = append(out, sq.Row*n+sq.Col)
	}
	return out
}

// toMoveOf is the side to move in an active game: "X", "O" or "".
func toMoveOf(g *record.Game) string {
	if g.Status != record.Active || g.State.Over() {
		return ""
	}
	if g.Position().ToMove() == game.White {
		return "O"
	}
	return "X"
}
