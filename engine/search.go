package engine

import (
	"math/bits"
	"sync/atomic"
	"time"

	"othello-bot/engine/pattern"
	"othello-bot/game/bitboard"
	"othello-bot/internal/threadcpu"
)

// searcher runs one search at a time on a bitboard size (4, 6 or 8). It owns
// its transposition tables, so a pool of them bounds the engine's memory.
type searcher struct {
	t     *bitboard.Table
	ev    *evaluator
	tt    *ttable // midgame: heuristic scores
	ett   *ttable // endgame: exact disc margins
	nodes uint64
	// pairs counts the two-empty positions solve3 hands to lastTwo: searched
	// but, unlike every other position, not counted in nodes (so a node
	// budget means what it meant when budgets began). Edax counts them;
	// nodes+pairs is the count to compare rates with it
	// (BenchmarkSolveFFOEdaxCount).
	pairs    uint64
	stop     *atomic.Bool
	deadline time.Time // zero: none
	// target is when a move on a clock aims to answer (zero: none):
	// no iteration or endgame stage starts past it while the best move
	// holds (MoveOnClock).
	target  time.Time
	aborted bool
	// limit is the top level's work budget in nodes (0: none): the search
	// stops once it has searched that many, as at a deadline; maxDepth
	// caps its midgame depth (0: none); iterNodes is the share of the
	// budget after which its midgame deepening starts no new depth (the
	// selective endgame's first third), 0 for none.
	limit, iterNodes uint64
	maxDepth         int
	weights          *pattern.Weights // the engine's own, if any
	handTuned        bool             // 8x8 without trained weights
	own              evaluator        // the 8x8 evaluator with those weights
	// mpc is Multi-ProbCut's table while a search may cut (the top level on
	// 8x8 when mpcT, its confidence, is set); inProbCut is set during its
	// shallow searches, which cut nothing.
	mpc       *mpcTable
	mpcT      float64
	inProbCut bool
	// endLevel is the solver's stage (exactLevel, or a selective stage
	// that cuts with confidence endT; endmpc.go).
	endLevel int8
	endT     float64
	// selective is the top level's reach of the selective endgame beyond the
	// exact one (Options.Selective).
	selective int
	// team is the helpers of the parallel search this searcher leads (nil:
	// it searches alone or helps); stops are the split points above what
	// it searches now (parallel.go).
	team  *team
	stops []*atomic.Bool
	quit  *atomic.Bool // a helper's: its team is sent home
	// cpu times the search on its thread and cpuSpent is where its CPU
	// goes as it runs (the engine's count), so a search minutes long shows
	// in the count before it ends; nil when not timed.
	cpu      *threadcpu.Timer
	cpuSpent *atomic.Int64
	// nextCheck is the node count at which poll next checks (check);
	// checks counts its checks.
	nextCheck uint64
	checks    uint32
}

func newSearcher() *searcher {
	return &searcher{tt: newTable(18), ett: newTable(20)}
}

// reset prepares the searcher for a new search on the given size.
func (s *searcher) reset(size int, stop *atomic.Bool) {
	s.t = bitboard.For(size)
	s.ev = evaluatorFor(size)
	if size == 8 && (s.weights != nil || s.handTuned) {
		s.own = *s.ev
		s.own.pw = s.weights // nil: hand-tuned
		s.ev = &s.own
	}
	s.mpc = nil // the top level sets it for its timed search
	s.endLevel, s.endT = exactLevel, 0
	s.nodes, s.nextCheck, s.pairs = 0, 0, 0
	s.stop = stop
	s.aborted = false
	s.stops = nil
	s.tt.clear()
	s.ett.clear()
}

// poll notes a stop request; it is cheap enough to call at every node.
func (s *searcher) poll() bool {
	s.nodes++
	if s.nodes >= s.nextCheck {
		s.check()
	}
	return s.aborted
}

