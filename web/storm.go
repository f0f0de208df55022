package web

// This file is Puzzle Storm, Streak and Racer on the pages: a player
// starts a run (on the web, or from the Activity's lobby) or opens one the
// chat dealt them by its private link, and answers by clicking the board;
// every answer goes through the same rule path and store as the chat's
// move menu (the Storms the bot gives), so a run may go on from one to the
// other. A race's page is its live track, found by a signed key (the race
// message's link), never by its number.

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	_ "embed"

	"othello-bot/catalog"
	"othello-bot/record"
)

// Storms are runs and races as their pages show them, played by the
// bot's own rules (bot/storm).
type Storms interface {
	// StartRun deals p a new run of mode ("storm" or "streak") in a
	// server ("" outside one); a refusal comes as the run's Refused.
	StartRun(ctx context.Context, t *catalog.Printer, p record.Player, guildID, mode string) (StormRun, error)
	// ShowRun is p's run as it stands: ErrNotYours for another's, or
	// record.ErrNotFound.
	ShowRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64) (StormRun, error)
	// AnswerRun plays square as p's answer where the page stood (the
	// puzzle index and the step in it); Refused says why it was not taken.
	AnswerRun(ctx context.Context, t *catalog.Printer, p record.Player, id int64, index, step int, square string) (StormRun, error)
	// ShowRace is a race's track, or record.ErrNotFound.
	ShowRace(ctx context.Context, t *catalog.Printer, id int64) (StormRace, error)
}

// ErrNotYours is a run asked for by someone other than its player.
var ErrNotYours = errors.New("another player's run")

// StormRun is a run as its page shows it, in its player's words.
type StormRun struct {
	SentAt int64  `json:"sentAt"` // the server's clock when sent (Unix ms)
	ID     int64  `json:"id"`
	Mode   string `json:"mode"` // "storm", "streak" or "racer"
	Title  string `json:"title"`
	// Index is the puzzle being solved and Step the move within it: an
	// answer names both, so a page that fell behind is refused.
	Index     int    `json:"index"`
	Step      int    `json:"step"`
	Size      int    `json:"size"`
	Cells     string `json:"cells"`  // Size*Size cells, row by row: X, O or -
	ToMove    string `json:"toMove"` // "X" or "O"
	Legal     []int  `json:"legal"`  // the squares offered, row*size+col
	Last      int    `json:"last"`   // the reply just played, or -1
	Stakes    string `json:"stakes"`
	Score     int    `json:"score"`
	Misses    int    `json:"misses"`
	Combo     int    `json:"combo"`
	ComboLine string `json:"comboLine"`
	// LeftMs is the clock at SentAt; -1 for a run without one (Streak).
	LeftMs  int64    `json:"leftMs"`
	Footer  string   `json:"footer"`
	Notes   []string `json:"notes"`             // what the last answer did
	Refused string   `json:"refused,omitempty"` // why an answer or a start was not taken
	Over    bool     `json:"over"`
	Result  []string `json:"result,omitempty"` // a finished run's lines
	Again   string   `json:"again,omitempty"`  // the mode a new run would be ("" for a racer)
	Race    string   `json:"race,omitempty"`   // a racer's race's page
}

// StormRace is a race's track.
type StormRace struct {
	SentAt int64       `json:"sentAt"`
	Title  string      `json:"title"`
	Head   string      `json:"head"`
	Status string      `json:"status"` // "lobby", "racing", "finished" or "closed"
	LeftMs int64       `json:"leftMs"` // a running race's time left at SentAt
	Lines  []RacerLine `json:"lines"`
}

// RacerLine is a racer on the track, in standings order.
type RacerLine struct {
	Rank   string `json:"rank"`
	Name   string `json:"name"`
	Score  int    `json:"score"`
	Misses int    `json:"misses"`
	Text   string `json:"text"` // the line in words
}

// StormPath is the page that starts a run; RunPath a run's page.
const StormPath = "/storm"

// RunPath is the path of a run's page.
func RunPath(id int64) string { return StormPath + "/" + strconv.FormatInt(id, 10) }

// RunLoginPath is a run's page that logs p in on the way: the link the
// chat gives a run's player.
func (s *Sessions) RunLoginPath(id int64, p record.Player) string {
	return RunPath(id) + "?login=" + s.LoginToken(p)
}

