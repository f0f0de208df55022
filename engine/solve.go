package engine

import (
	"math/bits"
	"time"

	"othello-bot/game/bitboard"
)

// The exact endgame solver: perfect play to the end of the game, scores in
// discs with the empty squares going to the winner (the FFO convention).
// Near the end it drops the costly parts (ordering, the table) that do not
// pay for themselves.

const (
	etcMin         = 10 // empties from which the solver looks its children up first
	solveTableMin  = 9  // empties from which the solver uses its table
	solveOrderMin  = 6  // empties from which moves are ordered fastest-first
	evalOrderMin   = 12 // empties from which the evaluation helps order them
	evalOrderDiv   = 32
	searchOrderMin = 16 // and from here a shallow search
	aspirationMin  = 14 // empties from which the root guesses its score first
	aspiration     = 1  // half the width of the guessed window, in discs
)

// solve returns the exact margin for p to move, searched with alpha-beta
// inside (alpha, beta).
func (s *searcher) solve(p, o uint64, alpha, beta int) int {
	if s.poll() {
		return 0
	}
	empty := s.t.Mask &^ (p | o)
	switch e := bits.OnesCount64(empty); {
	case e == 0:
		return bits.OnesCount64(p) - bits.OnesCount64(o)
	case e == 1:
		return s.lastMove(p, o, bits.TrailingZeros64(empty))
	case e == 2:
		x1 := bits.TrailingZeros64(empty)
		return s.lastTwo(p, o, x1, bits.TrailingZeros64(empty&(empty-1)), alpha, beta, false)
	case e == 3:
		x1, x2, x3 := s.order3(empty, s.parity(empty))
		return s.solve3(p, o, x1, x2, x3, alpha, beta)
	case e < solveOrderMin:
		return s.solveShallow(p, o, empty, e, s.parity(empty), alpha, beta)
	default:
		return s.solveDeep(p, o, e, alpha, beta)
	}
}

// lastTwo solves the last two empties, x1 and x2, written out: it is where
// the solver spends most of its nodes. passed says the opponent just
// passed.
func (s *searcher) lastTwo(p, o uint64, x1, x2, alpha, beta int, passed bool) int {
	best := -65
	if f := s.t.Flips(x1, p, o); f != 0 {
		s.nodes++
		best = -s.lastMove(o^f, p^f|1<<x1, x2)
		if best >= beta {
			return best
		}
	}
	if f := s.t.Flips(x2, p, o); f != 0 {
		s.nodes++
		if v := -s.lastMove(o^f, p^f|1<<x2, x1); v > best {
			best = v
		}
	}
	if best == -65 {
		if passed {
			return finalDiff(p, o, s.t.Mask)
		}
		return -s.lastTwo(o, p, x1, x2, -beta, -alpha, true)
	}
	return best
}

// lastMove scores the game after the last empty square x is filled
// (lastflip.go: counted, not flipped).
func (s *searcher) lastMove(p, o uint64, x int) int {
	return lastScore(p, x, s.t.Mask, bits.OnesCount64(s.t.Mask))
}

// solveShallow tries every empty square next to an opponent disc, without
// ordering or table, from four empties up; three have code of their own
// (solve3), which it hands each child's squares as numbers.
//
// It keeps the empty squares and their number itself, going straight to
// its children (the last two empties have their own code) without the
// dispatch of solve.
func (s *searcher) solveShallow(p, o, empty uint64, n int, parity uint8, alpha, beta int) int {
	best := -65
	near := neighbours(o) & empty
	// Parity: squares in quadrants with an odd number of empties first, as
	// Edax does; it finds the cut-offs sooner.
	odd := s.ev.odd[parity]
	m, later := near&odd, near&^odd
	for {
		if m == 0 {
			if later == 0 {
				break
			}
			m, later = later, 0
		}
		x := bits.TrailingZeros64(m)
		m &= m - 1
		f := s.t.Flips(x, p, o)
		if f == 0 {
			continue
		}
		if s.poll() {
			return 0
		}
		var v int
		if rest, par := empty&^(1<<x), parity^s.ev.quadrant[x]; n == 4 {
			x1, x2, x3 := s.order3(rest, par)
			v = -s.solve3(o^f, p^f|1<<x, x1, x2, x3, -beta, -alpha)
		} else {
			v = -s.solveShallow(o^f, p^f|1<<x, rest, n-1, par, -beta, -alpha)
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					return best
				}
			}
		}
	}
	if best == -65 { // no move: pass, or the game is over
		if bitboard.Moves(o, p, s.t.Mask) == 0 {
			return finalDiff(p, o, s.t.Mask)
		}
		return -s.solve(o, p, -beta, -alpha)
	}
	return best
}

