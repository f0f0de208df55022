package engine

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"othello-bot/game/bitboard"
)

// The last empty square's flips counted from the lines through it agree
// with the flips worked out, for both sides, on every board size, on
// random full boards; and its score with the solver's written-out one.
func TestCountLastFlips(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, size := range []int{4, 6, 8} {
		tb := bitboard.For(size)
		total := bits.OnesCount64(tb.Mask)
		for i := 0; i < 20000; i++ {
			x := rng.IntN(64)
			if tb.Mask>>x&1 == 0 {
				continue
			}
			p := rng.Uint64() & tb.Mask &^ (1 << x)
			if i%4 == 0 {
				p &= rng.Uint64() // boards with few discs of p
			}
			o := tb.Mask &^ p &^ (1 << x)
			if got, want := countLastFlips(p, x), bits.OnesCount64(tb.Flips(x, p, o)); got != want {
				t.Fatalf("size %d x %d p %#x: %d flips counted, %d made", size, x, p, got, want)
			}
			if got, want := countLastFlips(o, x), bits.OnesCount64(tb.Flips(x, o, p)); got != want {
				t.Fatalf("size %d x %d o %#x: %d flips counted, %d made", size, x, o, got, want)
			}
			if got, want := lastScore(p, x, tb.Mask, total), flipsScore(tb, p, o, x); got != want {
				t.Fatalf("size %d x %d p %#x: score %d, the solver says %d", size, x, p, got, want)
			}
		}
	}
}

// flipsScore is the last move's score worked out with the flips: the
// solver's way before the counting table.
func flipsScore(tb *bitboard.Table, p, o uint64, x int) int {
	total := bits.OnesCount64(tb.Mask)
	if f := tb.Flips(x, p, o); f != 0 {
		return 2*(bits.OnesCount64(p)+bits.OnesCount64(f)+1) - total
	}
	if f := tb.Flips(x, o, p); f != 0 {
		return total - 2*(bits.OnesCount64(o)+bits.OnesCount64(f)+1)
	}
	d := bits.OnesCount64(p) - bits.OnesCount64(o)
	switch {
	case d > 0:
		return d + 1
	case d < 0:
		return d - 1
	}
	return 0
}
