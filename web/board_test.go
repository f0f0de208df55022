package web

// The board as players expect it (#59), in a real Chromium: clocks that
// trust the server, the players' boxes, the tab's title on the reader's
// turn, the move list, and sounds.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"othello-bot/record"
	"othello-bot/storage"
)

// skewDevice sets the tab's device clock off by skew before any page
// script runs (Date.now, as a phone set wrong reports it), and leaves
// the true time at __trueNow for the test to read beside it.
func skewDevice(skew time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(`(() => {
			const real = Date.now.bind(Date);
			window.__trueNow = real;
			Date.now = () => real() + %d;
		})();`, skew.Milliseconds())})
		return err
	})
}

// clockReading is a clock as the page shows it (milliseconds) and the
// true time (Unix ms) it was read at.
type clockReading struct {
	MS int64 `json:"ms"`
	At int64 `json:"at"`
}

func readClock(t *testing.T, ctx context.Context, side string) clockReading {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[clockReading](`(() => {
		tick();
		return {ms: Number(document.getElementById("clock-`+side+`").dataset.ms), at: window.__trueNow()};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A device whose clock is 30 s off either way shows the time the server
// says is left, within 0.2 s (the page counts from its receipt, never
// against the device's clock).
func TestClocksTrustTheServerNotTheDevice(t *testing.T) {
	f, g := liveGame(t, "3+2", [2]time.Duration{125 * time.Second, 3 * time.Minute})
	flag := g.Clock().FlagAt()
	ctx := browser(t)
	worst := int64(0)
	for _, skew := range []time.Duration{30 * time.Second, -30 * time.Second} {
		tab := personTab(t, ctx)
		if err := chromedp.Do(tab, skewDevice(skew), chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)),
			chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
			t.Fatal(err)
		}
		for range 3 { // as it opens, then as it runs
			r := readClock(t, tab, "X")
			truth := flag.UnixMilli() - r.At
			d := r.MS - truth
			if d > 200 || d < -200 {
				t.Fatalf("device %+v: black's clock shows %d ms left, the server's truth is %d ms (off by %d ms)", skew, r.MS, truth, d)
			}
			worst = max(worst, d, -d)
			time.Sleep(700 * time.Millisecond)
		}
		if w := readClock(t, tab, "O"); w.MS != 180000 {
			t.Fatalf("device %+v: white's standing clock shows %d ms, want 180000", skew, w.MS)
		}
	}
	t.Logf("devices 30 s off either way: the page's clock within %d ms of the server's", worst)
}

// A game whose own clock stands still (local's, between its wait lines)
// shows its clocks as the game has them, counting down from the page's
// receipt: a fresh 3:00 is 3:00, not 3:00 less the time the game's clock
// is behind the machine's (the page once showed 0:59 and ran upward).
func TestClocksFollowTheGamesOwnClock(t *testing.T) {
	gameNow := time.Now().Add(-2 * time.Minute) // the game's clock, two minutes behind
	f, g := liveGameAt(t, "3+2", [2]time.Duration{3 * time.Minute, 3 * time.Minute}, gameNow)
	f.web.Now = func() time.Time { return gameNow }
	ctx := browser(t)
	if err := chromedp.Do(ctx, skewDevice(0), chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
		t.Fatal(err)
	}
	first := readClock(t, ctx, "X")
	if first.MS > 180000 || first.MS < 170000 {
		t.Fatalf("a fresh 3:00 on a game whose clock stands shows %d ms", first.MS)
	}
	time.Sleep(1500 * time.Millisecond)
	if next := readClock(t, ctx, "X"); next.MS >= first.MS {
		t.Fatalf("black's clock did not count down: %d ms, then %d ms", first.MS, next.MS)
	}
}

// A player's page says "Your turn" in the tab's title while it is, and
// not while the opponent is to move; a spectator's never does.
func TestTabTitleOnYourTurn(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("title", 8, 0) // alice plays black, to move
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	ctx := browser(t)
	title := func(ctx context.Context) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	waitTitle := func(ctx context.Context, turn bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); strings.HasPrefix(title(ctx), "Your turn · ") != turn; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("after %d plies the title is %q (want your turn: %v)", len(g.Plies()), title(ctx), turn)
			}
		}
	}
	player := personTab(t, ctx)
	if err := chromedp.Do(player, chromedp.Navigate(f.srv.URL+sessions.LoginPath(g.PublicID, record.Player{ID: "1", Name: "alice"})),
		chromedp.WaitVisible(chromedp.CSS("#squares button"))); err != nil {
		t.Fatal(err)
	}
	waitTitle(player, true)
	f.play(g) // black's move: white to move
	waitTitle(player, false)
	if got := title(player); !strings.HasPrefix(got, "Game #1") {
		t.Fatalf("on the opponent's turn the title is %q", got)
	}
	f.play(g)
	waitTitle(player, true)
	watcher := personTab(t, ctx)
	if err := chromedp.Do(watcher, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	if got := title(watcher); strings.Contains(got, "Your turn") {
		t.Fatalf("a spectator's title is %q", got)
	}
}

// The move list numbers moves as players count them (a pass is shown as
// a pass and not counted), and a press on one steps the board there.
func TestMoveListStepsTheBoard(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("moves", 8, 64) // first legal moves: this game has passes
	f.finish(g)
	passes, moves := 0, 0
	for _, p := range g.Plies() {
		if p.Square.IsPass() {
			passes++
		} else {
			moves++
		}
	}
	if passes == 0 {
		t.Fatal("the game has no pass to show")
	}
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("#moves button"))); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Text    string `json:"text"`
		Ply     int    `json:"ply"`
		Current bool   `json:"current"`
	}
	list := func() []entry {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]entry](`[...document.querySelectorAll("#moves button")].map(b =>
			({text: b.textContent, ply: Number(b.dataset.ply), current: b.classList.contains("current")}))`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := list()
	if len(got) != len(g.Plies()) {
		t.Fatalf("the list has %d entries for %d plies", len(got), len(g.Plies()))
	}
	n := 0
	for i, p := range g.Plies() {
		want := "pass"
		if !p.Square.IsPass() {
			n++
			want = fmt.Sprintf("%d. %s", n, p.Square)
		}
		if got[i].Text != want || got[i].Ply != i+1 {
			t.Fatalf("entry %d reads %q (ply %d), want %q", i, got[i].Text, got[i].Ply, want)
		}
	}
	if last := got[len(got)-1]; !last.Current {
		t.Fatalf("the last move is not marked as shown: %+v", last)
	}
	if n != moves {
		t.Fatalf("numbered %d moves, the game has %d", n, moves)
	}
	// Press the tenth move: the board steps back to it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#moves button[data-ply="10"]`))); err != nil {
		t.Fatal(err)
	}
	if p := attr(t, ctx, "ply"); p != 10 {
		t.Fatalf("after pressing the tenth ply the board shows ply %d", p)
	}
	for _, e := range list() {
		if e.Current != (e.Ply == 10) {
			t.Fatalf("after the press the list marks %+v", e)
		}
	}
}