// order3 lists three empty squares in the order solveShallow tries them:
// those in quadrants with an odd number of empties first, each group by
// square.
func (s *searcher) order3(empty uint64, parity uint8) (x1, x2, x3 int) {
	odd := s.ev.odd[parity]
	first, second := empty&odd, empty&^odd
	// Take the squares of first, then of second, lowest first.
	if first == 0 {
		first, second = second, 0
	}
	x1 = bits.TrailingZeros64(first)
	if first &= first - 1; first == 0 {
		first, second = second, 0
	}
	x2 = bits.TrailingZeros64(first)
	if first &= first - 1; first == 0 {
		first = second
	}
	return x1, x2, bits.TrailingZeros64(first)
}

// solve3 solves three empties given in the order to try them; the last two
// go to lastTwo by square, as solveShallow handed them.
func (s *searcher) solve3(p, o uint64, x1, x2, x3 int, alpha, beta int) int {
	best := -65
	if neighbourOf[x1&63]&o != 0 {
		if f := s.t.Flips(x1, p, o); f != 0 {
			s.pairs++
			best = -s.lastTwo(o^f, p^f|1<<x1, min(x2, x3), max(x2, x3), -beta, -alpha, false)
			if best >= beta {
				return best
			}
			alpha = max(alpha, best)
		}
	}
	if neighbourOf[x2&63]&o != 0 {
		if f := s.t.Flips(x2, p, o); f != 0 {
			s.pairs++
			if v := -s.lastTwo(o^f, p^f|1<<x2, min(x1, x3), max(x1, x3), -beta, -alpha, false); v > best {
				best = v
				if v >= beta {
					return best
				}
				alpha = max(alpha, v)
			}
		}
	}
	if neighbourOf[x3&63]&o != 0 {
		if f := s.t.Flips(x3, p, o); f != 0 {
			s.pairs++
			if v := -s.lastTwo(o^f, p^f|1<<x3, min(x1, x2), max(x1, x2), -beta, -alpha, false); v > best {
				best = v
			}
		}
	}
	if best == -65 { // no move: pass, or the game is over
		if bitboard.Moves(o, p, s.t.Mask) == 0 {
			return finalDiff(p, o, s.t.Mask)
		}
		if s.poll() { // the pass is a node, as solve counts it
			return 0
		}
		return -s.solve3(o, p, x1, x2, x3, -beta, -alpha)
	}
	return best
}

// neighbourOf is the squares next to each square: a move there needs an
// opponent disc among them.
var neighbourOf [64]uint64

func init() {
	for x := range neighbourOf {
		neighbourOf[x] = neighbours(1 << x)
	}
}

// parity returns the set of quadrants (as bits) holding an odd number of
// the empty squares; a move flips its quadrant's bit.
func (s *searcher) parity(empty uint64) uint8 {
	var set uint8
	for m := empty; m != 0; m &= m - 1 {
		set ^= s.ev.quadrant[bits.TrailingZeros64(m)]
	}
	return set
}

