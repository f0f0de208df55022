package main

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/game"
	"othello-bot/internal/browsertest"
	"othello-bot/puzzle"
	"othello-bot/storage"
	"othello-bot/storm"
)

// boardLink is the link button local shows for a run's page or a race's.
var (
	boardLink = regexp.MustCompile(`\[Play on the board ↗ (http://[^\]\s]+)\]`)
	raceLink  = regexp.MustCompile(`\[Watch the race ↗ (http://[^\]\s]+)\]`)
)

// waitMatch waits for re in local's output since from and returns its
// last match's first group.
func waitMatch(t *testing.T, l *localGame, re *regexp.Regexp, from int) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out := l.out.String()
		if m := re.FindAllStringSubmatch(out[min(from, len(out)):], -1); len(m) > 0 {
			return m[len(m)-1][1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s in:\n%s", re, out[max(0, len(out)-3000):])
		}
	}
}

// pageEval runs js in tab and returns it as text.
func pageEval(t *testing.T, tab context.Context, js string) string {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { try { return String(`+js+`); } catch (e) { return ""; } })()`))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// pageWait waits until js, in tab, is true.
func pageWait(t *testing.T, tab context.Context, what, js string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); pageEval(t, tab, js) != "true"; time.Sleep(30 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 15 s (page: %s)", what, pageEval(t, tab, `document.body.innerText`))
		}
	}
}

// clickAnswer clicks the run's right move (read from the store: only the
// server knows it) or a wrong one, on the page, and waits for the page to
// move on.
func clickAnswer(t *testing.T, tab context.Context, store *storage.Store, runID int64, right bool) storm.Run {
	t.Helper()
	ctx := context.Background()
	r, err := store.Run(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := store.Puzzle(ctx, r.Puzzle())
	if err != nil {
		t.Fatal(err)
	}
	move := rec.Line[r.Step]
	if !right {
		pos, _ := rec.Position(r.Step)
		for _, m := range pos.LegalMoves() {
			if v, _, _ := rec.Answer(r.Step, m); v == puzzle.Wrong {
				move = m
				break
			}
		}
		if move == rec.Line[r.Step] {
			t.Skipf("puzzle %d has no wrong move", rec.ID)
		}
	}
	at := strconv.Itoa(r.Index) + ":" + strconv.Itoa(r.Step)
	pageWait(t, tab, "the page at the run's puzzle", `document.body.dataset.index + ":" + document.body.dataset.step === "`+at+`"`)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#sboard button[data-square="`+move.String()+`"]`))); err != nil {
		t.Fatal(err)
	}
	pageWait(t, tab, "the page past "+move.String(), `document.body.dataset.index + ":" + document.body.dataset.step !== "`+at+`" || document.body.dataset.over === "1"`)
	after, err := store.Run(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	return after
}

