package local_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/downtime"
	"othello-bot/bot/local"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// firstLegal plays the side to move's first legal move, as its player.
func firstLegal(e *env) string {
	e.t.Helper()
	g := e.game()
	return e.say(g.ToMove().Player.Name + ": /move " + g.Position().LegalMoves()[0].String())
}

// resultLines are the results log's lines.
func resultLines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
}

func startLive(t *testing.T, e *env, control string) {
	t.Helper()
	out := e.say("/challenge @bob color:black size:8 time:"+control, "bob: click Accept")
	if !strings.Contains(out, "bob accepted alice's challenge") {
		t.Fatalf("a live challenge was not accepted:\n%s", out)
	}
}

// A 1+0 game: the first moves are free, then each side's clock runs;
// the game message prints both clocks as m:ss with the flag as a
// timestamp (which the terminal writes as Discord's client counts it); with 10 seconds left the player is pinged once; wait 61s
// lets the flag fall, and the results line says end=timeout time=1+0
// with the time the flag fell, not when the bot noticed.
func TestFlagFalls(t *testing.T) {
	e := open(t, t.TempDir())
	startLive(t, e, "1+0")
	firstLegal(e)        // alice's first move: not timed
	e.say("wait 5s")     // bob's first move: not timed either
	firstLegal(e)        // from here the clocks run
	e.say("wait 2500ms") // alice thinks 2.5 s
	out := firstLegal(e) // alice: 57.5 s left
	if !strings.Contains(out, "⚫ 0:57 · ⚪ 1:00") || !strings.Contains(out, "bob's flag falls in 60 seconds.") {
		t.Fatalf("clocks after alice's timed move:\n%s", out)
	}
	e.say("wait 1s")
	out = firstLegal(e) // bob: 59 s left, alice to move with 57.5 s
	if g := e.game(); g.Left != [2]time.Duration{57500 * time.Millisecond, 59 * time.Second} {
		t.Fatalf("stored clocks %v", g.Left)
	}
	flag := e.game().Deadline
	if want := e.clock.Now().Add(57500 * time.Millisecond); !flag.Equal(want) {
		t.Fatalf("the flag is set for %v, want %v", flag, want)
	}
	out = e.say("wait 47s") // 10.5 s left: no ping yet
	if strings.Contains(out, "⏰") {
		t.Fatalf("pinged too early:\n%s", out)
	}
	out = e.say("wait 1s")
	if !strings.Contains(out, "@alice ⏰ 0:09.5 left in game #1") { // tenths under ten seconds
		t.Fatalf("no low-time ping:\n%s", out)
	}
	if out = e.say("wait 1s"); strings.Contains(out, "⏰") {
		t.Fatalf("pinged twice:\n%s", out)
	}
	out = e.say("wait 61s")
	if !strings.Contains(out, "alice ⚫ ran out of time.") || !strings.Contains(out, "@alice you ran out of time in game #1") {
		t.Fatalf("the flag did not fall:\n%s", out)
	}
	lines := resultLines(t, e.dir)
	stamp := flag.UTC().Format(time.RFC3339)
	if len(lines) != 1 || !strings.Contains(lines[0], "winner=white end=timeout time=1+0 ") || !strings.HasPrefix(lines[0], stamp) {
		t.Fatalf("results log %q, want one line at %s with end=timeout time=1+0", lines, stamp)
	}
	g, err := e.store.Game(context.Background(), 1)
	if err != nil || !g.Result.FinishedAt.Equal(flag) {
		t.Fatalf("finished at %v, the flag fell at %v (%v)", g.Result.FinishedAt, flag, err)
	}
	// Later moves are refused: the game is over.
	if out := e.say("/move " + g.Position().LegalMoves()[0].String()); !strings.Contains(out, "only visible to alice") {
		t.Errorf("a move after the end:\n%s", out)
	}
}

