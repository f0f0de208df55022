package engine

import (
	_ "embed"
	"fmt"
	"math/bits"

	"othello-bot/engine/pattern"
	"othello-bot/game/bitboard"
)

// Scores are in hundredths of a disc from the point of view of the side to
// move. A finished game scores its exact disc difference plus winBonus, so a
// sure win outranks any heuristic guess.
const (
	discUnit = 100
	winBonus = 20000
	infinity = winBonus + 65*discUnit
)

// terminalScore scores a finished game for p, giving the empty squares to
// the winner (the FFO convention), in search units.
func terminalScore(p, o, mask uint64) int32 {
	d := finalDiff(p, o, mask)
	switch {
	case d > 0:
		return int32(d*discUnit + winBonus)
	case d < 0:
		return int32(d*discUnit - winBonus)
	}
	return 0
}

// finalDiff is p's final disc margin with empties going to the winner.
func finalDiff(p, o, mask uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	e := bits.OnesCount64(mask) - np - no
	d := np - no
	switch {
	case d > 0:
		d += e
	case d < 0:
		d -= e
	}
	return d
}

// evaluator knows the special squares of one bitboard size.
type evaluator struct {
	t       *bitboard.Table
	corners uint64
	xs, cs  [4]uint64 // X and C squares next to each corner
	corner  [4]uint64
	// quadrant is each square's quadrant as a bit (1, 2, 4, 8) and odd,
	// for a set of those bits, the squares of those quadrants: the
	// endgame's parity (a region with an odd number of empties is where
	// the side entering it first may also have its last move).
	quadrant [64]uint8
	odd      [16]uint64
	edges    bool // exact edge stability from lineStable (8x8 only)
	// pw is the trained evaluation, used instead of the hand-tuned one
	// when set (8x8 only).
	pw *pattern.Weights
}

var evaluators [3]evaluator

// trainedWeights is the 8x8 evaluation made by cmd/train (see README).
//
//go:embed weights.bin
var trainedWeights []byte

func init() {
	initLineStable()
	w, err := pattern.Decode(trainedWeights)
	if err != nil {
		// Only a broken build gets here; TestEvalSymmetric catches it.
		panic(fmt.Sprintf("engine: the built-in weights: %v", err))
	}
	evaluators[2].pw = w
	for i := range evaluators {
		size := 4 + 2*i
		ev := &evaluators[i]
		ev.t = bitboard.For(size)
		ev.edges = size == 8
		n := size - 1
		bit := func(c, r int) uint64 { return 1 << (r*8 + c) }
		cs := [4][2]int{{0, 0}, {n, 0}, {0, n}, {n, n}}
		for k, c := range cs {
			dc, dr := 1, 1
			if c[0] == n {
				dc = -1
			}
			if c[1] == n {
				dr = -1
			}
			ev.corner[k] = bit(c[0], c[1])
			ev.corners |= ev.corner[k]
			ev.xs[k] = bit(c[0]+dc, c[1]+dr)
			ev.cs[k] = bit(c[0]+dc, c[1]) | bit(c[0], c[1]+dr)
		}
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				ev.quadrant[r*8+c] = 1 << (2*(r/(size/2)) + c/(size/2))
			}
		}
		for set := range ev.odd {
			for x, q := range ev.quadrant {
				if q&uint8(set) != 0 {
					ev.odd[set] |= 1 << x
				}
			}
		}
	}
}

func evaluatorFor(size int) *evaluator { return &evaluators[size/2-2] }

// neighbours returns the squares next to any disc of b (not masked).
func neighbours(b uint64) uint64 {
	h := (b<<1)&0xfefefefefefefefe | (b>>1)&0x7f7f7f7f7f7f7f7f
	hb := b | h
	return h | hb<<8 | hb>>8
}

// eval is the heuristic for a position with p to move: mobility and
// potential mobility, corners, the X and C squares next to empty corners,
// stable edge discs, parity and, late, the discs themselves.
func (ev *evaluator) eval(p, o uint64) int32 {
	mask := ev.t.Mask
	empty := mask &^ (p | o)
	e := bits.OnesCount64(empty)
	mp := bits.OnesCount64(bitboard.Moves(p, o, mask))
	mo := bits.OnesCount64(bitboard.Moves(o, p, mask))
	if mp == 0 && mo == 0 {
		return terminalScore(p, o, mask)
	}
	if ev.pw != nil {
		return clampEval(ev.pw.Eval(p, o, mp, mo, e))
	}
	potP := bits.OnesCount64(neighbours(o) & empty)
	potO := bits.OnesCount64(neighbours(p) & empty)

	s := 0
	// Mobility counts for most while the board is open.
	wMob := 90
	if e < 16 {
		wMob = 60
	}
	s += wMob * (mp - mo)
	s += 30 * (potP - potO)
	s += 500 * (bits.OnesCount64(p&ev.corners) - bits.OnesCount64(o&ev.corners))
	for k := 0; k < 4; k++ {
		if empty&ev.corner[k] == 0 {
			continue
		}
		s -= 250 * (bits.OnesCount64(p&ev.xs[k]) - bits.OnesCount64(o&ev.xs[k]))
		s -= 80 * (bits.OnesCount64(p&ev.cs[k]) - bits.OnesCount64(o&ev.cs[k]))
	}
	if ev.edges {
		s += 110 * edgeStability(p, o)
	}
	d := bits.OnesCount64(p) - bits.OnesCount64(o)
	switch {
	case e > 40:
		s -= 8 * d // early, fewer discs usually means more mobility later
	case e < 18:
		s += (18 - e) * 6 * d
		if e%2 == 1 {
			s += 40 // the side to move should get the last move
		} else {
			s -= 40
		}
	}
	return clampEval(int32(s))
}

// clampEval keeps a heuristic score below every proven win and above every
// proven loss.
func clampEval(s int32) int32 {
	return min(max(s, -winBonus+discUnit), winBonus-discUnit)
}
