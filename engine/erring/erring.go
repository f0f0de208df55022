// Package erring chooses a move the way a player of a given strength
// would: from the searched values of every legal move, a worse move is
// chosen less often than a better one, never more, and on average the
// choice loses what the player's budget says — more in the midgame, little
// in the last empties, never more than the budget's cap on one move.
//
// The idea is Othello Sensei's levels (an average loss per game and a
// largest loss per move) and Egaroucid's "AI disc loss": an opponent that
// errs like a person, not a shallow search that plays perfect tactics and
// then gives away a corner. The probabilities are a softmax of the loss
// with the temperature that meets the budget: the spread of choices that
// assumes least beyond the average loss asked for (the maximum-entropy
// choice for a given mean), so it is monotone by construction.
package erring

import (
	"math"
	"math/rand/v2"
)

// Budget is how much a level loses.
type Budget struct {
	// PerGame is the average number of discs lost over a game's own moves
	// (about 30 for a side on 8x8), spread over them by PhaseWeight.
	PerGame float64
	// Cap is the largest loss allowed on any one move, in discs: a move
	// that loses more is never chosen (the best move always may be).
	Cap float64
}

// movesPerGame is how many moves one side makes in a game on 8x8.
const movesPerGame = 30

// PhaseWeight is how much of the budget a move with that many empty
// squares spends, relative to the game's average move (the weights over a
// game's moves average 1): people err little in the opening they know,
// most in the midgame, and little in the last ten empties, where they
// count. Boards other than 8x8 scale by their share of empties.
func PhaseWeight(empties, squares int) float64 {
	if squares <= 0 {
		return 1
	}
	x := float64(empties) / float64(squares-4) // 1 at the start, 0 at the end
	switch {
	case InOpening(empties, squares):
		return 0.6
	case x > 0.2: // the midgame
		return 1.25
	default: // the last empties (about ten on 8x8)
		return 0.5
	}
}

// InOpening says a position with that many empty squares is in the
// opening: over four fifths of the board still empty (the first dozen
// moves on 8x8).
func InOpening(empties, squares int) bool {
	return squares > 4 && float64(empties)/float64(squares-4) > 0.8
}

// Target is the average loss a move at that point of the game aims at.
func (b Budget) Target(empties, squares int) float64 {
	if b.PerGame <= 0 {
		return 0
	}
	return b.PerGame / movesPerGame * PhaseWeight(empties, squares)
}

// Probabilities gives each move's chance from its value (discs, from the
// mover's side: higher is better), aiming at an average loss of target
// and never choosing a move that loses more than limit (0: no limit). A
// better move is never less likely than a worse one, and moves of equal
// value are equally likely. With target 0 the best moves share it all.
func Probabilities(values []float64, target, limit float64) []float64 {
	p := make([]float64, len(values))
	if len(values) == 0 {
		return p
	}
	best := values[0]
	for _, v := range values {
		best = max(best, v)
	}
	loss := make([]float64, len(values))
	for i, v := range values {
		loss[i] = best - v
	}
	allowed := func(i int) bool { return limit <= 0 || loss[i] <= limit }
	// The mean loss grows with the temperature from 0 (the best moves
	// only) to the mean over the allowed moves (all equally likely): the
	// target is met by bisection, or the nearest end is taken.
	mean := func(t float64) float64 {
		var sum, weight float64
		for i := range loss {
			if allowed(i) {
				w := softmax(loss[i], t)
				sum += w * loss[i]
				weight += w
			}
		}
		return sum / weight
	}
	t := 0.0
	var uniform float64 // the mean loss when every allowed move is as likely
	n := 0
	for i := range loss {
		if allowed(i) {
			uniform += loss[i]
			n++
		}
	}
	uniform /= float64(n)
	switch {
	case target >= uniform:
		t = math.Inf(1)
	case target > 0:
		lo, hi := 0.0, 1.0
		for mean(hi) < target && hi < 1e6 {
			hi *= 2
		}
		for range 60 {
			mid := (lo + hi) / 2
			if mean(mid) < target {
				lo = mid
			} else {
				hi = mid
			}
		}
		t = (lo + hi) / 2
	}
	var total float64
	for i := range loss {
		if allowed(i) {
			p[i] = softmax(loss[i], t)
			total += p[i]
		}
	}
	for i := range p {
		p[i] /= total
	}
	return p
}

// softmax is a move's weight at temperature t; at 0 only the best count.
func softmax(loss, t float64) float64 {
	if math.IsInf(t, 1) {
		return 1
	}
	if t <= 0 {
		if loss == 0 {
			return 1
		}
		return 0
	}
	return math.Exp(-loss / t)
}

// Choose picks a move's index by Probabilities.
func Choose(rng *rand.Rand, values []float64, target, limit float64) int {
	p := Probabilities(values, target, limit)
	r := rng.Float64()
	last := 0
	for i, x := range p {
		if x == 0 {
			continue
		}
		last = i
		if r < x {
			return i
		}
		r -= x
	}
	return last // rounding left a sliver: the last possible move
}
