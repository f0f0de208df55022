package local_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/puzzle"
	"othello-bot/storm"
)

// stormStep answers the run's current puzzle: its right move when right
// is set, else another legal move. It returns the output and the puzzle.
func (e *env) stormStep(user string, runID int64, right bool) (string, puzzle.Record) {
	e.t.Helper()
	ctx := context.Background()
	r, err := e.store.Run(ctx, runID)
	if err != nil {
		e.t.Fatal(err)
	}
	rec, err := e.store.Puzzle(ctx, r.Puzzle())
	if err != nil {
		e.t.Fatal(err)
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
			e.t.Fatalf("puzzle %d has no wrong move", rec.ID)
		}
	}
	return e.say(user + " #lobby: select " + move.String()), rec
}

// stormSolve solves the run's current puzzle, every move of its line.
func (e *env) stormSolve(user string, runID int64) string {
	e.t.Helper()
	for {
		out, rec := e.stormStep(user, runID, true)
		if !strings.Contains(out, "Your move again") {
			if rec.ID == 0 {
				e.t.Fatal("no puzzle")
			}
			return out
		}
	}
}

// Puzzle Storm through the terminal: a run dealt from the built-in set,
// rising by rating; five right in a row add 3 seconds, a miss takes 10;
// someone else's hand and a second answer to the same step are refused;
// an answer after the clock ran out ends the run without counting; the
// score shows on /stats. Then a Streak that a miss ends.
func TestPuzzleStormThroughTheTerminal(t *testing.T) {
	e := open(t, t.TempDir())
	ctx := context.Background()
	if err := e.app.Puzzles.AddBuiltinPuzzles(ctx); err != nil {
		t.Fatal(err)
	}
	start := e.clock.Now()
	out := e.say("alice #lobby: /puzzle mode:storm")
	expect(t, out, "(only visible to alice)", "⚡ Puzzle Storm · alice", "Time runs out", "solved 0", "Combo 0 ▱▱▱▱▱ · +3 s at 5 in a row", "Puzzle 1 · rated")
	r, err := e.store.Run(ctx, 1)
	if err != nil || r.Player.ID != "alice" || len(r.Puzzles) != storm.StormSize {
		t.Fatalf("the run: %+v %v", r, err)
	}
	var last float64
	for i, id := range r.Puzzles {
		rec, _ := e.store.Puzzle(ctx, id)
		if rec.Rating.Rating < last {
			t.Fatalf("puzzle %d of the run is rated below the one before", i+1)
		}
		last = rec.Rating.Rating
	}

	for i := 1; i <= 4; i++ {
		out = e.stormSolve("alice", 1)
		expect(t, out, ": solved.", "solved "+itoa(i))
	}
	out = e.stormSolve("alice", 1)
	expect(t, out, "5 in a row: +3 s!", "Combo 5 ▱▱▱▱▱ · +5 s at 10 in a row")
	if r, _ := e.store.Run(ctx, 1); !r.Ends.Equal(start.Add(storm.Duration + 3*time.Second)) {
		t.Fatalf("after the bonus the clock ends at %v", r.Ends.Sub(start))
	}

	// Not alice's hand; then the same step answered twice.
	r, _ = e.store.Run(ctx, 1)
	custom := "storm:1:" + itoa(r.Index) + ":" + itoa(r.Step)
	expect(t, e.press("bob", custom, "a1"), "This run is someone else's")
	out, _ = e.stormStep("alice", 1, false)
	expect(t, out, "is not it (it was", "−10 s, and the combo starts again", "solved 5", "Combo 0")
	if r, _ := e.store.Run(ctx, 1); !r.Ends.Equal(start.Add(storm.Duration-7*time.Second)) || r.Misses != 1 {
		t.Fatalf("after a miss: ends at %v, misses %d", r.Ends.Sub(start), r.Misses)
	}
	expect(t, e.press("alice", custom, "a1"), "You have answered this already")

	e.stormSolve("alice", 1)
	e.clock.Advance(3 * time.Minute)
	out, _ = e.stormStep("alice", 1, true)
	expect(t, out, "⚡ Puzzle Storm over · alice", "⏱ Time is up.", "Score: 6 · misses 1 · best combo 5", "Your best: 6 today · 6 ever", "A new best!")
	if r, _ := e.store.Run(ctx, 1); !r.Over || r.Solved != 6 {
		t.Fatalf("the run after its time: %+v", r)
	}
	expect(t, e.say("alice #lobby: /stats"), "Puzzle Storm: best today 6 · ever 6")

	// Streak: no clock; one right, then a miss ends it.
	out = e.say("alice #lobby: /puzzle mode:streak")
	expect(t, out, "🔥 Puzzle Streak · alice", "Streak: 0 solved")
	if strings.Contains(out, "Time runs out") {
		t.Fatalf("a streak shows a clock:\n%s", out)
	}
	e.clock.Advance(time.Hour)
	expect(t, e.stormSolve("alice", 2), "Streak: 1 solved")
	out, _ = e.stormStep("alice", 2, false)
	expect(t, out, "🔥 Puzzle Streak over · alice", "Score: 1 · misses 1", "/puzzle mode:streak to go again")
	expect(t, e.say("alice #lobby: /stats"), "Puzzle Storm: best today 6 · ever 6", "Puzzle Streak: best today 1 · ever 1")
	expect(t, e.say("alice #lobby: /puzzle mode:storm show:me"), "Pick show or mode, not both")
}

