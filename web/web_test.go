package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type fixture struct {
	t     testing.TB
	path  string
	store *storage.Store
	srv   *httptest.Server
	web   *Server
}

// newFixture serves the pages over a real SQLite store in a temporary
// directory, following changes every 50 ms.
func newFixture(t testing.TB) *fixture {
	path := filepath.Join(t.TempDir(), "bot.db")
	st, err := storage.Open(context.Background(), path, storage.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := New(st, quiet)
	ctx, cancel := context.WithCancel(context.Background())
	go w.Run(ctx, 50*time.Millisecond)
	srv := httptest.NewServer(w)
	t.Cleanup(func() { cancel(); srv.Close() })
	return &fixture{t: t, path: path, store: st, srv: srv, web: w}
}

// newGame stores a game between alice and the bot in channel, with the
// first n legal moves played.
func (f *fixture) newGame(channel string, size, n int) *record.Game {
	f.t.Helper()
	start, _ := game.NewPosition(size)
	now := time.Now()
	g := &record.Game{GuildID: "g", ChannelID: channel, State: game.NewGame(start), Black: record.Human(record.Player{ID: "1", Name: "alice"}),
		White: record.Bot(3), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
	if err := f.store.CreateGame(context.Background(), g); err != nil {
		f.t.Fatal(err)
	}
	for i := 0; i < n && !g.State.Over(); i++ {
		f.play(g)
	}
	return g
}

// play plays the first legal move of g and stores it.
func (f *fixture) play(g *record.Game) {
	f.t.Helper()
	plies, err := g.State.Play(g.Position().LegalMoves()[0])
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.store.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: time.Now()}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) finish(g *record.Game) {
	f.t.Helper()
	b, w := g.Position().Count()
	if err := f.store.FinishGame(context.Background(), g, record.Result{FinishedAt: time.Now(), BlackDiscs: b, WhiteDiscs: w,
		Winner: game.Black, Reason: record.EndResign}, nil); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) get(path string) (int, string) {
	f.t.Helper()
	resp, err := http.Get(f.srv.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestPagesAndData(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 12)
	f.finish(g)
	if len(g.PublicID) < 20 {
		t.Fatalf("public id %q is guessable", g.PublicID)
	}
	code, body := f.get(PagePath(g.PublicID))
	if code != 200 || !strings.Contains(body, "Game #1 · alice vs Bot (level 3)") || !strings.Contains(body, "alice wins by resignation") {
		t.Fatalf("page: %d\n%.500s", code, body)
	}
	code, body = f.get(PagePath(g.PublicID) + "/data")
	var d Data
	if code != 200 || json.Unmarshal([]byte(body), &d) != nil || len(d.Plies) != 12 || d.Size != 8 || d.Status != "finished" {
		t.Fatalf("data: %d %+v", code, d)
	}
	if d.Plies[0].Move != "d3" || d.Plies[0].Index != 2*8+3 || len(d.Plies[0].Flips) != 1 {
		t.Errorf("first ply %+v", d.Plies[0])
	}
	// The opening the game reached, named on the page and in the caption
	// of its last move.
	name, ok := strings.CutPrefix(d.Opening, "Opening: ")
	if !ok || name == "" || !strings.HasSuffix(d.Captions[len(d.Captions)-1], " · "+name) || strings.Contains(d.Captions[0], name) {
		t.Errorf("opening %q, captions %q … %q", d.Opening, d.Captions[0], d.Captions[len(d.Captions)-1])
	}
	// Not by number, not by a made-up id, not with odd characters.
	for _, p := range []string{"/g/1", "/g/" + strings.Repeat("a", 24), "/g/%3Cscript%3E", "/g/" + g.PublicID + "x"} {
		if code, _ := f.get(p); code != 404 {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}

// A page following a running game hears of each move: the events stream
// sends the game at once, then again after a move, within a second.
func TestEventsFollowARunningGame(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 4)
	events := openEvents(t, f, g)
	first := <-events
	if len(first.Plies) != 4 {
		t.Fatalf("first event: %d plies", len(first.Plies))
	}
	t0 := time.Now()
	f.play(g)
	select {
	case d := <-events:
		if len(d.Plies) != 5 {
			t.Fatalf("after a move: %d plies", len(d.Plies))
		}
		t.Logf("the move reached the page after %v", time.Since(t0))
	case <-time.After(time.Second):
		t.Fatal("no event within a second of the move")
	}
}

// The page's headers: no inline script may run, no site may frame the
// page, no address leaks to links, and a running game's page is asked for
// again; the script and style it loads are served as files.
func TestPageHeaders(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 4)
	resp, err := http.Get(f.srv.URL + PagePath(g.PublicID))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	if directives["script-src"] != "'self'" || strings.Contains(csp, "unsafe-inline") || directives["frame-ancestors"] != "'none'" ||
		directives["default-src"] != "'none'" {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for name, want := range map[string]string{"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// Every script on the page is a file or a data block, never code inline.
	for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(string(body), -1) {
		if !strings.Contains(tag, `src="../static/`) && !strings.Contains(tag, `type="application/json"`) {
			t.Errorf("inline script %s", tag)
		}
	}
	if code, _ := f.get("/static/"); code != http.StatusNotFound {
		t.Errorf("/static/ lists its files: %d", code)
	}
	for path, kind := range map[string]string{"/static/page.js": "javascript", "/static/page.css": "text/css"} {
		resp, err := http.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), kind) || resp.Header.Get("Cache-Control") == "" {
			t.Errorf("%s: %d %q %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
		}
	}
}

// A second process writes the moves with its clock ten seconds behind
// the page server's: every move still reaches the page, because pages
// follow the versions the database assigns, not timestamps.
func TestWriterClockBehind(t *testing.T) {
	f := newFixture(t)
	writer := f.otherProcess()
	g := f.newGame("c1", 8, 2)
	d := openEvents(t, f, g)
	<-d
	for i := 0; i < 5; i++ {
		writer.playAt(g, time.Now().Add(-10*time.Second))
		select {
		case got := <-d:
			if len(got.Plies) != len(g.Plies()) {
				t.Fatalf("move %d: the page has %d plies, want %d", i, len(got.Plies), len(g.Plies()))
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("move %d, written with a clock 10 s behind, never reached the page", i)
		}
	}
}

// Live pages are capped: in all, and from one address; a refused page
// gets 503 or 429 with Retry-After, and a place freed is taken again.
func TestWatcherCaps(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 2)
	get := func() *http.Response {
		resp, err := http.Get(f.srv.URL + PagePath(g.PublicID) + "/events")
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	f.web.MaxWatchers, f.web.MaxWatchersPerAddress = 100, 2
	a, b, c := get(), get(), get()
	if a.StatusCode != 200 || b.StatusCode != 200 || c.StatusCode != http.StatusTooManyRequests || c.Header.Get("Retry-After") == "" {
		t.Errorf("per address: %d %d %d", a.StatusCode, b.StatusCode, c.StatusCode)
	}
	c.Body.Close()
	f.web.MaxWatchers, f.web.MaxWatchersPerAddress = 2, 100
	if d := get(); d.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("over the total: %d", d.StatusCode)
		d.Body.Close()
	}
	a.Body.Close()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		e := get()
		if e.StatusCode == 200 {
			e.Body.Close()
			break
		}
		e.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("a place freed was not given again")
		}
	}
	b.Body.Close()
}

// process is another process on the same database: its own store.
type process struct {
	t     testing.TB
	store *storage.Store
}

func (f *fixture) otherProcess() *process {
	st, err := storage.Open(context.Background(), f.path, storage.Options{Logger: quiet})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { st.Close() })
	return &process{t: f.t, store: st}
}