// A move arriving sounds (the disc set down and the discs it turns);
// switched off, the page stays quiet, and remembers it on reload.
func TestSoundsAndTheirSwitch(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("sounds", 8, 0)
	ctx := browser(t)
	sounds := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.sounds || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the event stream is open
	f.play(g)
	for deadline := time.Now().Add(10 * time.Second); sounds() != "move capture "; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a move arrived and the page sounded %q, want a move and its capture", sounds())
		}
	}
	// Off, then reloaded: the switch is remembered, and a move is quiet.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("sound")), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	pressed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("sound").getAttribute("aria-pressed")`))
	if err != nil || pressed != "false" {
		t.Fatalf("after a reload the sound switch reads %q (%v), want off", pressed, err)
	}
	time.Sleep(200 * time.Millisecond)
	f.play(g)
	for deadline := time.Now().Add(10 * time.Second); attr(t, ctx, "total") != 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second move did not show")
		}
	}
	if s := sounds(); s != "" {
		t.Fatalf("with the sound off the page sounded %q", s)
	}
}

// ratedSource is the store with ratings the test sets.
type ratedSource struct {
	*storage.Store
	ratings map[string]record.Rating // by player id
}

func (s ratedSource) Rating(_ context.Context, playerID, scope string) (record.Rating, error) {
	r, ok := s.ratings[playerID]
	if !ok || scope != "g/blitz" {
		return record.Rating{}, record.ErrNotFound
	}
	return r, nil
}