// check is poll's rarer part, kept apart so poll inlines: about every
// 1,024 nodes the stop, the deadline and the split points above, every 64
// of those the CPU spent; and the work budget, exactly at its node on any
// machine (from there every node is checked: the search unwinds).
func (s *searcher) check() {
	if s.stop.Load() || !s.deadline.IsZero() && time.Now().After(s.deadline) || s.splitStopped() {
		s.aborted = true
	}
	if s.checks++; s.checks&63 == 0 && s.cpu != nil {
		s.cpuSpent.Add(int64(s.cpu.Lap()))
	}
	s.nextCheck = s.nodes + 1024
	if s.limit != 0 {
		if s.nodes >= s.limit {
			s.aborted = true
			s.nextCheck = s.nodes + 1
		} else {
			s.nextCheck = min(s.nextCheck, s.limit)
		}
	}
}

// splitStopped says whether a split point above was cut or stopped.
func (s *searcher) splitStopped() bool {
	if s.quit != nil && s.quit.Load() {
		return true
	}
	for _, st := range s.stops {
		if st.Load() {
			return true
		}
	}
	return false
}

// squareOrder ranks squares for move ordering: corners first, then edges
// and the middle, X and C squares last.
var squareOrder = [64]int8{
	9, 2, 7, 6, 6, 7, 2, 9,
	2, 0, 3, 3, 3, 3, 0, 2,
	7, 3, 5, 4, 4, 5, 3, 7,
	6, 3, 4, 4, 4, 4, 3, 6,
	6, 3, 4, 4, 4, 4, 3, 6,
	7, 3, 5, 4, 4, 5, 3, 7,
	2, 0, 3, 3, 3, 3, 0, 2,
	9, 2, 7, 6, 6, 7, 2, 9,
}

type scoredMove struct {
	x     int8
	score int32
	flips uint64 // the discs the move turns, when ordering computed them
}

// ordering weighs what orderMoves looks at: the square's rank, the
// opponent's replies after the move, and the corners among them.
type ordering struct {
	square, replies, corners, eval int32
	depth                          int // the evaluation by a search this deep
}

var (
	orderShallow = ordering{square: 16}                                     // near the leaves: the square alone
	orderDeep    = ordering{square: 16, replies: 64, corners: 256, eval: 4} // midgame: mobility, corners above all
	orderEndgame = ordering{square: 1, replies: 16, corners: 8}             // solver: fewest replies first
	// solver far from the end: also the evaluation of the position after
	// the move (in hundredths of a disc per unit)
	orderEndgameEval = ordering{square: 1, replies: 16, corners: 8, eval: evalOrderDiv}
	orderEndgameFar  = ordering{square: 1, replies: 16, corners: 8, eval: evalOrderDiv, depth: 1}
)

// orderMoves lists moves best first: the table move, then by the weights.
func (s *searcher) orderMoves(p, o, moves uint64, ttMove int, list *[40]scoredMove, w ordering) int {
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		sc := int32(squareOrder[x]) * w.square
		var f uint64
		if x == ttMove {
			// First whatever it scores: only its flips are wanted
			// (the callers search it with them).
			if w.replies != 0 || w.corners != 0 {
				f = s.t.Flips(x, p, o)
			}
			list[n] = scoredMove{int8(x), 1 << 30, f}
			n++
			continue
		}
		if w.replies != 0 || w.corners != 0 {
			f = s.t.Flips(x, p, o)
			reply := bitboard.Moves(o^f, p^f|1<<x, s.t.Mask)
			nr := bits.OnesCount64(reply)
			sc -= int32(nr)*w.replies + int32(bits.OnesCount64(reply&s.ev.corners))*w.corners
			switch cp, co := o^f, p^f|1<<x; {
			case w.eval == 0 || s.ev.pw == nil:
			case w.depth > 0:
				sc -= s.search(cp, co, w.depth, -infinity, infinity) / w.eval
			default:
				e := bits.OnesCount64(s.t.Mask &^ (cp | co))
				sc -= s.ev.pw.Eval(cp, co, nr, bits.OnesCount64(bitboard.Moves(co, cp, s.t.Mask)), e) / w.eval
			}
		}
		list[n] = scoredMove{int8(x), sc, f}
		n++
	}
	// Insertion sort: lists are short.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && list[j].score > list[j-1].score; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	return n
}

