package bitboard

import (
	"math/bits"
	"testing"
)

func TestTables(t *testing.T) {
	for _, size := range []int{4, 6, 8} {
		tb := For(size)
		if tb == nil || bits.OnesCount64(tb.Mask) != size*size || tb.Size != size {
			t.Fatalf("size %d: table %+v", size, tb)
		}
	}
	if For(10) != nil || For(5) != nil {
		t.Error("tables for sizes that do not fit")
	}
	// From a1 the rays run along row 1, column a and the long diagonal.
	r := For(8).rays[0]
	if r[0] != 0xfe || r[2] != 0x0101010101010100 || r[3] != 0x8040201008040200 || r[4]|r[5]|r[6]|r[7]|r[1] != 0 {
		t.Errorf("rays from a1: %x", r)
	}
}

func TestMovesFromStart(t *testing.T) {
	// 8x8 start, black to move: d3, c4, f5, e6.
	black := uint64(1)<<(3*8+4) | uint64(1)<<(4*8+3)
	white := uint64(1)<<(3*8+3) | uint64(1)<<(4*8+4)
	want := uint64(1)<<(2*8+3) | uint64(1)<<(3*8+2) | uint64(1)<<(4*8+5) | uint64(1)<<(5*8+4)
	if got := Moves(black, white, For(8).Mask); got != want {
		t.Errorf("moves %x, want %x", got, want)
	}
	if f := For(8).Flips(2*8+3, black, white); f != 1<<(3*8+3) {
		t.Errorf("d3 flips %x", f)
	}
}

func BenchmarkMoves(b *testing.B) {
	p, o := uint64(0x0000_1c3c_1810_0000), uint64(0x0008_2000_2428_1000)
	mask := For(8).Mask
	var sink uint64
	for b.Loop() {
		sink += Moves(p, o, mask)
		p, o = o, p
	}
	_ = sink
}

func BenchmarkFlips(b *testing.B) {
	p, o := uint64(0x0000_1c3c_1810_0000), uint64(0x0008_2000_2428_1000)
	tb := For(8)
	moves := Moves(p, o, tb.Mask)
	var sink uint64
	for b.Loop() {
		for m := moves; m != 0; m &= m - 1 {
			sink += tb.Flips(bits.TrailingZeros64(m), p, o)
		}
	}
	_ = sink
}
