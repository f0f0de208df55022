package engine

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"othello-bot/game"
)

// midgame plays n random plies from the start of a size x size board.
func midgame(t testing.TB, size, n int, seed uint64) game.Position {
	p, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < n && !p.GameOver(); i++ {
		if !p.HasMoves() {
			p = p.Pass()
			continue
		}
		moves := p.LegalMoves()
		p, _ = p.Play(moves[rng.IntN(len(moves))])
	}
	return p
}

// The fairness rule: while every core is taken by level-10 searches on
// 26x26 boards (each thinking 2 s a move, one after another), another
// player's level-5 move on 8x8 is answered in milliseconds, not after a
// long think ends. Reports the p50 and p90 of the level-5 replies.
func BenchmarkFairness(b *testing.B) {
	e := New(Options{})
	busy := midgame(b, 26, 40, 1)
	quick := midgame(b, 8, 20, 2)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for ctx.Err() == nil {
				mctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				e.Move(mctx, busy, MaxLevel, nil)
				cancel()
			}
		})
	}
	time.Sleep(200 * time.Millisecond) // every searcher is busy
	var took []time.Duration
	for i := 0; i < max(b.N, 20); i++ {
		t0 := time.Now()
		mctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		r, err := e.Move(mctx, quick, 5, nil)
		cancel()
		if err != nil || r.Depth == 0 {
			b.Fatalf("level 5: %+v %v (a greedy fallback has no depth)", r, err)
		}
		took = append(took, time.Since(t0))
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	wg.Wait()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
}
