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

func TestCountRepliesMatchesPortableCode(t *testing.T) {
	if !hasAVX2 {
		t.Skip("this CPU (or a purego build) has no AVX2: perft runs the portable code only")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{4, 6, 8} {
		tb := For(size)
		for range 20000 {
			p, o := randomPosition(r, tb)
			checkReplies(t, tb, p, o, Moves(p, o, tb.Mask))
			// Any empty squares, legal or not, and positions no game reaches.
			checkReplies(t, tb, p, o, r.Uint64()&^(p|o)&tb.Mask)
			a, b := r.Uint64()&tb.Mask, r.Uint64()&tb.Mask
			checkReplies(t, tb, a&^b, b, ^(a|b)&tb.Mask)
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
	r := rand.New(rand.NewPCG(3, 4))
	type pos struct{ p, o, moves uint64 }
	var ps []pos
	for len(ps) < 1024 {
		p, o := randomPosition(r, tb)
		if m := Moves(p, o, tb.Mask); m != 0 {
			ps = append(ps, pos{p, o, m})
		}
	}
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
