package analysis

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
)

// An analysis graph holds still from ply to ply: a midgame value is the
// mean of the two deepest searches, so it does not swing with who moves
// last in the search (#45: a ±10-disc sawtooth). Over a game of level 16
// against itself, each midgame point lies on average within two discs of
// the mean of its neighbours (with one depth's values: about five).
func TestCurveHoldsStill(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	rng := rand.New(rand.NewPCG(2, 9))
	for i := 0; i < 4; i++ {
		m := g.Position().LegalMoves()
		g.Play(m[rng.IntN(len(m))])
	}
	for !g.Over() {
		r, err := eng.Move(context.Background(), g.Position(), 16, rng)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(r.Move)
	}
	rep, err := Run(context.Background(), eng, start, g.Plies(), Settings{Depth: 6, ExactFrom: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, zigzag, n := rep.Curve, 0.0, 0
	for k := 1; k+1 < len(c) && k < 44; k++ { // the midgame: searched, not solved
		zigzag += math.Abs(c[k] - (c[k-1]+c[k+1])/2)
		n++
	}
	if zigzag /= float64(n); zigzag > 2 {
		t.Fatalf("the curve zigzags %.2f discs a ply on average: %v", zigzag, c[:20])
	}
	t.Logf("mean zigzag %.2f discs over %d plies", zigzag, n)
}