// RacePath is a race's page: its number and a signature of it, so the
// races of other servers cannot be found by counting.
func (s *Sessions) RacePath(id int64) string {
	n := strconv.FormatInt(id, 10)
	return "/race/" + n + "-" + s.raceMAC(n)
}

func (s *Sessions) raceMAC(n string) string { return hex.EncodeToString(s.mac("race:" + n)[:10]) }

// raceID reads a race page's key, or reports false for a forged one.
func (s *Sessions) raceID(key string) (int64, bool) {
	n, sig, ok := strings.Cut(key, "-")
	id, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || id <= 0 || len(key) > 64 || s == nil {
		return 0, false
	}
	return id, hmac.Equal([]byte(sig), []byte(s.raceMAC(n)))
}

//go:embed storm.html
var stormHTML string

var stormPage = template.Must(template.New("storm").Parse(stormHTML))

// EnableStorms serves runs' and races' pages, played through storms; it
// needs EnablePlay's sessions (who a page's player is).
func (s *Server) EnableStorms(storms Storms) {
	s.storms = storms
	for _, root := range []string{"", "/activity"} {
		activity := root != ""
		s.mux.HandleFunc("GET "+root+StormPath, func(w http.ResponseWriter, r *http.Request) { s.stormShell(w, r, "start", activity) })
		s.mux.HandleFunc("GET "+root+StormPath+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.stormShell(w, r, "run", activity) })
		s.mux.HandleFunc("GET "+root+StormPath+"/{id}/state", s.runState)
		s.mux.HandleFunc("POST "+root+StormPath+"/{id}/answer", s.runAnswer)
		s.mux.HandleFunc("POST "+root+StormPath+"/start", s.runStart)
	}
	s.mux.HandleFunc("GET /race/{key}", func(w http.ResponseWriter, r *http.Request) { s.stormShell(w, r, "race", false) })
	s.mux.HandleFunc("GET /race/{key}/state", s.raceState)
}