// Puzzle Storm by clicks: alice starts a run in the terminal and follows
// its "Play on the board" link; on the page, right answers (clicked on the
// squares) earn the combo's 3 s at the fifth in a row and a wrong one
// costs 10 s, by the same rules as the chat's menu — which, for the same
// run, is now refused (one run, whichever door). Bob, logged in by a run
// of his own, can neither see nor answer hers. When the clock has run out
// the page shows the result, and /stats the score.
func TestLocalStormByClicks(t *testing.T) {
	if testing.Short() {
		t.Skip("a run in a browser")
	}
	l := startLocal(t)
	l.in.Write([]byte("alice: /puzzle mode:storm\n"))
	link := waitMatch(t, l, boardLink, 0)
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/storm/") || u.Query().Get("login") == "" {
		t.Fatalf("the run's link: %q", link)
	}
	runID, _ := strconv.ParseInt(path.Base(u.Path), 10, 64)
	ctx := context.Background()
	store, err := storage.Open(ctx, l.db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	browser := browsertest.Start(t, 2*time.Minute)
	alice := browsertest.Person(t, browser)
	if err := chromedp.Do(alice, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	pageWait(t, alice, "alice's run on its page", `document.body.dataset.ready === "1" && document.querySelectorAll("#sboard button.legal").length > 0`)
	if p := pageEval(t, alice, `location.search`); strings.Contains(p, "login") {
		t.Errorf("the login token stays in the address: %s", p)
	}
	var r storm.Run
	for r.Solved < storm.ComboStep {
		r = clickAnswer(t, alice, store, runID, true)
	}
	if dir := os.Getenv("OTHELLO_SCREENSHOTS"); dir != "" {
		if png, err := chromedp.Run(alice, chromedp.FullScreenshot(100)); err == nil {
			os.WriteFile(dir+"/storm-run.png", png, 0o644)
		}
	}
	if got := r.Ends.Sub(r.Started); got != storm.Duration+storm.Bonus(storm.ComboStep) {
		t.Fatalf("after %d solved in a row the clock is %v, want 3m3s", r.Solved, got)
	}
	if notes := pageEval(t, alice, `document.getElementById("notes").innerText`); !strings.Contains(notes, "5 in a row: +3 s") {
		t.Errorf("the page's note after the fifth: %q", notes)
	}
	r = clickAnswer(t, alice, store, runID, false)
	if got := r.Ends.Sub(r.Started); r.Misses != 1 || r.Combo != 0 || got != storm.Duration+3*time.Second-storm.MissPenalty {
		t.Fatalf("after a miss: misses %d, combo %d, clock %v", r.Misses, r.Combo, got)
	}
	if got := pageEval(t, alice, `document.getElementById("misses").textContent + " " + document.getElementById("score").textContent`); got != "1 5" {
		t.Errorf("the page shows missed and solved %q, want 1 5", got)
	}
	// The terminal's menu still offers the first puzzle's moves: refused,
	// nothing moved.
	from := len(l.out.String())
	l.in.Write([]byte("alice: select " + firstOffered(t, store, r) + "\n"))
	waitFor(t, l, from, "You have answered this already.")
	if again, _ := store.Run(ctx, runID); again.Index != r.Index || again.Solved != r.Solved || again.Misses != r.Misses {
		t.Fatalf("a stale menu moved the run: %+v, was %+v", again, r)
	}

	// Bob's own run logs him in; alice's run is not his to see or answer.
	from = len(l.out.String())
	l.in.Write([]byte("bob: /puzzle mode:streak\n"))
	bobLink := waitMatch(t, l, boardLink, from)
	bob := browsertest.Person(t, browser)
	if err := chromedp.Do(bob, chromedp.Navigate(bobLink)); err != nil {
		t.Fatal(err)
	}
	pageWait(t, bob, "bob's streak", `document.body.dataset.ready === "1"`)
	if c := pageEval(t, bob, `document.getElementById("clock").hidden`); c != "true" {
		t.Errorf("a streak shows a clock")
	}
	status, err := chromedp.Run(bob, chromedp.Evaluate[string](`(async () => { const a = await fetch("`+strconv.FormatInt(runID, 10)+`/state");
		const b = await fetch("`+strconv.FormatInt(runID, 10)+`/answer", {method: "POST", headers: {"Content-Type": "application/json"},
			body: JSON.stringify({index: `+strconv.Itoa(r.Index)+`, step: `+strconv.Itoa(r.Step)+`, square: "a1"})});
		return a.status + " " + b.status; })()`, chromedp.EvalAwaitPromise))
	if err != nil || status != "403 403" {
		t.Fatalf("bob asking for and answering alice's run: %q (%v), want 403 403", status, err)
	}

	// The clock runs out (local's clock moves with wait): the page shows
	// the result, /stats the score.
	from = len(l.out.String())
	l.in.Write([]byte("wait 4m\nalice: /stats\n"))
	waitFor(t, l, from, "Puzzle Storm")
	if out := l.out.String()[from:]; !strings.Contains(out, "best today 5 · ever 5") {
		t.Fatalf("/stats after the run:\n%s", out)
	}
	if err := chromedp.Do(alice, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	pageWait(t, alice, "the run's result", `document.body.dataset.over === "1"`)
	if res := pageEval(t, alice, `document.getElementById("result").innerText`); !strings.Contains(res, "Score: 5 · misses 1") {
		t.Fatalf("the result on the page: %q", res)
	}
}

// firstOffered is the first move the chat's menu offered in r's first
// puzzle.
func firstOffered(t *testing.T, store *storage.Store, r storm.Run) string {
	t.Helper()
	rec, err := store.Puzzle(context.Background(), r.Puzzles[0])
	if err != nil {
		t.Fatal(err)
	}
	moves := rec.Start.LegalMoves()
	if len(moves) == 0 {
		return game.Pass.String()
	}
	return moves[0].String()
}

// waitFor waits for text in local's output since from.
func waitFor(t *testing.T, l *localGame, from int, text string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(l.out.String()[from:], text); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in:\n%s", text, l.out.String()[from:])
		}
	}
}

