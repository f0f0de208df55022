package local_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
)

// playRandomGames plays n games between alice and bob in a channel to the
// end, each move a random legal one (beginners' mistakes make puzzles).
func (e *env) playRandomGames(channel string, n int, rng *rand.Rand) {
	e.t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		e.say("alice #"+channel+": /challenge @bob color:black rated:false", "bob #"+channel+": click Accept")
		for ply := 0; ply < 70; ply++ {
			g, err := e.store.ActiveGame(ctx, channel)
			if err != nil {
				break
			}
			moves := g.Position().LegalMoves()
			e.say(g.ToMove().Player.ID + " #" + channel + ": /move " + moves[rng.IntN(len(moves))].String())
		}
		if _, err := e.store.ActiveGame(ctx, channel); err == nil {
			e.t.Fatal("a random game did not end")
		}
		e.clock.Advance(time.Minute)
	}
}

var puzzleNumber = regexp.MustCompile(`Puzzle #(\d+)`)

// lastPuzzle is the puzzle the latest output shows.
func (e *env) lastPuzzle(out string) puzzle.Record {
	e.t.Helper()
	m := puzzleNumber.FindAllStringSubmatch(out, -1)
	if m == nil {
		e.t.Fatalf("no puzzle shown:\n%s", out)
	}
	id, _ := strconv.ParseInt(m[len(m)-1][1], 10, 64)
	rec, err := e.store.Puzzle(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return rec
}

// Puzzles from a fixture of finished games: each game searched once, every
// puzzle re-solved a second way and checked against its game; then /puzzle
// answered wrong, right (a whole line, the replies played for the player),
// twice, by someone else and after its time, with the ratings, streaks and
// the server's leaderboard moving as they should.
func TestPuzzlesThroughTheTerminal(t *testing.T) {
	e := open(t, t.TempDir())
	e.cfg.Puzzles.Empties = 12 // quick solves; the bot searches 20
	e.adapter.SetService(rebuild(e, quiet))
	svc := e.adapter.Service()
	ctx := context.Background()
	expect(t, e.say("alice #lobby: /puzzle"), "You have tried every puzzle there is for now")

	e.playRandomGames("lobby", 6, rand.New(rand.NewPCG(5, 6)))
	if n, err := svc.SearchPuzzles(ctx, 10); err != nil || n != 6 {
		t.Fatalf("searched %d games: %v", n, err)
	}
	if n, _ := svc.SearchPuzzles(ctx, 10); n != 0 {
		t.Fatalf("searched %d games twice", n)
	}
	recs, err := e.store.GuildPuzzles(ctx, local.GuildID)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 3 {
		t.Fatalf("only %d puzzles in 6 random games", len(recs))
	}
	eng := engine.New(engine.Options{Searches: 1})
	multi := 0
	for _, r := range recs {
		if err := puzzle.Verify(ctx, eng, r.Puzzle); err != nil {
			t.Errorf("puzzle %d: %v", r.ID, err)
		}
		g, err := e.store.Game(ctx, r.GameID)
		if err != nil {
			t.Fatal(err)
		}
		moves := g.State.Moves()
		at, err := game.Replay(g.State.Start(), moves[:r.Ply])
		if err != nil {
			t.Fatal(err)
		}
		pos := at.Position()
		if pos.MustPass() {
			pos = pos.Pass()
		}
		if !pos.Equal(r.Start) || moves[r.Ply] != r.Played || r.Start.Empties() > 12 {
			t.Errorf("puzzle %d is not move %d of game %d (played %s)", r.ID, r.Ply+1, r.GameID, r.Played)
		}
		if r.Moves() > 1 {
			multi++
		}
	}
	t.Logf("%d puzzles from 6 games, %d of several moves", len(recs), multi)

	// Not an answer: a square the menu does not offer (an illegal one, or
	// an occupied one) is refused privately and changes nothing.
	out := e.say("alice #lobby: /puzzle")
	expect(t, out, "(only visible to alice)", "to move and", "From game #")
	first := e.lastPuzzle(out)
	legal := map[game.Square]bool{}
	for _, m := range first.Start.LegalMoves() {
		legal[m] = true
	}
	var offside game.Square
	for i := 0; i < 64; i++ {
		if sq := (game.Square{Col: i % 8, Row: i / 8}); !legal[sq] {
			offside = sq
			break
		}
	}
	refused := e.say("alice #lobby: select " + offside.String())
	expect(t, refused, "(only visible to alice)", offside.String()+" is not one of the moves offered")
	if strings.Contains(refused, "is not it") || strings.Contains(refused, "Puzzle rating") {
		t.Fatalf("an unoffered square was judged:\n%s", refused)
	}
	if _, err := e.store.Solver(ctx, "alice"); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("an unoffered square counted as a try: %v", err)
	}

	// Wrong.
	var wrong game.Square
	for _, m := range first.Start.LegalMoves() {
		if m != first.Line[0] {
			wrong = m
			break
		}
	}
	out = e.say("alice #lobby: select " + wrong.String())
	expect(t, out, "❌ "+wrong.String()+" is not it: the move was "+first.Line[0].String(), "Solution: "+game.FormatTranscript(first.Line, 8),
		"Puzzle rating 1500 → ")
	v, _ := e.store.Solver(ctx, "alice")
	if v.Rating.Rating >= 1500 || v.Streak != 0 || v.Attempts != 1 {
		t.Errorf("after a miss: %+v", v)
	}
	// The same menu again, and someone else's hand on it.
	again := func(user, customID string, value game.Square) string {
		resp := e.handle(user, local.GuildID, "lobby", bot.Request{Kind: bot.Select, CustomID: customID, Values: []string{value.String()}})
		if resp.Message == nil || !resp.Message.Ephemeral {
			t.Fatalf("%s pressing %s: %+v", user, customID, resp.Message)
		}
		return resp.Message.Content
	}
	expect(t, again("alice", "puzzle:1:0", first.Line[0]), "You have answered this already")

	// Right, every move of the line.
	out = e.say("alice #lobby: /puzzle")
	second := e.lastPuzzle(out)
	if second.ID == first.ID {
		t.Fatal("the same puzzle twice")
	}
	expect(t, again("bob", "puzzle:2:0", second.Line[0]), "This puzzle is someone else's")
	for step := 0; step < len(second.Line); step += 2 {
		out = e.say("alice #lobby: select " + second.Line[step].String())
		if step+2 < len(second.Line) {
			expect(t, out, "✅ "+second.Line[step].String()+" is right. The reply: "+second.Line[step+1].String())
		}
	}
	expect(t, out, "✅ "+second.Line[len(second.Line)-1].String()+": solved!", "Streak: 1 solved in a row (best 1)")
	v2, _ := e.store.Solver(ctx, "alice")
	if v2.Rating.Rating <= v.Rating.Rating || v2.Streak != 1 || v2.Solved != 1 {
		t.Errorf("after a solve: %+v (before %+v)", v2, v)
	}

	// Too late.
	out = e.say("alice #lobby: /puzzle")
	third := e.lastPuzzle(out)
	e.say("wait 16m")
	expect(t, e.say("alice #lobby: select "+third.Line[0].String()), "Time is up (you have 15 minutes)")
	if v3, _ := e.store.Solver(ctx, "alice"); v3.Streak != 0 || v3.Attempts != 3 {
		t.Errorf("after an expired try: %+v", v3)
	}

	// bob solves one: he leads the leaderboard.
	out = e.say("bob #lobby: /puzzle")
	bobs := e.lastPuzzle(out)
	for step := 0; step < len(bobs.Line); step += 2 {
		out = e.say("bob #lobby: select " + bobs.Line[step].String())
	}
	expect(t, out, "solved!")
	board := e.say("carol #lobby: /puzzle show:leaderboard")
	expect(t, board, "Puzzle leaderboard · this server", "1. bob · ", "solved 1 of 1 here", "2. alice · ", "solved 1 of 3 here")
	if strings.Contains(board, "carol") && !strings.Contains(board, "only visible to carol") {
		t.Errorf("carol, who tried none, is listed:\n%s", board)
	}
	expect(t, e.say("alice #lobby: /puzzle show:me"), "solved 1 of 3 · streak 0 (best 1)")
	expect(t, e.say("carol #lobby: /puzzle show:me"), "You haven't tried a puzzle yet")
}

