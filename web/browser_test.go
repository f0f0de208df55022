package web

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/internal/browsertest"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// browser starts a headless Chromium (Debian's chromium package), or skips
// the test loudly where there is none; CI installs it.
func browser(t *testing.T) context.Context { return browsertest.Start(t, 60*time.Second) }

// personTab is a tab of its own browser context in ctx's browser.
func personTab(t *testing.T, ctx context.Context) context.Context { return browsertest.Person(t, ctx) }

func attr(t *testing.T, ctx context.Context, name string) int {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.`+name+` || ""`))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("data-%s is %q", name, v)
	}
	return n
}

// A real browser loads a finished game's page, steps through the replay
// with the controls and takes a screenshot; then it watches a running game
// and sees a move within a second of it being played.
func TestPageInABrowser(t *testing.T) {
	f := newFixture(t)
	done := f.newGame("c1", 8, 20)
	f.finish(done)
	live := f.newGame("c2", 8, 6)
	ctx := browser(t)

	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(done.PublicID)), chromedp.WaitVisible(chromedp.CSS("#board circle"))); err != nil {
		t.Fatal(err)
	}
	if got, want := attr(t, ctx, "ply"), len(done.Plies()); got != want {
		t.Fatalf("the page opens at ply %d, want the final position (%d)", got, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("first")), chromedp.Click(chromedp.ID("next")),
		chromedp.Click(chromedp.ID("next")), chromedp.Click(chromedp.ID("next"))); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("status")))
	if err != nil {
		t.Fatal(err)
	}
	if got := attr(t, ctx, "ply"); got != 3 {
		t.Fatalf("after start and three steps: ply %d", got)
	}
	discs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("circle.disc.X, circle.disc.O").length`))
	if err != nil {
		t.Fatal(err)
	}
	if discs != 7 { // 4 at the start and one more with each move
		t.Errorf("%d discs after three moves, want 7", discs)
	}
	time.Sleep(500 * time.Millisecond) // the flips' animation ends
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(shot)); err != nil || img.Bounds().Dx() < 500 {
		t.Fatalf("screenshot: %v", err)
	}
	if dir := os.Getenv("OTHELLO_SCREENSHOTS"); dir != "" {
		os.WriteFile(dir+"/web-replay.png", shot, 0o644)
	}
	t.Logf("status %q, screenshot %d bytes", status, len(shot))

	// The running game's page follows it.
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(live.PublicID)), chromedp.WaitVisible(chromedp.CSS("#board circle"))); err != nil {
		t.Fatal(err)
	}
	before := len(live.Plies())
	if got := attr(t, ctx, "total"); got != before {
		t.Fatalf("the live page shows %d plies, want %d", got, before)
	}
	time.Sleep(200 * time.Millisecond) // the event stream is open
	t0 := time.Now()
	f.play(live)
	for attr(t, ctx, "total") != len(live.Plies()) {
		if time.Since(t0) > time.Second {
			t.Fatal("the page did not show the move within a second")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the browser showed the move %v after it was played", time.Since(t0))
	if got := attr(t, ctx, "ply"); got != len(live.Plies()) {
		t.Errorf("the page at the latest position did not move on: ply %d", got)
	}
}

// A Japanese reader's browser (Accept-Language: ja) gets the page in
// Japanese: the title, the line under it, each step's caption, the
// controls; the only Latin letters left are names, squares and the
// transcript. The policy lets the page's own script run (the board is
// drawn) while it forbids inline scripts.
func TestPageInJapanese(t *testing.T) {
	f := newFixture(t)
	done := f.newGame("c1", 8, 20)
	f.finish(done)
	ctx := browser(t)
	acceptJapanese := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "ja,en;q=0.5"}})
		return err
	})
	err := chromedp.Do(ctx, acceptJapanese, chromedp.Navigate(f.srv.URL+PagePath(done.PublicID)), chromedp.WaitVisible(chromedp.CSS("#board circle")),
		chromedp.Click(chromedp.ID("first")), chromedp.Click(chromedp.ID("next")))
	if err != nil {
		t.Fatal(err)
	}
	counter, err1 := chromedp.Run(ctx, chromedp.Text(chromedp.ID("counter")))
	title, err2 := chromedp.Run(ctx, chromedp.Title())
	play, err3 := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("play"), "title"))
	text, err4 := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	ja := catalog.For(catalog.Japanese)
	if want := ja.T("game.title", "ID", done.ID, "Black", "alice", "White", ja.T("side.bot", "Level", 3)); title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	if !strings.HasPrefix(counter, "1手目") || play.Value != ja.T("web.play_title") {
		t.Errorf("counter %q, play button %q", counter, play.Value)
	}
	transcript := strings.ReplaceAll(done.State.Transcript(), " ", "")
	for _, line := range strings.Split(text, "\n") {
		line = strings.ReplaceAll(line, " ", "")
		for _, w := range latinWord.FindAllString(strings.ReplaceAll(line, transcript, ""), -1) {
			if w != "alice" && w != "AI" {
				t.Errorf("English %q in a Japanese reader's page: %q", w, line)
			}
		}
	}
	t.Logf("counter %q\n%s", counter, text)
}

// latinWord is a run of Latin letters longer than a square's column.
var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

