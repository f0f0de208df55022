package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/game"
)

// mpcPositions are n seeded midgame positions of 20-50 empties: random
// openings, then level 4 with a random move now and then.
func mpcPositions(t testing.TB, n int, seed uint64) []game.Position {
	return seededPositions(t, n, seed, 20, 50, 4)
}

// seededPositions are n seeded positions of lo-hi empties with a move to
// play: random moves, and level 4's with odds-1 in odds.
func seededPositions(t testing.TB, n int, seed uint64, lo, hi, odds int) []game.Position {
	t.Helper()
	e := New(Options{Searches: 1})
	var out []game.Position
	for i := 0; len(out) < n; i++ {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		p, _ := game.NewPosition(8)
		stop := lo + rng.IntN(hi-lo+1)
		for p.Empties() > stop && !p.GameOver() {
			if p.MustPass() {
				p = p.Pass()
				continue
			}
			moves := p.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			if rng.IntN(odds) != 0 {
				r, err := e.Move(context.Background(), p, 4, rng)
				if err != nil {
					t.Fatal(err)
				}
				m = r.Move
			}
			p, _ = p.Play(m)
		}
		if !p.GameOver() && p.HasMoves() {
			out = append(out, p)
		}
	}
	return out
}

func searcherFor(probCut float64) *searcher {
	s := newSearcher()
	s.mpcT = probCut
	var stop atomic.Bool
	s.reset(8, &stop)
	if probCut > 0 {
		s.mpc = defaultMPC
	}
	return s
}

func TestMPCTableCoversTheMidgame(t *testing.T) {
	for _, empties := range []int{12, 20, 30, 40, 50, 59} {
		for depth := mpcMinDepth; depth <= 10; depth++ {
			f := defaultMPC.fit(empties, depth)
			if f.shallow == 0 || f.shallow >= depth || f.sigma <= 0 || f.a < 0.8 || f.a > 1.2 {
				t.Errorf("%d empties, depth %d: %+v", empties, depth, f)
			}
		}
	}
	if f := defaultMPC.fit(8, 6); f.shallow != 0 {
		t.Errorf("a cut below the fitted stages: %+v", f)
	}
	for _, bad := range []string{"1 2 3", "12 23 1 3 x 0 1 5", "12 23 3 3 1 0 1 5", "12 23 1 3 1 0 -1 5"} {
		if _, err := parseMPC(bad); err == nil {
			t.Errorf("parseMPC(%q) took it", bad)
		}
	}
}

// TestProbCutErrorsWithinConfidence: over held-out positions (not those
// the table was fitted on), every cut ProbCut makes with confidence 1.5
// is checked against the full-width search of the same depth: wrong cuts
// stay within what the one-sided 6.7% of a normal spread at 1.5σ allows
// for that many cuts, and it does cut. The windows are drawn around what
// a fresh shallow search predicts, never from the deep value.
func TestProbCutErrorsWithinConfidence(t *testing.T) {
	n, depth := 150, 7
	if raceEnabled || testing.Short() {
		n, depth = 60, 7
	}
	full, cut := searcherFor(0), searcherFor(1.5)
	rng := rand.New(rand.NewPCG(99, 1))
	var tally cutTally
	sumSq, nres := 0.0, 0
	for _, pos := range mpcPositions(t, n, 12345) {
		p, o, _ := pos.Bitboards()
		if pos.ToMove() == game.White {
			p, o = o, p
		}
		v := full.search(p, o, depth, -infinity, infinity)
		f := defaultMPC.fit(pos.Empties(), depth)
		shallow := searcherFor(0).search(p, o, f.shallow, -infinity, infinity)
		predicted := f.a*float64(shallow) + f.b
		res := float64(v) - predicted
		sumSq += res * res / (f.sigma * f.sigma)
		nres++
		for k := 0; k < 6; k++ {
			// A null window near what the shallow search predicts, chosen
			// without knowing the deep value (as the search meets them).
			beta := int32(predicted) + int32(rng.IntN(1201)-600)
			cut.inProbCut = false
			b, ok := cut.probCut(p, o, depth, beta-1, beta)
			tally.add(ok, b, beta, v)
		}
	}
	t.Logf("residuals: %.2f of the fitted spread (rms)", math.Sqrt(sumSq/float64(nres)))
	tally.check(t, 1.5)
}

// cutTally counts a selective search's cuts on null windows (beta-1,
// beta) and the wrong ones: a cut above beta where the full search's
// value is below it, or the other way round.
type cutTally struct{ cuts, wrong int }

func (c *cutTally) add(ok bool, bound, beta, full int32) {
	if !ok {
		return
	}
	c.cuts++
	if bound == beta && full < beta || bound == beta-1 && full > beta-1 {
		c.wrong++
	}
}

// check fails the test when the tally is not what cuts at conf spreads
// make: under the model a cut is wrong with probability Φ(-conf) (6.7% at
// 1.5); the count of wrong cuts may exceed it by three standard
// deviations of a binomial of that many cuts before the model fails.
func (c cutTally) check(t *testing.T, conf float64) {
	t.Helper()
	if c.cuts < 15 {
		t.Fatalf("only %d cuts", c.cuts)
	}
	rate := float64(c.wrong) / float64(c.cuts)
	t.Logf("%d cuts, %d wrong (%.1f%%)", c.cuts, c.wrong, 100*rate)
	p := math.Erfc(conf/math.Sqrt2) / 2
	if limit := p + 3*math.Sqrt(p*(1-p)/float64(c.cuts)); rate > limit {
		t.Errorf("%.1f%% of cuts wrong at %.1fσ, more than %.1f%%", 100*rate, conf, 100*limit)
	}
}

// offAndOn runs a benchmark over positions with Multi-ProbCut off, then
// on, reporting the mean of what measure returns for each search as unit.
func offAndOn(b *testing.B, positions []game.Position, unit string, measure func(s *searcher, p, o uint64, pos game.Position) float64) {
	for _, t := range []float64{0, 1.5} {
		name := "off"
		if t > 0 {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			total := 0.0
			for i := 0; i < b.N; i++ {
				for _, pos := range positions {
					p, o, _ := pos.Bitboards()
					if pos.ToMove() == game.White {
						p, o = o, p
					}
					total += measure(searcherFor(t), p, o, pos)
				}
			}
			b.ReportMetric(total/float64(b.N*len(positions)), unit)
		})
	}
}

// BenchmarkProbCut is the node count and time of searches to a fixed
// depth with Multi-ProbCut off and on, over the same positions:
//
//	go test ./engine -run '^$' -bench ProbCut -benchtime 1x -count 3
func BenchmarkProbCut(b *testing.B) {
	offAndOn(b, mpcPositions(b, 30, 777), "nodes/search", func(s *searcher, p, o uint64, _ game.Position) float64 {
		s.search(p, o, 9, -infinity, infinity)
		return float64(s.nodes)
	})
}

// BenchmarkDepthInASecond is the depth the engine's timed search reaches
// in one second on the same positions, Multi-ProbCut off and on.
//
//	go test ./engine -run '^$' -bench DepthInASecond -benchtime 1x -count 3
func BenchmarkDepthInASecond(b *testing.B) {
	offAndOn(b, mpcPositions(b, 10, 778), "depth", func(s *searcher, p, o uint64, pos game.Position) float64 {
		end := time.Now().Add(time.Second)
		s.deadline = end
		return float64(s.iterate(p, o, 60, pos.Empties(), end).Depth)
	})
}