// Each player has a box beside the board: name, rating at the game's
// speed on its server ("?" while provisional) and clock; the reader's own
// box is below the board.
func TestPlayerBoxes(t *testing.T) {
	f, g := liveGame(t, "3+2", [2]time.Duration{3 * time.Minute, 3 * time.Minute})
	src := ratedSource{f.store, map[string]record.Rating{
		"1": {Rating: 1623.4, Deviation: 60},
		"2": {Rating: 1480, Deviation: 200},
	}}
	// alice logged in with Discord once: her avatar was kept.
	if err := f.store.SetAvatar(context.Background(), record.Player{ID: "1", Name: "alice"}, "a_0123456789abcdef0123456789abcdef", time.Now()); err != nil {
		t.Fatal(err)
	}
	pages := New(src, quiet)
	sessions := testSessions(t, 0)
	pages.EnablePlay(sessions, &recordingActor{})
	srv := httptest.NewServer(pages)
	t.Cleanup(srv.Close)
	type box struct {
		Name   string `json:"name"`
		Rating string `json:"rating"`
		Clock  string `json:"clock"`
		Below  bool   `json:"below"`
		Avatar string `json:"avatar"`
	}
	read := func(ctx context.Context) map[string]box {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]box](`(() => {
			const board = document.getElementById("boardbox").getBoundingClientRect();
			const out = {};
			for (const side of ["X", "O"]) {
				const b = document.getElementById("box-" + side), r = b.querySelector(".rating");
				out[side] = {name: b.querySelector(".name").textContent, rating: r.hidden ? "" : r.textContent,
					clock: b.querySelector(".clock").textContent, below: b.getBoundingClientRect().top > board.top,
					avatar: b.querySelector(".avatar").hidden ? "" : b.querySelector(".avatar").getAttribute("src")};
			}
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	ctx := browser(t)
	watcher := personTab(t, ctx)
	if err := chromedp.Do(watcher, chromedp.Navigate(srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
		t.Fatal(err)
	}
	got := read(watcher)
	if x, o := got["X"], got["O"]; x.Name != "alice" || x.Rating != "1623" || o.Name != "bob" || o.Rating != "1480?" || o.Clock != "3:00" || x.Below || !o.Below {
		t.Fatalf("a spectator sees the boxes %+v", got)
	}
	// Her picture from Discord's CDN; bob, never logged in, has none.
	if x, o := got["X"], got["O"]; x.Avatar != "https://cdn.discordapp.com/avatars/1/a_0123456789abcdef0123456789abcdef.png?size=64" || o.Avatar != "" {
		t.Fatalf("avatars %q and %q", x.Avatar, o.Avatar)
	}
	// alice plays black: her box is below the board.
	player := personTab(t, ctx)
	if err := chromedp.Do(player, chromedp.Navigate(srv.URL+sessions.LoginPath(g.PublicID, record.Player{ID: "1", Name: "alice"})),
		chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
		t.Fatal(err)
	}
	if got := read(player); !got["X"].Below || got["O"].Below {
		t.Fatalf("black's player sees the boxes %+v, want her own below", got)
	}
}

// The board's colours are the reader's choice, remembered on reload.
func TestBoardThemeRemembered(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("theme", 8, 2)
	ctx := browser(t)
	felt := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("rect.felt")).fill + " " + document.getElementById("theme").value`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	if got := felt(); got != "rgb(46, 125, 50) green" {
		t.Fatalf("a first visit draws %q, want the green felt", got)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("theme");
		s.value = "wood"; return s.dispatchEvent(new Event("change")); })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	if got := felt(); got != "rgb(160, 112, 60) wood" {
		t.Fatalf("after choosing wood and a reload the board is %q", got)
	}
}
