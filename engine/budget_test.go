package engine

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/game"
)

// positionsAfter plays random moves from the start: one position after
// each count of plies given.
func positionsAfter(t *testing.T, seed uint64, plies ...int) []game.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	var out []game.Position
	for _, n := range plies {
		start, _ := game.NewPosition(8)
		g := game.NewGame(start)
		for i := 0; i < n && !g.Over(); i++ {
			moves := g.Position().LegalMoves()
			if _, err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		if g.Over() {
			t.Fatalf("a random game of %d plies ended", n)
		}
		out = append(out, g.Position())
	}
	return out
}

// burn keeps every core busy until stop is called.
func burn() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 0
			for !done.Load() {
				x++
			}
			_ = x
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// On a work budget level 10 answers the same move, value and node count
// for a position on any machine: idle, with every core busy, and whatever
// its move time (the clock is only a safety net). It searches no more
// than its budget. The positions run from the midgame to the selective
// endgame and the solve; a few nodes past the budget are the ones the
// search counts as it unwinds.
func TestNodeBudgetIsTheSameOnAnyMachine(t *testing.T) {
	const budget = 200_000
	positions := positionsAfter(t, 7, 12, 24, 36, 40, 44)
	quick := New(Options{Searches: 1, QuickSearches: -1, NoBook: true, Nodes: budget, MoveTime: time.Millisecond, ProbCut: DefaultProbCut})
	slow := New(Options{Searches: 1, QuickSearches: -1, NoBook: true, Nodes: budget, MoveTime: 10 * time.Second, ProbCut: DefaultProbCut})
	for i, p := range positions {
		idle, err := quick.Move(context.Background(), p, MaxLevel, nil)
		if err != nil {
			t.Fatal(err)
		}
		stop := burn()
		busy, err := slow.Move(context.Background(), p, MaxLevel, nil)
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if idle != busy {
			t.Errorf("position %d (%d empties): idle %+v, busy %+v", i, p.Empties(), idle, busy)
		}
		// Past the budget only by the nodes the search unwinds through.
		if idle.Nodes > budget+64 {
			t.Errorf("position %d: %d nodes on a budget of %d", i, idle.Nodes, budget)
		}
		t.Logf("position %d, %d empties: %s %s, depth %d, %d nodes", i, p.Empties(), idle.Move, idle.Eval, idle.Depth, idle.Nodes)
	}
}

// A depth cap holds level 10's midgame search to that depth.
func TestDepthCap(t *testing.T) {
	p := positionsAfter(t, 3, 14)[0]
	e := New(Options{Searches: 1, QuickSearches: -1, NoBook: true, Depth: 3, MoveTime: 5 * time.Second})
	r, err := e.Move(context.Background(), p, MaxLevel, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth != 3 {
		t.Fatalf("depth %d with a cap of 3", r.Depth)
	}
}

// A hint is bounded by nodes: asked twice on one position, the second
// time with every core busy, it gives the same moves and values, and says
// it was not cut short. With far too little time for its budget it says
// it was.
func TestHintSameWhenTheMachineIsBusy(t *testing.T) {
	p := afterMoves(t, "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6")
	e := New(Options{Searches: 2, AnalyzeNodes: 300_000})
	ask := func(within time.Duration) Hint {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), within)
		defer cancel()
		h, err := e.Hint(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	idle := ask(time.Minute)
	stop := burn()
	busy := ask(time.Minute)
	stop()
	if idle.CutShort || busy.CutShort || !slices.Equal(idle.Moves, busy.Moves) {
		t.Fatalf("idle %+v\nbusy %+v", idle, busy)
	}
	e = New(Options{Searches: 1, AnalyzeNodes: 1 << 40})
	if h := ask(30 * time.Millisecond); !h.CutShort || len(h.Moves) != len(p.LegalMoves()) {
		t.Fatalf("a hint with 30 ms for an endless budget: cut short %v, %d moves", h.CutShort, len(h.Moves))
	}
}
