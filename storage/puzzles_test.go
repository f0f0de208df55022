package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
)

// A puzzle of our own making: a position and a line, enough for the store
// (the puzzle package checks real ones are right).
func samplePuzzle(t *testing.T, ply int) puzzle.Puzzle {
	t.Helper()
	start, _ := game.NewPosition(8)
	moves, _ := game.ParseTranscript("f5d6c3d3c4", 8)
	g, err := game.Replay(start, moves)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := game.ParseTranscript("f4c5", 8)
	return puzzle.Puzzle{Start: g.Position(), Line: line, Result: 4, Cost: 6, Played: moves[0], Ply: ply}
}

// The puzzle store on each backend: a game searched once whoever tries,
// the built-in set added once, a player's pick never one they tried, a
// try answered once (the second press finds it gone), ratings and streaks,
// the leaderboard, and the daily post claimed once.
func TestPuzzleStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		rng := rand.New(rand.NewPCG(3, 3))
		g := newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
		playRandom(t, s, g, 80, rng)
		finish(t, s, g, record.EndNormal)

		ids, err := s.UnsearchedGames(ctx, 10)
		if err != nil || len(ids) != 1 || ids[0] != g.ID {
			t.Fatalf("unsearched: %v %v", ids, err)
		}
		played, err := s.FinishedGames(ctx, "guild1", 8, 10)
		if err != nil || len(played) != 1 || len(played[0].Moves) == 0 {
			t.Fatalf("finished games: %v %v", played, err)
		}
		// Two processes save the same game's search: one wins.
		var wins int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.SavePuzzles(ctx, "guild1", g.ID, []puzzle.Record{puzzle.Rated(samplePuzzle(t, 10)), puzzle.Rated(samplePuzzle(t, 12))}, t0)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if n, _ := s.PuzzleCount(ctx, "guild1"); wins != 1 || n != 2 {
			t.Fatalf("saved by %d, %d puzzles", wins, n)
		}
		if ids, _ := s.UnsearchedGames(ctx, 10); len(ids) != 0 {
			t.Errorf("still unsearched: %v", ids)
		}
		for i := 0; i < 2; i++ {
			n, err := s.AddBuiltinPuzzles(ctx, map[string]puzzle.Record{"b1": puzzle.Rated(samplePuzzle(t, 20))}, t0)
			if err != nil || n != 1-i {
				t.Fatalf("built-in, round %d: %d %v", i, n, err)
			}
		}

		// alice gets the server's puzzles first, then the built-in one.
		var tried []int64
		for i := 0; i < 3; i++ {
			p, err := s.PickPuzzle(ctx, "guild1", alice.ID, 1500)
			if err != nil {
				t.Fatal(err)
			}
			if (i < 2) != (p.GuildID == "guild1") || p.Start.Empties() != 55 || game.FormatTranscript(p.Line, 8) != "f4c5" {
				t.Errorf("pick %d: %+v", i, p)
			}
			tr, err := s.StartTry(ctx, alice, "guild1", p.ID, "", t0)
			if err != nil || tr.Status != puzzle.Open || !tr.Expires.Equal(t0.Add(puzzle.TimeToAnswer)) {
				t.Fatalf("try: %+v %v", tr, err)
			}
			if _, err := s.StartTry(ctx, alice, "guild1", p.ID, "", t0); !errors.Is(err, puzzle.ErrTried) {
				t.Errorf("second try: %v", err)
			}
			if ok, _ := s.AdvanceTry(ctx, tr.ID, 0, 2); !ok {
				t.Error("advance")
			}
			if ok, _ := s.AdvanceTry(ctx, tr.ID, 0, 2); ok {
				t.Error("advanced twice from step 0")
			}
			solved := i != 1
			rate := func(before *puzzle.Solver, p record.Glicko) record.TryRating { return puzzle.Finish(before, p, solved) }
			v, done, err := s.FinishTry(ctx, tr.ID, 2, solved, t0.Add(time.Minute), rate)
			if err != nil || !done {
				t.Fatalf("finish: %v %v", done, err)
			}
			if _, again, _ := s.FinishTry(ctx, tr.ID, 2, solved, t0.Add(time.Minute), rate); again {
				t.Error("finished twice")
			}
			wantStreak := map[int]int{0: 1, 1: 0, 2: 1}[i]
			if v.Streak != wantStreak || v.Attempts != i+1 || v.BestStreak != 1 {
				t.Errorf("after %d: %+v", i, v)
			}
			tried = append(tried, p.ID)
		}
		if _, err := s.PickPuzzle(ctx, "guild1", alice.ID, 1500); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("all tried: %v", err)
		}
		first, _ := s.Puzzle(ctx, tried[0])
		second, _ := s.Puzzle(ctx, tried[1])
		if first.Plays != 1 || first.Wins != 1 || second.Wins != 0 || first.Rating.Rating >= second.Rating.Rating+400 {
			t.Errorf("puzzle ratings: solved %+v, failed %+v", first.Rating, second.Rating)
		}
		board, err := s.PuzzleLeaderboard(ctx, "guild1", 10)
		if err != nil || len(board) != 1 || board[0].Player.ID != alice.ID || board[0].Solved != 2 || board[0].Tried != 3 {
			t.Errorf("leaderboard: %+v %v", board, err)
		}
		if other, _ := s.PuzzleLeaderboard(ctx, "guild2", 10); len(other) != 0 {
			t.Errorf("another server's leaderboard: %+v", other)
		}
		// The month's count: the two solved (at t0+1m) fall in a span
		// that holds that instant, and in no span after it.
		counts, err := s.PuzzlesSolved(ctx, t0.Add(time.Minute), t0.Add(time.Hour))
		if err != nil || len(counts) != 1 || counts[0] != (record.SolvedCount{GuildID: "guild1", PlayerID: alice.ID, Count: 2}) {
			t.Errorf("solved in the span: %+v %v", counts, err)
		}
		if later, _ := s.PuzzlesSolved(ctx, t0.Add(2*time.Minute), t0.Add(time.Hour)); len(later) != 0 {
			t.Errorf("solved after they were: %+v", later)
		}

		// The daily post: one claim a day, retried only after a crash.
		if err := s.SetDailyPuzzle(ctx, "guild1", "c9", 9, t0); err != nil {
			t.Fatal(err)
		}
		set, _ := s.DailyPuzzleSettings(ctx)
		if len(set) != 1 || set[0].ChannelID != "c9" || set[0].Hour != 9 {
			t.Errorf("settings: %+v", set)
		}
		d := record.Daily{GuildID: "guild1", Day: "2026-11-22", PuzzleID: tried[0], ChannelID: "c9"}
		if ok, err := s.ClaimDaily(ctx, d, 10*time.Minute, t0); !ok || err != nil {
			t.Fatalf("claim: %v %v", ok, err)
		}
		if ok, _ := s.ClaimDaily(ctx, d, 10*time.Minute, t0.Add(time.Minute)); ok {
			t.Error("claimed twice")
		}
		if ok, _ := s.ClaimDaily(ctx, d, 10*time.Minute, t0.Add(11*time.Minute)); !ok {
			t.Error("a claim without a post was not taken over")
		}
		if err := s.PostedDaily(ctx, "guild1", d.Day, "m1", t0); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.ClaimDaily(ctx, d, 10*time.Minute, t0.Add(time.Hour)); ok {
			t.Error("a posted day was claimed again")
		}
		got, err := s.Daily(ctx, "guild1", d.Day)
		if err != nil || got.MessageID != "m1" || got.PuzzleID != tried[0] {
			t.Errorf("daily: %+v %v", got, err)
		}
	})
}