// The daily puzzle: set by a member who may manage the server, posted once
// its hour comes and only once, across a restart; solved by a member
// through its button (once), listed in the next day's post; yesterday's
// button then says its day is over.
func TestDailyPuzzleOnceAcrossARestart(t *testing.T) {
	e := openWithPuzzles(t) // 2026-11-22 12:00 UTC
	expect(t, e.say("bob #daily: /settings puzzle-channel:here"), "Only members with the Manage Server permission can set the daily puzzle.")
	e.say("admin alice")
	expect(t, e.say("alice #daily: /settings puzzle-hour:24"), "The hour is a whole number from 0 to 23")
	expect(t, e.say("alice #daily: /settings puzzle-channel:here puzzle-hour:13"),
		"The daily puzzle will be posted in #daily every day at 13:00 UTC.")
	expect(t, e.say("alice #daily: /settings"), "Daily puzzle: #daily at 13:00 UTC")
	if out := e.say("wait 30m"); strings.Contains(out, "Daily puzzle ·") {
		t.Fatalf("posted before its hour:\n%s", out)
	}
	out := e.say("wait 31m")
	expect(t, out, "🧩 Daily puzzle · 2026-11-22", "[Solve]")
	if strings.Contains(out, "yesterday") {
		t.Errorf("the first daily puzzle speaks of a yesterday that had none:\n%s", out)
	}

	out = e.say("bob #daily: click Solve")
	expect(t, out, "(only visible to bob)", "to move and")
	p := e.lastPuzzle(out)
	for step := 0; step < len(p.Line); step += 2 {
		out = e.say("bob #daily: select " + p.Line[step].String())
	}
	expect(t, out, "solved!")
	expect(t, e.say("bob #daily: click Solve"), "You have answered today's puzzle already.")

	e = reopen(e) // 13:0x: posted already, by the process before
	e.say("admin alice")
	if out := e.say("wait 1m"); strings.Contains(out, "Daily puzzle ·") {
		t.Fatalf("posted again after a restart:\n%s", out)
	}
	button := "daily:" + strconv.FormatInt(p.ID, 10) + ":2026-11-22"
	if resp := e.handle("bob", local.GuildID, "daily", bot.Request{Kind: bot.Button, CustomID: button}); resp.Message == nil ||
		!strings.Contains(resp.Message.Content, "You have answered today's puzzle already.") {
		t.Errorf("bob's second press after the restart: %+v", resp.Message)
	}
	out = e.say("wait 24h")
	expect(t, out, "🧩 Daily puzzle · 2026-11-23", "Yesterday's puzzle was solved by 1 player: bob.")
	if strings.Count(out, "Daily puzzle ·") != 1 {
		t.Errorf("%d posts in a day:\n%s", strings.Count(out, "Daily puzzle ·"), out)
	}
	resp := e.handle("carol", local.GuildID, "daily", bot.Request{Kind: bot.Button, CustomID: button})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "That was the puzzle of 2026-11-22") {
		t.Errorf("yesterday's button: %+v", resp.Message)
	}
	// Nobody answers the 23rd's: the 24th's post says so.
	expect(t, e.say("wait 24h"), "🧩 Daily puzzle · 2026-11-24", "Nobody solved yesterday's puzzle.")
	expect(t, e.say("alice #daily: /settings puzzle-channel:off"), "The daily puzzle is off.")
	if out := e.say("wait 24h"); strings.Contains(out, "Daily puzzle ·") {
		t.Errorf("posted while off:\n%s", out)
	}
}