// Increments are added after every timed move, to the millisecond.
func TestIncrementsExact(t *testing.T) {
	e := open(t, t.TempDir())
	startLive(t, e, "3+2")
	firstLegal(e)
	firstLegal(e)
	steps := []struct {
		wait string
		left [2]time.Duration
	}{
		{"1234ms", [2]time.Duration{180*time.Second - 1234*time.Millisecond + 2*time.Second, 180 * time.Second}},
		{"10s", [2]time.Duration{180*time.Second + 766*time.Millisecond, 172 * time.Second}},
		{"0s", [2]time.Duration{180*time.Second + 766*time.Millisecond + 2*time.Second, 172 * time.Second}},
		{"59999ms", [2]time.Duration{182*time.Second + 766*time.Millisecond, 172*time.Second - 59999*time.Millisecond + 2*time.Second}},
	}
	for i, s := range steps {
		e.say("wait " + s.wait)
		firstLegal(e)
		if g := e.game(); g.Left != s.left {
			t.Fatalf("after move %d (%s): clocks %v, want %v", i+1, s.wait, g.Left, s.left)
		}
	}
}

// A live game whose first move never comes is aborted, not lost, when the
// abort window ends (30 s for a 1+0 game).
func TestNoFirstMoveAborts(t *testing.T) {
	e := open(t, t.TempDir())
	startLive(t, e, "1+0")
	if out := e.say("wait 29s"); strings.Contains(out, "aborted") {
		t.Fatalf("aborted early:\n%s", out)
	}
	out := e.say("wait 1s")
	if !strings.Contains(out, "alice ⚫ did not make a first move in time: the game is aborted, and nobody loses.") {
		t.Fatalf("not aborted:\n%s", out)
	}
	lines := resultLines(t, e.dir)
	if len(lines) != 1 || !strings.Contains(lines[0], "winner=none end=abort time=1+0 ") {
		t.Fatalf("results log %q", lines)
	}
}

// A restart continues the stored clocks. Down for two minutes across a
// flag, the bot does not score it: the clock stood still from the last
// heartbeat and runs again ten seconds after the start, as the game says,
// and the flag falls later by just that, once.
func TestClocksAcrossRestarts(t *testing.T) {
	e := open(t, t.TempDir())
	startLive(t, e, "1+0")
	firstLegal(e)
	firstLegal(e)
	e.say("wait 3s")
	firstLegal(e) // alice: 57 s
	before := e.game()
	e = reopen(e) // the process stops between two turns, without a goodbye
	if g := e.game(); g.Left != before.Left || !g.Deadline.Equal(before.Deadline) {
		t.Fatalf("after a restart: clocks %v flag %v, before %v %v", g.Left, g.Deadline, before.Left, before.Deadline)
	}
	e.say("wait 4s")
	firstLegal(e) // bob: 56 s; alice to move with 57 s, since the last heartbeat
	if g := e.game(); g.Left != [2]time.Duration{57 * time.Second, 56 * time.Second} {
		t.Fatalf("clocks after the restart: %v", g.Left)
	}
	e.say("wait 20s") // alice thinks 20 s of her 57, then the bot goes down
	flag := e.game().Deadline
	e.store.Close()
	back := e.clock.Now().Add(2 * time.Minute)
	e = openAt(t, e.dir, back)
	if lines := resultLines(t, e.dir); len(lines) != 0 {
		t.Fatalf("a flag that fell while the bot was down was scored: %q (the flag was due %v)", lines, flag)
	}
	out := e.out.String()
	if !strings.Contains(out, "⏸️ I was away for 2 minutes, and no clock ran meanwhile: alice's clock runs again in 10 seconds.") ||
		!strings.Contains(out, "⚫ 0:37 · ⚪ 0:56") {
		t.Fatalf("the game does not say its time was given back:\n%s", out)
	}
	g := e.game()
	if want := back.Add(downtime.Grace + 37*time.Second); !g.Deadline.Equal(want) || g.Left != [2]time.Duration{37 * time.Second, 56 * time.Second} {
		t.Fatalf("after the outage: flag %v (want %v), clocks %v", g.Deadline, want, g.Left)
	}
	// A restart at once gives nothing more back.
	e = reopen(e)
	if again := e.game(); !again.Deadline.Equal(g.Deadline) || strings.Contains(e.out.String(), "⏸️") {
		t.Fatalf("a quick restart moved the flag from %v to %v:\n%s", g.Deadline, again.Deadline, e.out.String())
	}
	if out := e.say("wait 46s"); strings.Contains(out, "ran out of time") {
		t.Fatalf("the flag fell before the time given back was used:\n%s", out)
	}
	out = e.say("wait 2s")
	lines := resultLines(t, e.dir)
	if !strings.Contains(out, "alice ⚫ ran out of time.") || len(lines) != 1 || !strings.HasPrefix(lines[0], g.Deadline.UTC().Format(time.RFC3339)) {
		t.Fatalf("the flag after the time given back: results %q, want one at %v\n%s", lines, g.Deadline, out)
	}
	e = reopen(e)
	e.say("wait 1m")
	if lines := resultLines(t, e.dir); len(lines) != 1 {
		t.Fatalf("the flag was applied again: %q", lines)
	}
}

