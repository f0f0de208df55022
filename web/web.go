// Package web serves a read-only page per game: the board, a replay with
// animated flips and step controls, and, for a running game, every new move
// as it is played (server-sent events). Pages are found by each game's
// random public id, never by its number. It reads the same store as the
// bot, so it runs inside the bot or alone (othello-bot web).
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/gametext"
	"othello-bot/internal/keyed"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/tournament"
)

// Source is what the pages read: games by public id, and which games
// changed lately.
type Source interface {
	GameByPublicID(ctx context.Context, publicID string) (*record.Game, error)
	GameVersions(ctx context.Context, publicIDs []string) ([]record.GameVersion, error)
	TournamentByPublicID(ctx context.Context, publicID string) (*tournament.Tournament, error)
	Entrants(ctx context.Context, id int64) ([]tournament.Entrant, error)
	Pairings(ctx context.Context, id int64) ([]tournament.Pairing, error)
	// Teams are a team battle's servers (none for another tournament).
	Teams(ctx context.Context, id int64) ([]tournament.Team, error)
	Rating(ctx context.Context, playerID, scope string) (record.Rating, error)
	// A player's Discord avatar hash, kept as they log in.
	Avatar(ctx context.Context, playerID string) (string, error)
	SetAvatar(ctx context.Context, p record.Player, hash string, now time.Time) error
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
	// MaxWatchers caps the live pages open at once, and
	// MaxWatchersPerAddress those from one address: past them a page is
	// refused (503, 429) rather than the process running out of file
	// descriptors for its own work.
	MaxWatchers, MaxWatchersPerAddress int
	// Now is the games' clock: the bot's own (local's stands still
	// between its wait lines), so a page's clocks agree with the game's.
	Now func() time.Time

	sessions *Sessions // who a reader is; nil: nobody logs in
	actor    Actor     // plays for a page's player; nil: pages are for watching
	login    *DiscordLogin
	activity *activity
	storms   Storms     // runs' and races' pages; nil: none
	starts   keyed.Pace // each player's runs started, one per startEvery
}

//go:embed page.html
var pageHTML string

//go:embed static
var static embed.FS