func itoa(i int) string { return strconv.Itoa(i) }

// press answers a menu by its custom id, as user; the answer is private.
func (e *env) press(user, customID, value string) string {
	e.t.Helper()
	resp := e.handle(user, local.GuildID, "lobby", bot.Request{Kind: bot.Select, CustomID: customID, Values: []string{value}})
	if resp.Message == nil || !resp.Message.Ephemeral {
		e.t.Fatalf("%s pressing %s: %+v", user, customID, resp.Message)
	}
	return resp.Message.Content
}

// Puzzle Racer through the terminal: alice opens a race, bob and carol
// join (bob twice: refused), only alice starts it, someone not in it
// cannot play; each races on the same puzzles on a message of their own;
// the race's track follows the answers, edited at most once a second;
// at the end the standings, and an answer after it does not count.
func TestPuzzleRacerThroughTheTerminal(t *testing.T) {
	e := open(t, t.TempDir())
	ctx := context.Background()
	if err := e.app.Puzzles.AddBuiltinPuzzles(ctx); err != nil {
		t.Fatal(err)
	}
	out := e.say("alice #lobby: /puzzle mode:race")
	expect(t, out, "Your race is open in this channel", "🏁 Puzzle Racer", "alice opened a race: up to 10 racers, 90 seconds", "Racers (1/10): alice")
	expect(t, e.say("bob #lobby: click Join"), "Racers (2/10): alice, bob")
	expect(t, e.say("bob #lobby: click Join"), "You are in this race already")
	expect(t, e.say("carol #lobby: click Join"), "Racers (3/10): alice, bob, carol")
	expect(t, e.say("bob #lobby: click Start"), "Only alice, who opened the race, can start it")
	expect(t, e.say("alice #lobby: click Start"), "Racing! It ends")
	expect(t, e.say("dave #lobby: click Play"), "You are not in this race")
	expect(t, e.press("carol", "racejoin:1", ""), "This race has started already")

	runs, err := e.store.RaceRuns(ctx, 1)
	if err != nil || len(runs) != 3 {
		t.Fatalf("runs %v %v", runs, err)
	}
	for _, r := range runs[1:] {
		if !slices.Equal(r.Puzzles, runs[0].Puzzles) {
			t.Fatal("racers were dealt different puzzles")
		}
	}
	ids := map[string]int64{}
	for _, r := range runs {
		ids[r.Player.ID] = r.ID
	}
	for _, who := range []string{"alice", "bob", "carol"} {
		expect(t, e.say(who+" #lobby: click Play"), "(only visible to "+who+")", "🏁 Puzzle Racer · "+who, "Puzzle 1 · rated")
	}
	// The first answer edits the track; the next ones within the second
	// leave it to the tick.
	first := e.stormSolve("alice", ids["alice"])
	if !strings.Contains(first, "1 solved · 0 missed") {
		t.Fatalf("the first answer did not show on the track:\n%s", first)
	}
	e.stormSolve("alice", ids["alice"])
	e.stormSolve("alice", ids["alice"])
	e.stormSolve("carol", ids["carol"])
	e.stormSolve("carol", ids["carol"])
	out, _ = e.stormStep("bob", ids["bob"], false)
	expect(t, out, "is not it: it was")
	if strings.Contains(out, "3 solved") {
		t.Fatalf("the track was edited twice in a second:\n%s", out)
	}
	e.stormSolve("bob", ids["bob"])
	expect(t, e.say("wait 1s"), "🥇 alice ▰▰▰▰▰▰▰▰▰▰ 3 solved · 0 missed", "🥈 carol", "2 solved", "🥉 bob", "1 solved · 1 missed")

	out = e.say("wait 90s")
	expect(t, out, "The race is over. Standings:", "🥇 alice", "🥈 carol", "🥉 bob")
	out, _ = e.stormStep("alice", ids["alice"], true)
	expect(t, out, "Your race is over · alice", "Time is up", "Score: 3 · misses 0", "The standings are on the race's message")
	if r, _ := e.store.Run(ctx, ids["alice"]); r.Solved != 3 {
		t.Fatalf("an answer after the race counted: %d", r.Solved)
	}

	// A race nobody starts closes after ten minutes, its buttons gone.
	expect(t, e.say("bob #lobby: /puzzle mode:race"), "Racers (1/10): bob")
	out = e.say("wait 10m")
	expect(t, out, "Nobody started this race: it is closed.")
	if strings.Contains(out, "Racing!") {
		t.Fatalf("a closed race shows as racing:\n%s", out)
	}
	expect(t, e.say("carol #lobby: click Join"), `no button "Join"`)
}
