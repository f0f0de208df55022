package storage

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/storm"
)

// Runs on each backend: the pool is the server's own puzzles and the
// built-in set (not another server's, not lessons); a run is kept as it
// goes, an answer moves it only from where it stood (two at once: one
// wins), and the bests read today's and ever's, per player and per server.
func TestStormRuns(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		g := newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
		finish(t, s, g, record.EndResign)
		if ok, err := s.SavePuzzles(ctx, "guild1", g.ID, []puzzle.Record{puzzle.Rated(samplePuzzle(t, 10)), puzzle.Rated(samplePuzzle(t, 12))}, t0); err != nil || !ok {
			t.Fatal(ok, err)
		}
		if _, err := s.AddBuiltinPuzzles(ctx, map[string]puzzle.Record{"b1": puzzle.Rated(samplePuzzle(t, 20))}, t0); err != nil {
			t.Fatal(err)
		}
		pool, err := s.StormPool(ctx, "guild1")
		if err != nil || len(pool) != 3 {
			t.Fatalf("pool %v %v", pool, err)
		}
		own := 0
		for _, c := range pool {
			if c.Own {
				own++
			}
		}
		if other, _ := s.StormPool(ctx, "guild2"); own != 2 || len(other) != 1 || other[0].Own {
			t.Fatalf("own %d; another server's pool %v", own, other)
		}

		ids := []int64{pool[0].ID, pool[1].ID, pool[2].ID}
		r := storm.New(storm.Storm, alice, "guild1", ids, t0)
		if r.ID, err = s.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, err := s.Run(ctx, r.ID)
		if err != nil || got.Player != alice || !got.Ends.Equal(t0.Add(storm.Duration)) || len(got.Puzzles) != 3 || got.Puzzles[2] != ids[2] || got.Mode != storm.Storm {
			t.Fatalf("loaded %+v %v", got, err)
		}
		// Two answers to the same step at once: one moves the run.
		var wins int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				next := got
				next.Solve()
				ok, err := s.SaveRun(ctx, next, 0, 0)
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
		if wins != 1 {
			t.Fatalf("%d answers moved the run", wins)
		}
		got, _ = s.Run(ctx, r.ID)
		got.Miss()
		if ok, err := s.SaveRun(ctx, got, 1, 0); !ok || err != nil {
			t.Fatal(ok, err)
		}
		got, _ = s.Run(ctx, r.ID)
		if got.Solved != 1 || got.Misses != 1 || got.Index != 2 || !got.Ends.Equal(t0.Add(storm.Duration-storm.MissPenalty)) || got.BestCombo != 1 {
			t.Fatalf("after a solve and a miss: %+v", got)
		}
		got.Solve()
		if ok, _ := s.SaveRun(ctx, got, 2, 0); !ok {
			t.Fatal("the last answer was refused")
		}
		if after, _ := s.Run(ctx, r.ID); !after.Over {
			t.Fatal("a run past its last puzzle is not over")
		}
		if ok, _ := s.SaveRun(ctx, got, 3, 0); ok {
			t.Fatal("an ended run moved")
		}
		if _, err := s.Run(ctx, 9999); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("a missing run: %v", err)
		}

		// Bob's streak of yesterday beats nothing today; his Storm today
		// scores 1 below alice's 2.
		day := t0.Truncate(24 * time.Hour)
		long := append(append([]int64(nil), ids...), ids...)
		old := storm.New(storm.Streak, bob, "guild1", long, day.Add(-time.Hour))
		old.Solve()
		old.Solve()
		old.Solve()
		if old.ID, err = s.StartRun(ctx, old); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.SaveRun(ctx, old, 0, 0); !ok {
			t.Fatal("bob's streak not saved")
		}
		b := storm.New(storm.Storm, bob, "guild1", long, t0.Add(time.Minute))
		b.Solve()
		if b.ID, err = s.StartRun(ctx, b); err != nil {
			t.Fatal(err)
		}
		s.SaveRun(ctx, b, 0, 0)
		if today, ever, err := s.RunBests(ctx, bob.ID, storm.Streak, day); err != nil || today != 0 || ever != 3 {
			t.Fatalf("bob's streak bests %d %d %v", today, ever, err)
		}
		if today, ever, _ := s.RunBests(ctx, alice.ID, storm.Storm, day); today != 2 || ever != 2 {
			t.Fatalf("alice's storm bests %d %d", today, ever)
		}
		best, err := s.BestRun(ctx, "guild1", storm.Storm, day, day.Add(24*time.Hour))
		if err != nil || best.Player.ID != alice.ID || best.Solved != 2 {
			t.Fatalf("the server's best Storm today: %+v %v", best, err)
		}
		if _, err := s.BestRun(ctx, "guild2", storm.Storm, day, day.Add(24*time.Hour)); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("another server's best: %v", err)
		}
	})
}