// A move that reaches the bot after the flag fell, before any timer
// noticed, is not played: the game ends on time as of the flag.
func TestMoveAfterTheFlag(t *testing.T) {
	e := open(t, t.TempDir())
	startLive(t, e, "1+0")
	firstLegal(e)
	firstLegal(e)
	firstLegal(e)
	firstLegal(e)
	flag := e.game().Deadline
	e.clock.Advance(time.Minute) // no tick: nothing noticed the flag
	g := e.game()
	out := e.say("/move " + g.Position().LegalMoves()[0].String())
	if !strings.Contains(out, "Your time ran out before that move reached me") || !strings.Contains(out, "alice ⚫ ran out of time.") {
		t.Fatalf("a move after the flag:\n%s", out)
	}
	after, _ := e.store.Game(context.Background(), g.ID)
	if len(after.Plies()) != len(g.Plies()) || !after.Result.FinishedAt.Equal(flag) || after.Result.Reason != record.EndTimeout {
		t.Fatalf("the late move was played or the end is wrong: %d plies, %+v", len(after.Plies()), after.Result)
	}
}

// Ratings of each speed are kept apart: a bullet game moves the bullet
// ratings only.
func TestRatingsPerSpeed(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black size:8 time:1+0 rated:true", "bob: click Accept")
	for range 4 {
		firstLegal(e)
	}
	e.say("wait 2m") // alice flags
	out := e.say("/leaderboard speed:bullet")
	if !strings.Contains(out, "Leaderboard · this server · Bullet") || !strings.Contains(out, "bob") || !strings.Contains(out, "alice") {
		t.Fatalf("the bullet leaderboard:\n%s", out)
	}
	if out := e.say("/leaderboard speed:correspondence"); !strings.Contains(out, "No rated correspondence games here yet. Rated games here are Bullet") {
		t.Fatalf("the correspondence leaderboard has the bullet game:\n%s", out)
	}
	out = e.say("/stats")
	if !strings.Contains(out, "Rating everywhere · Bullet: 1338, provisional") || strings.Contains(out, "not rated yet") {
		t.Fatalf("stats per speed:\n%s", out)
	}
	if out := e.say("/history"); !strings.Contains(out, "lost 4–4 by time · 1+0 · Diagonal Opening (8x8)") {
		t.Errorf("the history does not name the control:\n%s", out)
	}
	if out := e.say("/leaderboard speed:ultra"); !strings.Contains(out, "The speed must be bullet") {
		t.Errorf("an unknown speed:\n%s", out)
	}
}

// Refused controls get a clear answer and start nothing.
func TestBadTimeControls(t *testing.T) {
	e := open(t, t.TempDir())
	for _, c := range []struct{ typed, want string }{
		{"0+0", "gives no time to play"},
		{"999+999", "more time than a game may have"},
		{"-1", `can't read "-1" as a time control`},
		{"3+2+1", `can't read "3+2+1"`},
		{"5 minutes", `can't read "5 minutes"`},
	} {
		out := e.say("/challenge @bob time:" + c.typed)
		if !strings.Contains(out, c.want) || !strings.Contains(out, "only visible to alice") {
			t.Errorf("time:%s answered:\n%s", c.typed, out)
		}
	}
	if _, err := e.store.ActiveGame(context.Background(), local.ChannelID); err == nil {
		t.Error("a game started")
	}
	// Against the bot, the engine keeps to its clock.
	out := e.say("/start level:5 time:1+0 color:white")
	if !strings.Contains(out, "Time control") || !strings.Contains(out, "1+0 · Bullet") {
		t.Fatalf("a game against the bot on a clock:\n%s", out)
	}
	if g := e.game(); g.Control != (timecontrol.Control{Base: time.Minute}) || g.Left[0] != time.Minute {
		t.Errorf("the bot's game: %v %v", g.Control, g.Left)
	}
}