// solveDeep orders moves fastest-first (fewest replies) and uses the
// endgame table and null-window searches.
func (s *searcher) solveDeep(p, o uint64, empties, alpha, beta int) int {
	moves := bitboard.Moves(p, o, s.t.Mask)
	if moves == 0 {
		if bitboard.Moves(o, p, s.t.Mask) == 0 {
			return finalDiff(p, o, s.t.Mask)
		}
		return -s.solve(o, p, -beta, -alpha)
	}
	// Stability cut-off: p cannot end above 64 minus twice o's discs that
	// can never be flipped; worth computing only if all of o's discs being
	// stable would cut. (Tried in the shallow solver too: fewer nodes, but
	// slower.)
	if s.t.Size == 8 && 64-2*bits.OnesCount64(o) <= alpha {
		if bound := 64 - 2*bits.OnesCount64(stableDiscs(p, o)); bound <= alpha {
			return bound
		}
	}
	ttMove := -1
	useTable := empties >= solveTableMin
	if useTable {
		if e, ok := s.ett.probe(p, o); ok {
			ttMove = int(e.move())
			sc := int(e.score())
			switch {
			case e.depth() < s.endLevel: // a bolder stage's: its move only
			case e.bound() == boundExact:
				return sc
			case e.bound() == boundLower && sc >= beta:
				return sc
			case e.bound() == boundUpper && sc <= alpha:
				return sc
			case e.bound() == boundLower && sc > alpha:
				alpha = sc
			case e.bound() == boundUpper && sc < beta:
				beta = sc
			}
		}
	}
	if s.endLevel < exactLevel && empties >= endMPCMin {
		if v, ok := s.endProbCut(p, o, empties, alpha, beta); ok {
			return v
		}
	}
	var list [40]scoredMove
	order := orderEndgame
	switch {
	case empties >= searchOrderMin:
		order = orderEndgameFar
	case empties >= evalOrderMin:
		order = orderEndgameEval
	}
	n := s.orderMoves(p, o, moves, ttMove, &list, order)
	// Enhanced transposition cut-off: a child the table already proves
	// good enough for p ends the search here, before any is searched.
	if empties >= etcMin {
		for i := 0; i < n; i++ {
			x, f := int(list[i].x), list[i].flips
			if e, ok := s.ett.probe(o^f, p^f|1<<x); ok && e.bound()&boundUpper != 0 && e.depth() >= s.endLevel && int(-e.score()) >= beta {
				return int(-e.score())
			}
		}
	}
	alpha0 := alpha
	best, bestMove := -65, -1
	for i := 0; i < n; i++ {
		if i == 1 && empties >= splitMinEmpties && s.canSplit(n-1) {
			b, m, _ := s.split(p, o, younger(list[1:n]), solveChild, int32(alpha), int32(beta), int32(best), bestMove, false)
			if s.aborted {
				return 0
			}
			best, bestMove = int(b), m
			break
		}
		x := int(list[i].x)
		f := list[i].flips // computed by the ordering
		cp, co := o^f, p^f|1<<x
		var v int
		if i == 0 {
			v = -s.solve(cp, co, -beta, -alpha)
		} else {
			v = -s.solve(cp, co, -alpha-1, -alpha)
			if v > alpha && v < beta {
				v = -s.solve(cp, co, -beta, -alpha)
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
	if useTable {
		bound := uint8(boundExact)
		switch {
		case best <= alpha0:
			bound = boundUpper
		case best >= beta:
			bound = boundLower
		}
		s.ett.store(p, o, int(s.endLevel), int32(best), bound, bestMove)
	}
	return best
}

// solveRoot solves every root move and returns them best first. With all
// false, moves after the first are only proved worse (their scores are
// bounds); with all true each gets its exact score. Without all, a short
// midgame search first guesses the score, and the first move is searched
// in a narrow window around the guess, widened only if the score falls
// outside it.
func (s *searcher) solveRoot(p, o uint64, all bool) []rootResult {
	return s.solveRootFrom(p, o, all, nil)
}

// solveRootFrom is solveRoot given a guess of the best move and its score
// (an earlier stage's), which stands in for the midgame search's.
func (s *searcher) solveRootFrom(p, o uint64, all bool, guess *rootResult) []rootResult {
	moves := bitboard.Moves(p, o, s.t.Mask)
	var list [40]scoredMove
	n := s.orderMoves(p, o, moves, -1, &list, orderDeep)
	lo, hi := -65, 65
	empties := bits.OnesCount64(s.t.Mask &^ (p | o))
	if guess != nil {
		if !all {
			lo, hi = max(int(guess.score)-aspiration, -65), min(int(guess.score)+aspiration, 65)
		}
		n = s.orderMoves(p, o, moves, guess.x, &list, orderDeep)
	} else if !all && empties >= aspirationMin {
		g := s.iterate(p, o, min(empties/2, 10), empties, time.Time{})
		if s.aborted {
			return nil
		}
		guess := int(g.Eval.Cents / discUnit)
		lo, hi = max(guess-aspiration, -65), min(guess+aspiration, 65)
		n = s.orderMoves(p, o, moves, g.Move.Col+8*g.Move.Row, &list, orderDeep)
	}
	out := make([]rootResult, 0, n)
	alpha := -65
	for i := 0; i < n; i++ {
		if i == 1 {
			a := int32(alpha)
			if all {
				a = -65
			}
			var split bool
			if out, split = s.rootSplit(p, o, younger(list[1:n]), solveChild, a, 65, all, out); split {
				if s.aborted {
					return nil
				}
				break
			}
		}
		x := int(list[i].x)
		f := s.t.Flips(x, p, o)
		cp, co := o^f, p^f|1<<x
		var v int
		switch {
		case i == 0 && !all:
			v = -s.solve(cp, co, -hi, -lo)
			for !s.aborted && (v <= lo && lo > -65 || v >= hi && hi < 65) {
				if v <= lo {
					lo, hi = -65, v+1
				} else {
					lo, hi = v-1, 65
				}
				v = -s.solve(cp, co, -hi, -lo)
			}
		case all:
			v = -s.solve(cp, co, -65, 65)
		default:
			v = -s.solve(cp, co, -alpha-1, -alpha)
			if v > alpha {
				v = -s.solve(cp, co, -65, -alpha)
			}
		}
		if s.aborted {
			return nil
		}
		out = append(out, rootResult{x, int32(v)})
		if v > alpha {
			alpha = v
		}
	}
	sortResults(out)
	return out
}