// openWithPuzzles opens the bot (2026-11-22 12:00 UTC) with the puzzles of
// six random games of #lobby found (the solver's quick range: 12 empties).
func openWithPuzzles(t *testing.T) *env {
	t.Helper()
	e := open(t, t.TempDir())
	e.cfg.Puzzles.Empties = 12
	e.adapter.SetService(rebuild(e, quiet))
	e.playRandomGames("lobby", 6, rand.New(rand.NewPCG(5, 6)))
	if _, err := e.adapter.Service().SearchPuzzles(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
	return e
}

// A try's 15 minutes are a clock too: five minutes into it the bot goes
// down for 16, and on its return the try is still open with its ten
// minutes left (it used to expire, scoring a miss nobody could avoid).
func TestPuzzleTryAcrossAnOutage(t *testing.T) {
	e := openWithPuzzles(t)
	ctx := context.Background()
	e.lastPuzzle(e.say("alice #lobby: /puzzle"))
	e.say("wait 5m")
	before, err := e.store.Try(ctx, 1)
	if err != nil || before.Status != record.TryOpen {
		t.Fatalf("alice's try: %+v (%v)", before, err)
	}
	e.store.Close() // the process dies
	e = openAt(t, e.dir, e.clock.Now().Add(16*time.Minute))
	after, err := e.store.Try(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if left := after.Expires.Sub(e.clock.Now()); after.Expired(e.clock.Now()) || left < 9*time.Minute || left > 10*time.Minute {
		t.Fatalf("after 16 minutes away the try expires at %v (%v left), was %v", after.Expires, left, before.Expires)
	}
}
