package engine

import (
	_ "embed"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"othello-bot/internal/datafile"
)

// Multi-ProbCut (Buro): before searching a node deeply, a shallow search
// predicts the deep one by a regression fitted on our own searches
// (mpc.txt, written by `train mpc`): deep ≈ a·shallow + b, off by a spread
// σ. When the prediction clears the window by t·σ, the node is cut
// without the deep search, wrong with a probability that t chooses.

//go:embed mpc.txt
var mpcData string

// mpcFit is one regression: the shallow depth that predicts a deep one.
type mpcFit struct {
	shallow int
	a, b    float64
	sigma   float64
}

// DefaultProbCut is the confidence the top level cuts with in the bot
// (Options.ProbCut). At 1.5 the top level beat itself without ProbCut 120-67-13
// (63.2%) at 0.1 s a move over 200 games (cmd/arena, seed 1), and 58-36-6
// (61.0%) at 1 s a move over 100 (seed 2); at 1.2 it beat itself at 1.5
// by SPRT at 50,000 nodes a move, +14.6 ± 11.1 Elo (docs/engine.md).
const DefaultProbCut = 1.2

// mpcMinDepth is the shallowest search cut; below it a cut saves little.
const mpcMinDepth = 3

// mpcTable holds, by stage and deep depth, the regression used.
type mpcTable struct {
	stages [][2]int          // empties from, to
	fits   [][]mpcFit        // [stage][deep]; shallow 0: none
	byKey  map[[3]int]mpcFit // stage, shallow, deep
}

// numbers reads a regression table's line: ints integers, then floats
// finite numbers, then the count of samples fitted.
func numbers(l datafile.Line, ints, floats int) ([]int, []float64, error) {
	f := l.Fields
	if len(f) != ints+floats+1 {
		return nil, nil, fmt.Errorf("line %d: want %d fields", l.N, ints+floats+1)
	}
	n := make([]int, ints)
	for i := range n {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", l.N, err)
		}
		n[i] = v
	}
	x := make([]float64, floats)
	for i := range x {
		v, err := strconv.ParseFloat(f[ints+i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("line %d: %q", l.N, f[ints+i])
		}
		x[i] = v
	}
	if _, err := strconv.Atoi(f[len(f)-1]); err != nil {
		return nil, nil, fmt.Errorf("line %d: samples: %w", l.N, err)
	}
	return n, x, nil
}

// parseMPC reads the table and picks, for each stage and deep depth, the
// shallow depth of the same parity about four plies shallower (the
// odd/even effect is large in Othello; a shallow search of the same
// parity predicts best for what it costs).
func parseMPC(text string) (*mpcTable, error) {
	t := &mpcTable{byKey: map[[3]int]mpcFit{}}
	stageOf := map[[2]int]int{}
	maxDeep := 0
	for _, l := range datafile.Lines(text) {
		n, x, err := numbers(l, 4, 3)
		if err != nil {
			return nil, fmt.Errorf("mpc %w", err)
		}
		st := [2]int{n[0], n[1]}
		si, ok := stageOf[st]
		if !ok {
			si = len(t.stages)
			stageOf[st] = si
			t.stages = append(t.stages, st)
		}
		if x[0] <= 0 || x[2] <= 0 || n[2] < 1 || n[3] <= n[2] {
			return nil, fmt.Errorf("mpc line %d: a slope, spread or depths out of range", l.N)
		}
		t.byKey[[3]int{si, n[2], n[3]}] = mpcFit{shallow: n[2], a: x[0], b: x[1], sigma: x[2]}
		maxDeep = max(maxDeep, n[3])
	}
	t.fits = make([][]mpcFit, len(t.stages))
	for si := range t.stages {
		t.fits[si] = make([]mpcFit, maxDeep+1)
		for deep := mpcMinDepth; deep <= maxDeep; deep++ {
			want := deep - 4
			if want < 1 {
				want = deep - 2
			}
			if f, ok := t.byKey[[3]int{si, want, deep}]; ok {
				t.fits[si][deep] = f
			}
		}
	}
	return t, nil
}

// fit is the regression for a node at empties and depth; shallow 0 when
// there is none.
func (t *mpcTable) fit(empties, depth int) mpcFit {
	for si, st := range t.stages {
		if empties >= st[0] && empties <= st[1] {
			if depth < len(t.fits[si]) {
				return t.fits[si][depth]
			}
			return mpcFit{}
		}
	}
	return mpcFit{}
}

var defaultMPC = func() *mpcTable {
	t, err := parseMPC(mpcData)
	if err != nil {
		panic(fmt.Errorf("engine: mpc.txt: %w", err))
	}
	return t
}()

// probCut tries to cut a node of depth with window (alpha, beta) by a
// shallow search: it returns the bound and true when the prediction clears
// the window by s.mpcT spreads.
func (s *searcher) probCut(p, o uint64, depth int, alpha, beta int32) (int32, bool) {
	if s.mpc == nil || s.inProbCut || depth < mpcMinDepth || beta >= winBonus || alpha <= -winBonus {
		return 0, false
	}
	empties := bits.OnesCount64(^(p | o) & s.t.Mask)
	f := s.mpc.fit(empties, depth)
	if f.shallow == 0 {
		return 0, false
	}
	s.inProbCut = true
	defer func() { s.inProbCut = false }()
	margin := s.mpcT * f.sigma
	// deep >= beta is likely when shallow >= (beta + margin - b) / a.
	if up := int32(math.Ceil((float64(beta) + margin - f.b) / f.a)); up < winBonus {
		if v := s.search(p, o, f.shallow, up-1, up); !s.aborted && v >= up {
			return beta, true
		}
	}
	// deep <= alpha is likely when shallow <= (alpha - margin - b) / a.
	if down := int32(math.Floor((float64(alpha) - margin - f.b) / f.a)); down > -winBonus {
		if v := s.search(p, o, f.shallow, down, down+1); !s.aborted && v <= down {
			return alpha, true
		}
	}
	return 0, false
}
