package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
)

// A hint is the same on every ask (#45: c4 -2.2 then +6.7 on two asks of
// one position): one engine asked twice, with another search between, a
// second engine, and an ask with a third of the time (as on a busy
// machine) give the same moves and values.
func TestAnalyzeIsReproducible(t *testing.T) {
	p := afterMoves(t, "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6")
	ask := func(e *Engine, budget time.Duration) []MoveEval {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		evals, err := e.Analyze(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return evals
	}
	// A small budget, so the race detector's tenfold slowness still ends
	// every depth well before the shorter deadline.
	opts := Options{Searches: 2, AnalyzeNodes: 100_000}
	e := New(opts)
	first := ask(e, 9*time.Second)
	if _, err := e.Move(context.Background(), afterMoves(t, "f5 d6 c3"), 5, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	for name, again := range map[string][]MoveEval{"asked again": ask(e, 9*time.Second), "another engine": ask(New(opts), 9*time.Second),
		"a third of the time": ask(e, 3*time.Second)} {
		if !slices.Equal(first, again) {
			t.Errorf("%s:\n%v\n%v", name, first, again)
		}
	}
}

// Odd and even depths are evened out: the analysis of one position moves
// far less between two neighbouring budgets than a single depth does
// between neighbouring depths.
func TestEvenedOutHoldsStill(t *testing.T) {
	last := []rootResult{{1, 1000}, {2, 600}}
	before := []rootResult{{2, 100}, {1, 200}}
	got := evenedOut(last, before)
	if want := []rootResult{{1, 600}, {2, 350}}; !slices.Equal(got, want) {
		t.Errorf("evened out %v, want %v", got, want)
	}
}

// afterMoves is the position after 8x8 moves from the start.
func afterMoves(t *testing.T, moves string) game.Position {
	t.Helper()
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for _, m := range strings.Fields(moves) {
		sq, err := game.ParseSquare(m, 8)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(sq); err != nil {
			t.Fatal(err)
		}
	}
	return g.Position()
}