// A race's page is its live track: opened from the race message's link
// by someone not racing (no login), it shows the racers, a racer's right
// answer in the chat within the page's poll, and the standings at the
// end, after which it stops asking. A forged key is not found.
func TestLocalRacePageLive(t *testing.T) {
	if testing.Short() {
		t.Skip("a race in a browser")
	}
	l := startLocal(t)
	l.in.Write([]byte("alice #lobby: /puzzle mode:race\nbob #lobby: click Join\nalice #lobby: click Start\n"))
	waitFor(t, l, 0, "Racing! It ends")
	watch := waitMatch(t, l, raceLink, 0)
	u, err := url.Parse(watch)
	if err != nil || !strings.HasPrefix(u.Path, "/race/") {
		t.Fatalf("the race's link: %q", watch)
	}
	resp, err := http.Get("http://" + l.addr + "/race/1-00000000000000000000")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a forged race key: %d", resp.StatusCode)
	}
	ctx := context.Background()
	store, err := storage.Open(ctx, l.db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	tab := browsertest.Person(t, browsertest.Start(t, 2*time.Minute))
	if err := chromedp.Do(tab, chromedp.Navigate(watch)); err != nil {
		t.Fatal(err)
	}
	pageWait(t, tab, "the track", `document.body.dataset.status === "racing" && document.body.dataset.racers === "2"`)
	// Bob answers right in the chat: the page shows him ahead.
	from := len(l.out.String())
	l.in.Write([]byte("bob #lobby: click Play\n"))
	waitFor(t, l, from, "Puzzle 1 · rated")
	runs, err := store.RaceRuns(ctx, 1)
	if err != nil || len(runs) != 2 {
		t.Fatalf("the race's runs: %v %v", runs, err)
	}
	rec, err := store.Puzzle(ctx, runs[1].Puzzle())
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < len(rec.Line); step += 2 { // every move of the puzzle's line
		l.in.Write([]byte("bob #lobby: select " + rec.Line[step].String() + "\n"))
	}
	pageWait(t, tab, "bob ahead on the track", `document.querySelector("#track li").innerText.includes("bob") && document.querySelector("#track li").dataset.score === "1"`)
	// The race ends (local's clock moves with wait): the standings, and
	// the page stops asking.
	l.in.Write([]byte("wait 2m\n"))
	pageWait(t, tab, "the standings", `document.body.dataset.status === "finished"`)
	if head := pageEval(t, tab, `document.getElementById("head").innerText`); !strings.Contains(head, "The race is over") {
		t.Fatalf("the page's head at the end: %q", head)
	}
}

// Puzzle Storm from Discord's side: /puzzle mode:storm in the fake
// Discord answers with the run and a link button to its page (within
// Discord's limits: the fake refuses a url over 512); and from the
// Activity's lobby alice opens Puzzle Storm, starts a run — dealt in the
// server the Activity runs in, where Discord says she is a member — and
// answers by a click in Discord's frame, her session going as a Bearer
// token.
func TestActivityStorm(t *testing.T) {
	srv, c, r := activityBot(t)
	alice := discordtest.User{ID: "710000000000000021", Name: "alice"}
	var reply *discordtest.Message
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		reply = srv.Reply(r.do(srv.Command(alice, lobby, "puzzle", map[string]any{"mode": "storm"})))
		if reply != nil && len(reply.Embeds) > 0 || time.Now().After(deadline) {
			break // the built-in set is stored just after start
		}
	}
	if reply == nil || !reply.Ephemeral {
		t.Fatalf("/puzzle mode:storm: %+v; log:\n%s", reply, r.logs)
	}
	if link := linkButton(reply, "Play on the board"); !strings.HasPrefix(link, c.PublicURL+"storm/") || !strings.Contains(link, "?login=") {
		t.Fatalf("the run's link button: %q in %v; reply %+v; log:\n%s", link, reply.Components, reply, r.logs)
	}
	host := activityHost(t, srv, c.WebAddress, alice)
	f := openActivity(t, browsertest.Start(t, time.Minute), host, srv, lobby, r)
	f.waitFor("the lobby", `d.body.dataset.ready`)
	f.eval(`d.getElementById("storm").click()`)
	f.waitFor("the Storm page", `d.getElementById("start-storm")`)
	f.eval(`d.getElementById("start-storm").click()`)
	f.waitFor("alice's run", `d.body.dataset.ready && d.querySelector("#sboard button.legal")`)
	runPath := f.eval(`d.location.pathname`)
	runID, err := strconv.ParseInt(strings.TrimPrefix(runPath, "/.proxy/storm/"), 10, 64)
	if err != nil || runID < 2 {
		t.Fatalf("the run's page in the Activity: %s (a new run after the chat's)", runPath)
	}
	ctx := context.Background()
	store, err := storage.Open(ctx, c.Database, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	run, err := store.Run(ctx, runID)
	if err != nil || run.Player.ID != alice.ID || run.GuildID != srv.GuildID {
		t.Fatalf("the Activity's run: %+v %v", run, err)
	}
	f.eval(`d.querySelector("#sboard button.legal").click()`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(30 * time.Millisecond) {
		if after, err := store.Run(ctx, runID); err == nil && (after.Solved+after.Misses > 0 || after.Step > 0) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the click in the Activity did not answer; page: %s; log:\n%s", f.eval(`d.body.innerText`), r.logs)
		}
	}
	checkClean(t, srv, r)
}
