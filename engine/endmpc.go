package engine

import (
	_ "embed"
	"fmt"
	"math"
	"time"

	"othello-bot/internal/datafile"
)

// The selective endgame search: the exact solver with ProbCut's cut, as
// strong solvers run it before they solve exactly. A shallow midgame
// search predicts the exact result by a regression fitted on our own
// solves (endmpc.txt, written by `train mpc -exact`); a node whose
// prediction clears the window by t·σ is cut. Run in stages of rising
// confidence t, it knows the probable result early, and each stage leaves
// its best moves in the table for the next, the exact one last.

//go:embed endmpc.txt
var endMPCData string

// endgameConfidence is each selective stage's t, in the order they run:
// a cut is wrong with a one-sided chance of about 14%, 7%, 2.3%, 0.5%
// and 0.05%. The exact stage follows.
var endgameConfidence = [...]float64{1.1, 1.5, 2.0, 2.6, 3.3}

// exactLevel is the selectivity of the exact solve: table entries carry
// the stage that stored them, and a stage trusts only the bounds of its
// own or a more exact one.
const exactLevel = int8(len(endgameConfidence) + 1)

// endMPCMin is the fewest empties a node is cut at: below it the solve
// is cheaper than the shallow search that would predict it.
const endMPCMin = 12

// endMPCTable holds, by empty squares, the regression that cuts there.
type endMPCTable [65]mpcFit

// endShallow is the shallow depth that predicts a solve of n empties:
// about a quarter of them, of the same parity (the parity effect again).
func endShallow(empties int) int {
	d := empties / 4
	if (empties-d)%2 != 0 {
		d--
	}
	return max(d, 1)
}

// parseEndMPC reads the table, keeping for each number of empties the
// fit of its shallow depth; beyond the fitted empties the deepest fit of
// the same parity stands in (the spread grows with the empties, so these
// cuts are a little bolder than the fitted ones).
func parseEndMPC(text string) (*endMPCTable, error) {
	byKey := map[[2]int]mpcFit{}
	maxE := 0
	for _, l := range datafile.Lines(text) {
		n, x, err := numbers(l, 2, 3)
		if err != nil {
			return nil, fmt.Errorf("endmpc %w", err)
		}
		if n[0] < endMPCMin || n[0] > 64 || n[1] < 1 || n[1] >= n[0] || x[0] <= 0 || x[2] <= 0 {
			return nil, fmt.Errorf("endmpc line %d: empties, depth, slope or spread out of range", l.N)
		}
		byKey[[2]int{n[0], n[1]}] = mpcFit{shallow: n[1], a: x[0], b: x[1], sigma: x[2]}
		maxE = max(maxE, n[0])
	}
	t := &endMPCTable{}
	for e := endMPCMin; e <= 64; e++ {
		src := e
		for src > maxE {
			src -= 2
		}
		if f, ok := byKey[[2]int{src, endShallow(src)}]; ok {
			t[e] = f
			t[e].shallow = endShallow(e)
		}
	}
	return t, nil
}

var defaultEndMPC = func() *endMPCTable {
	t, err := parseEndMPC(endMPCData)
	if err != nil {
		panic(fmt.Errorf("engine: endmpc.txt: %w", err))
	}
	return t
}()

// endProbCut tries to cut a solver node of empties with the window (alpha,
// beta), in discs, by the stage's confidence s.endT.
func (s *searcher) endProbCut(p, o uint64, empties, alpha, beta int) (int, bool) {
	f := defaultEndMPC[empties]
	if f.shallow == 0 || s.inProbCut {
		return 0, false
	}
	s.inProbCut = true
	defer func() { s.inProbCut = false }()
	margin := s.endT * f.sigma
	if beta < 64 {
		if up := int32(math.Ceil((float64(beta*discUnit) + margin - f.b) / f.a)); up < winBonus {
			if v := s.search(p, o, f.shallow, up-1, up); !s.aborted && v >= up {
				return beta, true
			}
		}
	}
	if alpha > -64 {
		if down := int32(math.Floor((float64(alpha*discUnit) - margin - f.b) / f.a)); down > -winBonus {
			if v := s.search(p, o, f.shallow, down, down+1); !s.aborted && v <= down {
				return alpha, true
			}
		}
	}
	return 0, false
}

// solveStaged solves the root in stages, at each of the levels given in
// turn (exactLevel for the exact solve; a selective stage's level is its
// place in endgameConfidence, from 1), each starting from the last one's
// best move and score. It returns the last stage finished (0 when none
// did) and its results.
func (s *searcher) solveStaged(p, o uint64, all bool, levels ...int8) ([]rootResult, int8) {
	var done []rootResult
	var level int8
	defer func() { s.endLevel, s.endT = exactLevel, 0 }()
	for _, l := range levels {
		s.endLevel, s.endT = l, 0
		if l < exactLevel {
			s.endT = endgameConfidence[l-1]
		}
		if done != nil && s.pastTarget() {
			break // on a clock past its target: the stage done decides
		}
		r := s.solveRootFrom(p, o, all, firstOf(done))
		if s.aborted {
			break
		}
		done, level = r, l
	}
	return done, level
}

// levelStages are the stages the top level runs past its exact reach: a bold
// one to know the probable result soon, a careful one, then the exact
// solve (running all five selective stages costs more than it saves).
var levelStages = []int8{1, 3, exactLevel}

func firstOf(r []rootResult) *rootResult {
	if len(r) == 0 {
		return nil
	}
	return &r[0]
}

// selectiveEndgame is the top level a few empties beyond what it can solve
// exactly: a third of its time to the midgame search, then the selective
// stages and the exact solve, as far as the deadline lets them go; the
// most exact stage finished decides the move, the midgame search's when
// none did.
func (s *searcher) selectiveEndgame(mine, theirs uint64, maxDepth, empties int, end time.Time) Result {
	t0 := time.Now()
	midEnd := t0.Add(end.Sub(t0) / 3)
	if s.limit > 0 {
		// On a work budget: a third of the nodes, not of the time.
		s.iterNodes, midEnd = s.limit/3, end
	}
	mid := s.iterate(mine, theirs, maxDepth, empties, midEnd)
	s.iterNodes = 0
	if s.aborted {
		return mid
	}
	r, level := s.solveStaged(mine, theirs, false, levelStages...)
	s.aborted = false
	if level == 0 {
		mid.Nodes = s.nodes
		return mid
	}
	return Result{Move: square(r[0].x), Eval: Eval{int(r[0].score) * discUnit, level == exactLevel}, Depth: empties, Nodes: s.nodes}
}
