package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"othello-bot/game"
)

// endgamePositions are n seeded positions of lo-hi empties with a move to
// play (another generator than the one the table was fitted on).
func endgamePositions(t testing.TB, n, lo, hi int, seed uint64) []game.Position {
	return seededPositions(t, n, seed, lo, hi, 3)
}

func moverBoards(pos game.Position) (p, o uint64) {
	b, w, _ := pos.Bitboards()
	if pos.ToMove() == game.White {
		return w, b
	}
	return b, w
}

func TestEndMPCTableCoversTheEndgame(t *testing.T) {
	for e := endMPCMin; e <= 30; e++ {
		f := defaultEndMPC[e]
		if f.shallow != endShallow(e) || f.shallow >= e || (e-f.shallow)%2 != 0 || f.sigma <= 0 || f.a < 0.5 || f.a > 1.5 {
			t.Errorf("%d empties: %+v", e, f)
		}
	}
	if f := defaultEndMPC[endMPCMin-1]; f.shallow != 0 {
		t.Errorf("a cut below %d empties: %+v", endMPCMin, f)
	}
	for _, bad := range []string{"12 2 1 0 300", "12 x 1 0 300 50", "12 12 1 0 300 50", "12 2 1 0 -3 50", "11 2 1 0 300 50", "12 2 NaN 0 300 50"} {
		if _, err := parseEndMPC(bad); err == nil {
			t.Errorf("parseEndMPC(%q) took it", bad)
		}
	}
}

// TestEndProbCutErrorsWithinConfidence: on held-out positions of 14-18
// empties, every cut the selective solver makes at 1.5σ is checked
// against the exact result: wrong cuts stay within what the one-sided
// 6.7% of a normal spread allows for that many cuts, and it does cut. The
// windows are drawn around what the shallow search predicts, never from
// the exact value.
func TestEndProbCutErrorsWithinConfidence(t *testing.T) {
	n := 120
	if raceEnabled || testing.Short() {
		n = 40
	}
	exact, cut := searcherFor(0), searcherFor(0)
	cut.endLevel, cut.endT = 1, 1.5
	rng := rand.New(rand.NewPCG(7, 3))
	var tally cutTally
	for _, pos := range endgamePositions(t, n, 14, 18, 4242) {
		p, o := moverBoards(pos)
		v := exact.solve(p, o, -65, 65)
		f := defaultEndMPC[pos.Empties()]
		shallow := searcherFor(0).search(p, o, f.shallow, -infinity, infinity)
		predicted := (f.a*float64(shallow) + f.b) / discUnit
		for k := 0; k < 6; k++ {
			beta := int(math.Round(predicted)) + rng.IntN(31) - 15
			beta = min(max(beta, -63), 63)
			b, ok := cut.endProbCut(p, o, pos.Empties(), beta-1, beta)
			tally.add(ok, int32(b), int32(beta), int32(v))
		}
	}
	tally.check(t, 1.5)
}

// The stages end in the exact result: the bounds a bolder stage left in
// the table never stand for exact ones. Each selective stage is close to
// it, the boldest least.
func TestStagedSolveEndsExact(t *testing.T) {
	n := 12
	if raceEnabled || testing.Short() {
		n = 4
	}
	var off [len(endgameConfidence)]float64
	for _, pos := range endgamePositions(t, n, 14, 17, 99) {
		p, o := moverBoards(pos)
		want := searcherFor(0).solveRoot(p, o, true)
		s := searcherFor(0)
		got, level := s.solveStaged(p, o, true, 1, 2, 3, 4, 5, exactLevel)
		if level != exactLevel {
			t.Fatalf("%v: the stages ended at %d", pos, level)
		}
		for i := range want {
			if got[i].score != want[i].score {
				t.Fatalf("%v: staged %v, exact %v", pos, got, want)
			}
		}
		for i, c := range endgameConfidence {
			s := searcherFor(0)
			sel, _ := s.solveStaged(p, o, false, int8(i+1))
			if len(sel) == 0 {
				t.Fatalf("%v: no result at t=%.1f", pos, c)
			}
			off[i] += math.Abs(float64(sel[0].score - want[0].score))
		}
	}
	for i, c := range endgameConfidence {
		t.Logf("t=%.1f: off by %.2f discs on average", c, off[i]/float64(n))
	}
	if off[len(off)-1] > off[0] {
		t.Errorf("the boldest stage is closer to exact (%.2f) than the most careful (%.2f)", off[0], off[len(off)-1])
	}
}

// BenchmarkSolveStages times FFO #40-#44 solved directly, in stages
// (every selective one, then exact), in level 10's stages, and by the
// first selective stage alone (1.1σ) and the third (2σ): one searcher.
//
//	go test ./engine -run '^$' -bench SolveStages -benchtime 3x
func BenchmarkSolveStages(b *testing.B) {
	cases := loadFFO(b)[:5]
	for _, mode := range []struct {
		name   string
		levels []int8
	}{{"direct", []int8{exactLevel}}, {"staged", []int8{1, 2, 3, 4, 5, exactLevel}}, {"level10", levelStages}, {"t1.1", []int8{1}}, {"t2.0", []int8{3}}} {
		for _, c := range cases {
			b.Run(mode.name+"/ffo"+c.id, func(b *testing.B) {
				p, o := moverBoards(c.pos)
				off := 0.0
				for b.Loop() {
					s := searcherFor(0)
					r, level := s.solveStaged(p, o, false, mode.levels...)
					if level == exactLevel && int(r[0].score) != c.score {
						b.Fatalf("ffo %s: %d", c.id, r[0].score)
					}
					off += math.Abs(float64(int(r[0].score) - c.score))
				}
				b.ReportMetric(off/float64(b.N), "discs-off")
			})
		}
	}
}

// Level 10 past its exact reach: given the time, its stages run through
// to the exact result (FFO #40, 20 empties), alone and with a helper
// searching the selective stages with it.
func TestSelectiveEndgameEndsExactWithTime(t *testing.T) {
	if raceEnabled {
		t.Skip("the solve takes a minute under the race detector")
	}
	c := loadFFO(t)[0]
	p, o := moverBoards(c.pos)
	for _, searches := range []int{1, 2} {
		e := New(Options{Searches: searches, QuickSearches: -1, ProbCut: DefaultProbCut})
		s, release, err := e.acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		end := time.Now().Add(time.Minute)
		stop := s.start(context.Background(), 8, end)
		done := e.helpSearch(s)
		r := s.selectiveEndgame(p, o, 4, c.pos.Empties(), end)
		done()
		stop()
		release()
		if got := r.Eval.Cents / discUnit; got != c.score || !r.Eval.Exact || r.Depth != c.pos.Empties() {
			t.Errorf("FFO #%s, %d searchers: %+v, want exact %+d", c.id, searches, r, c.score)
		}
		if !slices.Contains(c.best, r.Move.String()) {
			t.Errorf("FFO #%s, %d searchers: %s, want one of %v", c.id, searches, r.Move, c.best)
		}
		if searches > 1 && e.splits.Load() == 0 {
			t.Errorf("the helper never searched")
		}
	}
}