// New returns a server over a source.
func New(src Source, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	s := &Server{src: src, log: log, hub: newHub(src, log), mux: http.NewServeMux(),
		page: template.Must(template.New("page").Parse(pageHTML)), WriteTimeout: 10 * time.Second, KeepAlive: 25 * time.Second,
		MaxWatchers: defaultMaxWatchers(), MaxWatchersPerAddress: 20, Now: time.Now, starts: keyed.Pace{Every: startEvery}}
	s.mux.HandleFunc("GET /g/{id}", s.gamePage)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", assetHandler()))
	s.mux.HandleFunc("GET /g/{id}/data", s.gameData)
	s.mux.HandleFunc("GET /g/{id}/events", s.events)
	s.mux.HandleFunc("POST /g/{id}/act", s.act)
	s.mux.HandleFunc("GET /g/{id}/me", s.whoAmI)
	s.mux.HandleFunc("GET /t/{id}", s.tournamentPage)
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
			http.Error(w, readerWords(r).T("web.error"), http.StatusInternalServerError)
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// eventsPath is where a page hears of a game's moves, in its language:
// relative to the page (/g/ID), so the page works wherever it is mounted
// (at the root, or under /activity/ behind Discord's proxy).
func eventsPath(publicID string, l catalog.Lang) string {
	return publicID + "/events?" + url.Values{"lang": {string(l)}}.Encode()
}

// actPath is where a page's player acts, relative to the page.
func actPath(publicID string, l catalog.Lang) string {
	return publicID + "/act?" + url.Values{"lang": {string(l)}}.Encode()
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

// Data is a game as its page shows it, its words in one reader's language.
type Data struct {
	// SentAt is the server's clock when this copy was sent (Unix ms): the
	// page counts a running clock down from its own receipt of
	// flagAt-sentAt, never against the device's clock, which may be off
	// by any amount (#59). First, so a cached copy is stamped by
	// splicing it in at the send (stamp).
	SentAt     int64  `json:"sentAt,omitempty"`
	Number     int64  `json:"number"`
	PublicID   string `json:"publicId"`
	Size       int    `json:"size"`
	Black      string `json:"black"`
	White      string `json:"white"`
	Status     string `json:"status"`
	Result     string `json:"result"`
	Start      string `json:"start"` // size*size cells, row by row: X, O or -
	Plies      []Ply  `json:"plies"`
	Transcript string `json:"transcript"`
	Version    int64  `json:"version"`
	// Words: the line under the title, the caption of the start and of
	// each ply (Captions[k] is after k plies), and the transcript line.
	Summary        string   `json:"summary"`
	Captions       []string `json:"captions"`
	TranscriptLine string   `json:"transcriptLine"`
	// Opening names the opening reached ("Opening: Tiger"); "" for none.
	Opening string `json:"opening"`
	// Clock is a live game's clocks; nil without one.
	Clock *Clock `json:"clock,omitempty"`
	// ToMove is the side to move in a running game ("X", "O"; "" when
	// none is), and Legal the squares it may play (row*size+col).
	ToMove string `json:"toMove"`
	Legal  []int  `json:"legal"`
	// Abortable says a player may still abort the game (a side has not
	// moved twice): the page offers Abort only then.
	Abortable bool `json:"abortable"`
	// Ratings are the players' (black's, white's) at the game's speed on
	// its server, as the boxes beside the board show them: "1523", "1480?"
	// while provisional, "" for none. Only a page's first copy carries
	// them: the moves of a game do not change them.
	Ratings *[2]string `json:"ratings,omitempty"`
	// Avatars are the players' pictures (black's, white's) on Discord's
	// CDN, for those who logged in with Discord; "" for none. First copy
	// only, as Ratings.
	Avatars *[2]string `json:"avatars,omitempty"`
	// Presence is the game as the Activity shows it on its player's
	// Discord profile (rich presence): who plays, and the clock and move.
	Presence Presence `json:"presence"`
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
		http.Error(w, readerWords(r).T("web.load_failed"), http.StatusInternalServerError)
		return nil, false
	}
	return g, true
}

// dataOf turns a game into what its page replays, in t's words.
func dataOf(t *catalog.Printer, g *record.Game) (Data, error) {
	words := gametext.Words{T: t}
	start := g.State.Start()
	frame := words.Framer(start, g.Plies())
	n := start.Size()
	d := Data{Number: g.ID, PublicID: g.PublicID, Size: n, Black: words.Side(g.Black), White: words.Side(g.White), Status: string(g.Status),
		Transcript: g.Transcript(), Version: g.Version, Plies: []Ply{}, Captions: []string{frame(0, nil, start)},
		Clock: clockOf(g), ToMove: toMoveOf(g), Legal: legalOf(g), Abortable: g.Status == record.Active && play.Early(g)}
	d.Start = start.CellString()
	d.Presence = presenceOf(t, g, d.Black, d.White)
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
		d.Captions = append(d.Captions, frame(i+1, &p, pos))
	}
	d.Result = resultText(words, g, pos)
	d.Summary = t.T("web.summary", "Black", d.Black, "White", d.White, "Result", d.Result)
	if name := words.Opening(start, g.State.Moves()); name != "" {
		d.Opening = t.T("web.opening", "Name", name)
	}
	d.TranscriptLine = t.T("web.no_moves")
	if d.Transcript != "" {
		d.TranscriptLine = t.T("game.transcript", "Moves", d.Transcript)
	}
	return d, nil
}

// resultText is the state of play: who is to move, or how it ended,
// with the score.
func resultText(words gametext.Words, g *record.Game, p game.Position) string {
	t := words.T
	b, w := p.Count()
	score := t.T("game.score", "Black", b, "White", w)
	if g.Status == record.Active {
		return t.T("web.to_move", "Side", words.Side(g.ToMove()), "Score", score)
	}
	return t.T("web.ended", "Result", words.Result(g), "Score", score)
}

// readerWords is the reader's language: ?lang= if the page was asked for
// in one, else the browser's Accept-Language, else English.
func readerWords(r *http.Request) *catalog.Printer {
	if l, ok := catalog.Match(r.URL.Query().Get("lang")); ok {
		return catalog.For(l)
	}
	return catalog.For(catalog.FromAcceptLanguage(r.Header.Get("Accept-Language")))
}

func (s *Server) gameData(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	t := readerWords(r)
	d, err := dataOf(t, g)
	if err != nil {
		http.Error(w, t.T("web.show_failed"), http.StatusInternalServerError)
		return
	}
	d.SentAt = s.Now().UnixMilli()
	s.boxesOf(r.Context(), g, &d)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	json.NewEncoder(w).Encode(d)
}

// assetHandler serves the page's script and style; they change only with
// a new build, so browsers may keep them for an hour.
func assetHandler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // embedded at build time
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // files only, no listing
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}
