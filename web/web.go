// Package web serves a read-only page per game: the board, a replay with
// animated flips and step controls, and, for a running game, every new move
// as it is played (server-sent events). Pages are found by each game's
// random public id, never by its number. It reads the same store as the
// bot, so it runs inside the bot or alone (othello-bot web).
package web

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// Source is what the pages read: games by public id, and which games
// changed lately.
type Source interface {
	GameByPublicID(ctx context.Context, publicID string) (*record.Game, error)
	ChangedGames(ctx context.Context, since time.Time) ([]record.GameVersion, error)
}

// Server serves the pages. Start Run to follow running games.
type Server struct {
	src  Source
	log  *slog.Logger
	hub  *hub
	mux  *http.ServeMux
	page *template.Template
	// WriteTimeout drops a live client that has not taken an update for
	// this long: a client that never reads costs one blocked write, not
	// an ever-growing buffer.
	WriteTimeout time.Duration
	// KeepAlive is how often an idle live page gets a comment line.
	KeepAlive time.Duration
}

//go:embed page.html
var pageHTML string

// New returns a server over a source.
func New(src Source, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	s := &Server{src: src, log: log, hub: newHub(src, log), mux: http.NewServeMux(),
		page: template.Must(template.New("page").Parse(pageHTML)), WriteTimeout: 10 * time.Second, KeepAlive: 25 * time.Second}
	s.mux.HandleFunc("GET /g/{id}", s.gamePage)
	s.mux.HandleFunc("GET /g/{id}/data", s.gameData)
	s.mux.HandleFunc("GET /g/{id}/events", s.events)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	return s
}

// Run follows the games live pages watch until ctx ends, checking for
// changes every interval.
func (s *Server) Run(ctx context.Context, interval time.Duration) { s.hub.run(ctx, interval) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("web handler panic", "panic", v, "path", r.URL.Path)
			http.Error(w, "Sorry, something went wrong.", http.StatusInternalServerError)
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// PagePath is the path of a game's page.
func PagePath(publicID string) string { return "/g/" + publicID }

// Ply is one ply of a game as the page replays it.
type Ply struct {
	Color string `json:"color"` // "X" black, "O" white
	Move  string `json:"move"`  // "d3", or "pass"
	Index int    `json:"index"` // row*size+col; -1 for a pass
	Flips []int  `json:"flips"`
}

// Data is a game as its page shows it.
type Data struct {
	Number     int64  `json:"number"`
	Size       int    `json:"size"`
	Black      string `json:"black"`
	White      string `json:"white"`
	Status     string `json:"status"`
	Result     string `json:"result"`
	Start      string `json:"start"` // size*size cells, row by row: X, O or -
	Plies      []Ply  `json:"plies"`
	Transcript string `json:"transcript"`
	Version    int64  `json:"version"`
}

func (s *Server) load(w http.ResponseWriter, r *http.Request) (*record.Game, bool) {
	id := r.PathValue("id")
	if len(id) > 64 || strings.Trim(id, "0123456789abcdef") != "" {
		http.NotFound(w, r)
		return nil, false
	}
	g, err := s.src.GameByPublicID(r.Context(), id)
	if errors.Is(err, record.ErrNotFound) {
		http.NotFound(w, r)
		return nil, false
	}
	if err != nil {
		s.log.Error("web: loading a game", "id", id, "err", err)
		http.Error(w, "Sorry, the game could not be loaded.", http.StatusInternalServerError)
		return nil, false
	}
	return g, true
}

// dataOf turns a game into what its page replays.
func dataOf(g *record.Game) (Data, error) {
	start := g.State.Start()
	n := start.Size()
	d := Data{Number: g.ID, Size: n, Black: sideName(g.Black), White: sideName(g.White), Status: string(g.Status),
		Transcript: g.State.Transcript(), Version: g.Version, Plies: []Ply{}}
	var cells strings.Builder
	for _, c := range start.Cells() {
		switch c {
		case game.Black:
			cells.WriteByte('X')
		case game.White:
			cells.WriteByte('O')
		default:
			cells.WriteByte('-')
		}
	}
	d.Start = cells.String()
	pos := start
	for i, p := range g.Plies() {
		ply := Ply{Color: "X", Move: "pass", Index: -1, Flips: []int{}}
		if p.Color == game.White {
			ply.Color = "O"
		}
		if p.Square.IsPass() {
			pos = pos.Pass()
		} else {
			ply.Move, ply.Index = p.Square.String(), p.Square.Row*n+p.Square.Col
			for _, f := range pos.Flips(p.Square) {
				ply.Flips = append(ply.Flips, f.Row*n+f.Col)
			}
			next, err := pos.Play(p.Square)
			if err != nil {
				return Data{}, fmt.Errorf("game %d ply %d: %w", g.ID, i+1, err)
			}
			pos = next
		}
		d.Plies = append(d.Plies, ply)
	}
	d.Result = resultText(g, pos)
	return d, nil
}

func sideName(s record.Side) string {
	if s.IsBot() {
		return fmt.Sprintf("Bot (level %d)", s.Level)
	}
	return s.Player.Name
}

func resultText(g *record.Game, p game.Position) string {
	b, w := p.Count()
	score := fmt.Sprintf("%d–%d", b, w)
	r := g.Result
	switch {
	case g.Status == record.Active:
		return fmt.Sprintf("%s to move · %s", sideName(g.ToMove()), score)
	case r == nil:
		return "Over · " + score
	case r.Reason.Unfinished():
		return fmt.Sprintf("Ended without a result (%s) · %s", r.Reason, score)
	case r.Winner == game.Empty:
		return "Draw · " + score
	}
	how := map[record.EndReason]string{record.EndResign: " by resignation", record.EndTimeout: " on time"}[r.Reason]
	return fmt.Sprintf("%s wins%s · %s", sideName(g.Side(r.Winner)), how, score)
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	d, err := dataOf(g)
	if err != nil {
		s.log.Error("web: a game does not replay", "game", g.ID, "err", err)
		http.Error(w, "Sorry, this game could not be shown.", http.StatusInternalServerError)
		return
	}
	data, err := json.Marshal(d)
	if err != nil {
		http.Error(w, "Sorry, this game could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:")
	err = s.page.Execute(w, struct {
		Title  string
		Game   template.JS
		Events string
	}{fmt.Sprintf("Game #%d · %s vs %s", g.ID, d.Black, d.White), template.JS(data), PagePath(g.PublicID) + "/events"})
	if err != nil {
		s.log.Warn("web: writing a page", "err", err)
	}
}

func (s *Server) gameData(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	d, err := dataOf(g)
	if err != nil {
		http.Error(w, "Sorry, this game could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(d)
}