// playAt plays the first legal move of g, stamped with the writer's clock.
func (p *process) playAt(g *record.Game, at time.Time) {
	p.t.Helper()
	plies, err := g.State.Play(g.Position().LegalMoves()[0])
	if err != nil {
		p.t.Fatal(err)
	}
	if err := p.store.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: at}); err != nil {
		p.t.Fatal(err)
	}
}

// openEvents follows a game's events, each decoded.
func openEvents(t *testing.T, f *fixture, g *record.Game) <-chan Data {
	resp, err := http.Get(f.srv.URL + PagePath(g.PublicID) + "/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events := make(chan Data, 10)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var d Data
				if json.Unmarshal([]byte(data), &d) == nil {
					events <- d
				}
			}
		}
	}()
	return events
}

// The page names its icon, which is served (the browser asked for a
// /favicon.ico there was none of, on every page).
func TestPageIcon(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("icon", 8, 0)
	code, page := f.get(PagePath(g.PublicID))
	if code != http.StatusOK || !strings.Contains(page, `<link rel="icon" type="image/svg+xml" href="../static/favicon.svg">`) {
		t.Fatalf("the page (%d) names no icon", code)
	}
	resp, err := http.Get(f.srv.URL + "/static/favicon.svg")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(body), "<svg") {
		t.Fatalf("the icon: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