// A page follows a game for over ten seconds whose writer's clock stands
// still (as `local`'s does): every move shows, each within a second.
func TestPageFollowsAStandingClock(t *testing.T) {
	if testing.Short() {
		t.Skip("follows a game for 12 s")
	}
	f := newFixture(t)
	g := f.newGame("c1", 8, 2)
	ctx := browser(t)
	writer := f.otherProcess()
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the event stream is open
	frozen := time.Now()               // and it stays so
	start, worst := time.Now(), time.Duration(0)
	for time.Since(start) < 12*time.Second && !g.State.Over() {
		writer.playAt(g, frozen)
		t0 := time.Now()
		for attr(t, ctx, "total") != len(g.Plies()) {
			if time.Since(t0) > time.Second {
				t.Fatalf("move %d, %v into the game, did not show within a second", len(g.Plies()), time.Since(start).Round(time.Second))
			}
			time.Sleep(20 * time.Millisecond)
		}
		worst = max(worst, time.Since(t0))
		time.Sleep(time.Second - time.Since(t0))
	}
	t.Logf("%d plies over %v, each shown within %v", len(g.Plies()), time.Since(start).Round(time.Second), worst.Round(time.Millisecond))
}

// A live game's page shows both clocks and ticks the running one down,
// as the game message's timestamp does, from the flag's own time.
func TestPageTicksTheClocks(t *testing.T) {
	// Both first moves made, black has 2:05 left and is to move.
	f, g := liveGame(t, "3+2", [2]time.Duration{125 * time.Second, 3 * time.Minute})
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
		t.Fatal(err)
	}
	read := func() (string, string) {
		black, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("clock-X")))
		if err != nil {
			t.Fatal(err)
		}
		white, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("clock-O")))
		if err != nil {
			t.Fatal(err)
		}
		return black, white
	}
	b1, w1 := read()
	// Black's clock runs from the start of the turn: however long the
	// browser took to open the page (seconds on a busy machine), it shows
	// 2:05 less the time since, to the second.
	want := 125*time.Second - time.Since(g.TurnStartedAt)
	if shown, ok := clockSeconds(b1); !ok || shown > want+time.Second || shown < want-2*time.Second || w1 != "3:00" {
		t.Fatalf("clocks %q %q, want black near %v and white 3:00", b1, w1, want.Round(time.Second))
	}
	time.Sleep(2100 * time.Millisecond)
	b2, w2 := read()
	if b2 >= b1 || w2 != w1 {
		t.Fatalf("after two seconds the clocks read %q %q (were %q %q): black's should run, white's stand", b2, w2, b1, w1)
	}
}

// Under ten seconds a running clock shows tenths on the page, as in the
// game message (#44).
func TestPageShowsTenthsUnderTenSeconds(t *testing.T) {
	f, g := liveGame(t, "1+0", [2]time.Duration{8 * time.Second, time.Minute}) // black to move with 8 s
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.ID("clock-X"))); err != nil {
		t.Fatal(err)
	}
	black, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("clock-X")))
	if err != nil {
		t.Fatal(err)
	}
	white, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("clock-O")))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^0:0[0-8]\.\d$`).MatchString(black) || white != "1:00" {
		t.Fatalf("clocks %q %q, want black in tenths under 0:08.0 and white 1:00", black, white)
	}
	// Low time: black's clock (under ten seconds) is red, white's not.
	low, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`["clock-X", "clock-O"].map(id => document.getElementById(id).classList.contains("low"))`))
	if err != nil || len(low) != 2 || !low[0] || low[1] {
		t.Fatalf("low time marked %v (%v), want black's only", low, err)
	}
	// On the dark page black's marker is drawn dark, white's light (#44:
	// black's was drawn in the page's light text colour).
	colors, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["box-X", "box-O"].map(id => {
		const m = document.querySelector("#" + id + " .mark");
		return m ? getComputedStyle(m).color : "no marker";
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(colors) != 2 || colors[0] != "rgb(17, 17, 17)" || colors[1] != "rgb(245, 245, 245)" {
		t.Fatalf("the clocks' markers are drawn %v, want black's dark and white's light", colors)
	}
}

// liveGame is a stored game on control whose first two moves are made,
// black to move with left[0] on the clock (white left[1]) from now.
// clockSeconds reads a clock shown as "m:ss".
func clockSeconds(text string) (time.Duration, bool) {
	m, sec, ok := strings.Cut(text, ":")
	mi, err1 := strconv.Atoi(m)
	si, err2 := strconv.Atoi(sec)
	if !ok || err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(mi*60+si) * time.Second, true
}

func liveGame(t *testing.T, control string, left [2]time.Duration) (*fixture, *record.Game) {
	t.Helper()
	return liveGameAt(t, control, left, time.Now())
}

// liveGameAt is liveGame with the game's clock at now.
func liveGameAt(t *testing.T, control string, left [2]time.Duration, now time.Time) (*fixture, *record.Game) {
	t.Helper()
	f := newFixture(t)
	c, _ := timecontrol.Parse(control)
	start, _ := game.NewPosition(8)
	g := &record.Game{GuildID: "g", ChannelID: "live-" + control, State: game.NewGame(start), Black: record.Human(record.Player{ID: "1", Name: "alice"}),
		White: record.Human(record.Player{ID: "2", Name: "bob"}), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, Control: c}
	if err := f.store.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		plies, _ := g.State.Play(g.Position().LegalMoves()[0])
		at := now
		if err := f.store.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: at, Left: left, Deadline: at.Add(left[0])}); err != nil {
			t.Fatal(err)
		}
	}
	return f, g
}
