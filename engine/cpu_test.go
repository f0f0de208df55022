package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/game"
)

// The engine counts its searches' CPU, and nothing for a level that does
// not search: a fixed-depth search costs CPU whatever the machine's load,
// and a level-1 move costs none.
func TestCPUCountsSearchesOnly(t *testing.T) {
	e := New(Options{Searches: 1, MoveTime: 10 * time.Second})
	p, err := game.NewPosition(8)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := e.Move(context.Background(), p, 1, rng); err != nil {
		t.Fatal(err)
	}
	if c := e.CPU(); c != 0 {
		t.Errorf("a random move cost %v of searching", c)
	}
	for range 3 {
		if _, err := e.Move(context.Background(), p, 16, rng); err != nil {
			t.Fatal(err)
		}
	}
	if c := e.CPU(); c <= 0 {
		t.Errorf("three depth-5 searches cost %v", c)
	}
}

// BenchmarkLevelCost is the engine's CPU per move at each level (its
// searchers' own clocks, so the same on a busy machine), over whole games
// from random openings, each level playing itself: what a capacity plan
// needs per level. The top level is given 1 s a move and spends it.
//
//	go test ./engine -run '^$' -bench LevelCost -benchtime 1x
func BenchmarkLevelCost(b *testing.B) {
	for level := MinLevel; level <= MaxLevel; level++ {
		b.Run(fmt.Sprintf("level%d", level), func(b *testing.B) {
			e := New(Options{Searches: 1, MoveTime: time.Second})
			moves, games := 0, 2
			if level >= 18 {
				games = 1
			}
			for b.Loop() {
				for g := range games {
					gm, rng := randomOpening(uint64(g), 11)
					for !gm.Over() {
						r, err := e.Move(context.Background(), gm.Position(), level, rng)
						if err != nil {
							b.Fatal(err)
						}
						gm.Play(r.Move)
						moves++
					}
				}
			}
			b.ReportMetric(float64(e.CPU().Microseconds())/1000/float64(moves), "cpu-ms/move")
			b.ReportMetric(float64(moves), "moves")
		})
	}
}

// randomOpening is a new 8x8 game after six random plies, and the random
// source that chose them, for benchmarks that play games to the end.
func randomOpening(seed1, seed2 uint64) (*game.Game, *rand.Rand) {
	start, _ := game.NewPosition(8)
	gm := game.NewGame(start)
	rng := rand.New(rand.NewPCG(seed1, seed2))
	for i := 0; i < 6 && !gm.Over(); i++ {
		m := gm.Position().LegalMoves()
		gm.Play(m[rng.IntN(len(m))])
	}
	return gm, rng
}

// A long search's CPU is counted as it goes, not only when it ends: a
// minutes-long solve shows in the count (and the metrics) while it runs.
func TestCPUCountedDuringALongSearch(t *testing.T) {
	e := New(Options{Searches: 1})
	pos := loadFFO(t)[0].pos // #40: seconds of solving
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := e.Solve(ctx, pos)
		done <- err
	}()
	for {
		select {
		case err := <-done:
			t.Fatalf("the solve ended (%v) before any of its CPU was counted", err)
		case <-time.After(10 * time.Millisecond):
		}
		if e.CPU() > 0 {
			cancel()
			<-done
			return
		}
	}
}