// stormShell writes a run's, a race's or the start's page: the script
// fetches what it shows (the state) and sends the clicks.
func (s *Server) stormShell(w http.ResponseWriter, r *http.Request, kind string, activity bool) {
	t := readerWords(r)
	root, note, login := "", "", ""
	switch kind {
	case "run":
		if _, ok := runID(r); !ok {
			http.NotFound(w, r)
			return
		}
		root = "../"
	case "race":
		if _, ok := s.sessions.raceID(r.PathValue("key")); !ok {
			http.NotFound(w, r)
			return
		}
		root = "../"
	}
	if kind != "race" && !activity {
		handled := false
		if note, handled = s.logInFromLink(w, r); handled {
			return
		}
		if _, ok := s.sessions.viewer(r); !ok && note == "" {
			if login = s.loginPath(r.URL.Path + "?" + url.Values{"lang": {string(t.Lang())}}.Encode()); login == "" {
				note = t.T("web.storm.log_in")
			}
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	policy := pagePolicy
	if activity {
		policy = activityPolicy
	}
	w.Header().Set("Content-Security-Policy", policy)
	w.Header().Set("Cache-Control", "no-cache")
	w8 := func(key string) string { return t.T("web.storm." + key) }
	title := w8("title")
	if kind == "race" {
		title = t.T("race.title")
	}
	err := stormPage.Execute(w, struct {
		Lang                          catalog.Lang
		Kind, Root, Title, Note       string
		Login, LoginWords             string
		Activity                      bool
		Storm, Streak, Intro, Lobby   string
		Time, Score, Misses, Again    string
		Board, Watch                  string
		SquareEmpty, SquareX, SquareO string
	}{t.Lang(), kind, root, title, note, login, t.T("web.storm.login_discord"), activity,
		w8("storm"), w8("streak"), w8("intro"), t.T("web.lobby"), w8("time"), w8("score"), w8("misses"), w8("again"),
		t.T("web.board"), w8("watch_race"),
		t.T("web.square_empty", "Square", "{square}"), t.T("web.square_black", "Square", "{square}"), t.T("web.square_white", "Square", "{square}")})
	if err != nil {
		s.log.Warn("web: writing a storm page", "err", err)
	}
}

// runID is the run a request's path names.
func runID(r *http.Request) (int64, bool) {
	v := r.PathValue("id")
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil && id > 0 && len(v) <= 19
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// runFailed answers a run's request that found no run to show.
func (s *Server) runFailed(w http.ResponseWriter, t *catalog.Printer, err error) {
	switch {
	case errors.Is(err, ErrNotYours):
		writeJSON(w, http.StatusForbidden, StormRun{Refused: t.T("web.storm.not_yours")})
	case errors.Is(err, record.ErrNotFound):
		writeJSON(w, http.StatusNotFound, StormRun{Refused: t.T("web.storm.no_run")})
	default:
		s.log.Error("web: a storm run", "err", err)
		writeJSON(w, http.StatusInternalServerError, StormRun{Refused: t.T("web.error")})
	}
}

// runState answers GET storm/{id}/state: the run, to its player alone.
func (s *Server) runState(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	id, ok := runID(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	p, ok := s.sessions.viewer(r)
	if !ok {
		writeJSON(w, http.StatusUnauthorized, StormRun{Refused: t.T("web.storm.log_in")})
		return
	}
	v, err := s.storms.ShowRun(r.Context(), t, p, id)
	if err != nil {
		s.runFailed(w, t, err)
		return
	}
	v.SentAt = s.Now().UnixMilli()
	writeJSON(w, http.StatusOK, v)
}

// runAnswer answers POST storm/{id}/answer: {"index": 3, "step": 0,
// "square": "d3"}, from the page itself, by the run's player.
func (s *Server) runAnswer(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	id, ok := runID(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	p, ok := s.player(w, r, t)
	if !ok {
		return
	}
	var body struct {
		Index  int    `json:"index"`
		Step   int    `json:"step"`
		Square string `json:"square"`
	}
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&body)
	if err != nil || body.Index < 0 || body.Step < 0 || len(body.Square) > 3 {
		writeJSON(w, http.StatusBadRequest, StormRun{Refused: t.T("web.bad_request")})
		return
	}
	v, err := s.storms.AnswerRun(r.Context(), t, p, id, body.Index, body.Step, body.Square)
	if err != nil {
		s.runFailed(w, t, err)
		return
	}
	v.SentAt = s.Now().UnixMilli()
	status := http.StatusOK
	if v.Refused != "" {
		status = http.StatusConflict
	}
	writeJSON(w, status, v)
}

// runStart answers POST storm/start: {"mode": "storm"} deals the player a
// run, in the server the Activity runs in when Discord said they are a
// member there (its own puzzles first), else the built-in set.
func (s *Server) runStart(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	p, ok := s.player(w, r, t)
	if !ok {
		return
	}
	var body struct {
		Mode string `json:"mode"`
	}
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&body)
	if err != nil || body.Mode != "storm" && body.Mode != "streak" {
		writeJSON(w, http.StatusBadRequest, StormRun{Refused: t.T("web.bad_request")})
		return
	}
	if !s.starts.Take(p.ID, time.Now()) {
		writeJSON(w, http.StatusTooManyRequests, StormRun{Refused: t.T("web.storm.too_fast")})
		return
	}
	c, _ := s.sessions.session(r)
	v, err := s.storms.StartRun(r.Context(), t, p, c.Guild, body.Mode)
	if err != nil {
		s.runFailed(w, t, err)
		return
	}
	v.SentAt = s.Now().UnixMilli()
	writeJSON(w, http.StatusOK, v)
}

// startEvery is the least time between two runs a player starts on the
// pages: each is a stored run of up to 150 puzzles, and a script could
// otherwise start thousands a minute (Discord paces the chat's /puzzle).
const startEvery = 2 * time.Second

// raceState answers GET race/{key}/state: the track, to anyone with the
// race's link.
func (s *Server) raceState(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	id, ok := s.sessions.raceID(r.PathValue("key"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	v, err := s.storms.ShowRace(r.Context(), t, id)
	if errors.Is(err, record.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		s.log.Error("web: a race's track", "race", id, "err", err)
		http.Error(w, t.T("web.error"), http.StatusInternalServerError)
		return
	}
	v.SentAt = s.Now().UnixMilli()
	writeJSON(w, http.StatusOK, v)
}
