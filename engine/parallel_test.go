package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// The parallel search gives the answers a search alone gives: the exact
// value of every move (Analyze's solve) and the best one (Solve), on
// random positions deep enough to split.
func TestParallelSearchAgreesWithOneSearcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	alone := New(Options{Searches: 1, QuickSearches: -1})
	both := New(Options{Searches: 2, QuickSearches: -1})
	n := 12
	if raceEnabled || testing.Short() {
		n = 4
	}
	for i := 0; i < n; i++ {
		p := randomPosition(t, 8, 14+i%4, rng)
		want, err := alone.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := both.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Eval != want.Eval {
			t.Fatalf("position %d: %v in parallel, %v alone", i, got.Eval, want.Eval)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		wantAll, err1 := alone.Analyze(ctx, p)
		gotAll, err2 := both.Analyze(ctx, p)
		cancel()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		value := map[string]Eval{}
		for _, m := range wantAll {
			value[m.Move.String()] = m.Eval
		}
		for _, m := range gotAll {
			if !m.Eval.Exact || value[m.Move.String()] != m.Eval {
				t.Fatalf("position %d: %s is %v in parallel, %v alone", i, m.Move, m.Eval, value[m.Move.String()])
			}
		}
	}
	if both.splits.Load() == 0 {
		t.Fatal("the two searchers never split a node")
	}
	t.Logf("%d split points", both.splits.Load())
}

// The fairness rule with helpers: a long solve that took every searcher
// as helpers gives one back at once to another player's search, which is
// answered by a real search (a greedy fallback, what a search that found
// no searcher in time plays, has no depth), while the solve goes on to
// its exact result.
func TestHelpersGiveWayToAnotherSearch(t *testing.T) {
	e := New(Options{Searches: 2, QuickSearches: -1})
	long := loadFFO(t)[5] // #45: seconds even on two cores
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	solved := make(chan error, 1)
	go func() {
		_, err := e.Solve(ctx, long.pos)
		solved <- err
	}()
	for e.splits.Load() == 0 { // the helper is at work
		time.Sleep(time.Millisecond)
	}
	mctx, mcancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer mcancel()
	r, err := e.Move(mctx, midgame(t, 8, 20, 3), 6, nil)
	if err != nil || r.Depth == 0 {
		t.Fatalf("another player's move: %+v, %v (no depth: no searcher came free)", r, err)
	}
	select {
	case err := <-solved:
		t.Fatalf("the solve ended (%v) before the other search; the test proves nothing", err)
	default:
	}
	cancel()
	if err := <-solved; err == nil {
		t.Fatal("the cancelled solve reported a result")
	}
}