// search is a principal-variation alpha-beta search to the given depth with
// p to move. A pass does not use up depth.
func (s *searcher) search(p, o uint64, depth int, alpha, beta int32) int32 {
	if s.poll() {
		return 0
	}
	if depth <= 0 {
		return s.ev.eval(p, o)
	}
	moves := bitboard.Moves(p, o, s.t.Mask)
	if moves == 0 {
		if bitboard.Moves(o, p, s.t.Mask) == 0 {
			return terminalScore(p, o, s.t.Mask)
		}
		return -s.search(o, p, depth, -beta, -alpha)
	}
	ttMove := -1
	if e, ok := s.tt.probe(p, o); ok {
		ttMove = int(e.move())
		if int(e.depth()) >= depth {
			switch {
			case e.bound() == boundExact:
				return e.score()
			case e.bound() == boundLower && e.score() >= beta:
				return e.score()
			case e.bound() == boundUpper && e.score() <= alpha:
				return e.score()
			}
		}
	}
	if v, ok := s.probCut(p, o, depth, alpha, beta); ok {
		return v
	}
	var list [40]scoredMove
	order := orderShallow
	if depth >= 3 {
		order = orderDeep
	}
	n := s.orderMoves(p, o, moves, ttMove, &list, order)
	alpha0 := alpha
	best, bestMove := int32(-infinity), -1
	for i := 0; i < n; i++ {
		if i == 1 && depth >= splitMinDepth && s.canSplit(n-1) {
			best, bestMove, _ = s.split(p, o, younger(list[1:n]), searchChild(depth-1), alpha, beta, best, bestMove, false)
			if s.aborted {
				return 0
			}
			break
		}
		x := int(list[i].x)
		f := s.t.Flips(x, p, o)
		cp, co := o^f, p^f|1<<x
		var v int32
		if i == 0 {
			v = -s.search(cp, co, depth-1, -beta, -alpha)
		} else {
			v = -s.search(cp, co, depth-1, -alpha-1, -alpha)
			if v > alpha && v < beta {
				v = -s.search(cp, co, depth-1, -beta, -alpha)
			}
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, x
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	bound := uint8(boundExact)
	switch {
	case best <= alpha0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	s.tt.store(p, o, depth, best, bound, bestMove)
	return best
}

// rootResult is one move at the root with its score.
type rootResult struct {
	x     int
	score int32
}

// searchRoot searches every root move to depth and returns them best first.
// With all true every move gets an exact score (for hints); otherwise only
// the best is exact and the others are bounds.
func (s *searcher) searchRoot(p, o uint64, depth int, prevBest int, all bool) []rootResult {
	moves := bitboard.Moves(p, o, s.t.Mask)
	var list [40]scoredMove
	n := s.orderMoves(p, o, moves, prevBest, &list, orderDeep)
	out := make([]rootResult, 0, n)
	alpha, beta := int32(-infinity), int32(infinity)
	for i := 0; i < n; i++ {
		if i == 1 {
			var split bool
			if out, split = s.rootSplit(p, o, younger(list[1:n]), searchChild(depth-1), alpha, beta, all, out); split {
				break
			}
		}
		x := int(list[i].x)
		f := s.t.Flips(x, p, o)
		cp, co := o^f, p^f|1<<x
		var v int32
		if i == 0 || all {
			v = -s.search(cp, co, depth-1, -beta, -alpha)
		} else {
			v = -s.search(cp, co, depth-1, -alpha-1, -alpha)
			if v > alpha {
				v = -s.search(cp, co, depth-1, -beta, -alpha)
			}
		}
		if s.aborted {
			// The moves searched to the end before time ran out still
			// count: the first with its exact score, the others proved
			// worse or searched again in full.
			sortResults(out)
			return out
		}
		out = append(out, rootResult{x, v})
		if v > alpha && !all {
			alpha = v
		}
	}
	sortResults(out)
	return out
}

// sortResults orders by score, best first, keeping the search order on ties.
func sortResults(r []rootResult) {
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && r[j].score > r[j-1].score; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
}
