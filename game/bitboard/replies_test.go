package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// randomPosition plays random legal moves from the start of a board of the
// given size, so the positions are ones games reach.
func randomPosition(r *rand.Rand, t *Table) (p, o uint64) {
	mid := t.Size/2 - 1
	p = 1<<(mid*8+mid+1) | 1<<((mid+1)*8+mid)
	o = 1<<(mid*8+mid) | 1<<((mid+1)*8+mid+1)
	for plies := r.IntN(t.Size * t.Size); plies > 0; plies-- {
		moves := Moves(p, o, t.Mask)
		if moves == 0 {
			if Moves(o, p, t.Mask) == 0 {
				break
			}
			p, o = o, p
			continue
		}
		for k := r.IntN(bits.OnesCount64(moves)); k > 0; k-- {
			moves &= moves - 1
		}
		x := bits.TrailingZeros64(moves)
		f := t.Flips(x, p, o)
		p, o = o^f, p^f|1<<x
	}
	return p, o
}

// checkReplies compares the counting kernel in use with the portable one.
func checkReplies(t *testing.T, tb *Table, p, o, moves uint64) {
	t.Helper()
	if got, want := tb.countReplies(p, o, moves), tb.countRepliesGo(p, o, moves); got != want {
		t.Fatalf("size %d p=%#x o=%#x moves=%#x: %d replies, the portable code counts %d", tb.Size, p, o, moves, got, want)
	}
}

// The assembly in use (perft's kernel, Moves, Flips) agrees
// with the portable code.
func TestAssemblyMatchesPortableCode(t *testing.T) {
	if !hasAVX2 {
		t.Skip("this CPU (or a purego build) has no AVX2: the portable code runs")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{4, 6, 8} {
		tb := For(size)
		for range 20000 {
			p, o := randomPosition(r, tb)
			checkReplies(t, tb, p, o, Moves(p, o, tb.Mask))
			checkKernels(t, tb, p, o)
			// Any empty squares, legal or not, and positions no game reaches.
			checkReplies(t, tb, p, o, r.Uint64()&^(p|o)&tb.Mask)
			a, b := r.Uint64()&tb.Mask, r.Uint64()&tb.Mask
			checkReplies(t, tb, a&^b, b, ^(a|b)&tb.Mask)
			checkKernels(t, tb, a&^b, b)
		}
	}
}

func FuzzCountReplies(f *testing.F) {
	f.Add(uint64(0x0000_1c3c_1810_0000), uint64(0x0008_2000_2428_1000), uint64(0xffff_ffff_ffff_ffff), uint8(8))
	f.Fuzz(func(t *testing.T, p, o, moves uint64, size uint8) {
		tb := For(4 + 2*int(size%3))
		p &= tb.Mask
		o &= tb.Mask &^ p
		checkReplies(t, tb, p, o, moves&^(p|o)&tb.Mask)
	})
}

func BenchmarkCountReplies(b *testing.B) {
	tb := For(8)
	ps := benchPositions(tb)
	for _, kernel := range []struct {
		name  string
		count func(p, o, moves uint64) uint64
	}{{"in-use", tb.countReplies}, {"portable", tb.countRepliesGo}} {
		b.Run(kernel.name, func(b *testing.B) {
			var sink uint64
			i := 0
			for b.Loop() {
				q := ps[i&1023]
				sink += kernel.count(q.p, q.o, q.moves)
				i++
			}
			_ = sink
		})
	}
}

// checkKernels compares Moves and Flips as they run here with the portable
// code, on any pair of disc sets (a move's flips for every empty square,
// legal or not).
func checkKernels(t *testing.T, tb *Table, p, o uint64) {
	t.Helper()
	if got, want := Moves(p, o, tb.Mask), movesGo(p, o, tb.Mask); got != want {
		t.Fatalf("size %d p=%#x o=%#x: moves %#x, the portable code says %#x", tb.Size, p, o, got, want)
	}
	for m := tb.Mask &^ (p | o); m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		if got, want := tb.Flips(x, p, o), flipsGo(&tb.rays[x], p, o); got != want {
			t.Fatalf("size %d p=%#x o=%#x at %d: flips %#x, the portable code says %#x", tb.Size, p, o, x, got, want)
		}
	}
}

func FuzzKernels(f *testing.F) {
	f.Add(uint64(0x0000_1c3c_1810_0000), uint64(0x0008_2000_2428_1000), uint8(8))
	f.Fuzz(func(t *testing.T, p, o uint64, size uint8) {
		tb := For(4 + 2*int(size%3))
		p &= tb.Mask
		checkKernels(t, tb, p, o&tb.Mask&^p)
	})
}

// BenchmarkKernels compares the flips and moves in use with the portable
// code over positions from random games (flips: every legal move of one).
func BenchmarkKernels(b *testing.B) {
	tb := For(8)
	ps := benchPositions(tb)
	var sink uint64
	for _, k := range []struct {
		name  string
		flips func(x int, p, o uint64) uint64
		moves func(p, o, mask uint64) uint64
	}{
		{"in-use", tb.Flips, Moves},
		{"portable", func(x int, p, o uint64) uint64 { return flipsGo(&tb.rays[x], p, o) }, movesGo},
	} {
		b.Run("flips/"+k.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				q := ps[i&1023]
				for m := q.moves; m != 0; m &= m - 1 {
					sink += k.flips(bits.TrailingZeros64(m), q.p, q.o)
				}
				i++
			}
		})
		b.Run("moves/"+k.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				q := ps[i&1023]
				sink += k.moves(q.p, q.o, tb.Mask)
				i++
			}
		})
	}
	_ = sink
}

type benchPosition struct{ p, o, moves uint64 }

// benchPositions are 1,024 positions from random games with a move to make.
func benchPositions(tb *Table) []benchPosition {
	r := rand.New(rand.NewPCG(3, 4))
	var ps []benchPosition
	for len(ps) < 1024 {
		p, o := randomPosition(r, tb)
		if m := movesGo(p, o, tb.Mask); m != 0 {
			ps = append(ps, benchPosition{p, o, m})
		}
	}
	return ps
}
