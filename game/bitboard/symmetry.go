package bitboard

import "math/bits"

// The eight symmetries of the 8x8 board, numbered 0..7: bit 0 flips the
// rows, bit 1 mirrors the columns, bit 2 swaps rows and columns (applied in
// that order). Openings and the opening book store a position once, under
// the least of its eight images.

// Transform applies symmetry s to an 8x8 bitboard (bit row*8+col).
func Transform(b uint64, s int) uint64 {
	if s&1 != 0 {
		b = bits.ReverseBytes64(b)
	}
	if s&2 != 0 {
		b = mirror(b)
	}
	if s&4 != 0 {
		b = transpose(b)
	}
	return b
}

// TransformSquare applies symmetry s to one square's bit index, as
// Transform does to a bitboard.
func TransformSquare(x, s int) int {
	row, col := x/8, x%8
	if s&1 != 0 {
		row = 7 - row
	}
	if s&2 != 0 {
		col = 7 - col
	}
	if s&4 != 0 {
		row, col = col, row
	}
	return row*8 + col
}

// Canonical is the least image (by the first board, then the second) of a
// pair of bitboards under the eight symmetries, and the symmetry that
// gives it.
func Canonical(p, o uint64) (cp, co uint64, sym int) {
	cp, co = p, o
	for s := 1; s < 8; s++ {
		tp, to := Transform(p, s), Transform(o, s)
		if tp < cp || tp == cp && to < co {
			cp, co, sym = tp, to, s
		}
	}
	return cp, co, sym
}

// mirror reverses the columns of each row.
func mirror(b uint64) uint64 {
	const k1, k2, k4 = 0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f
	b = ((b >> 1) & k1) | ((b & k1) << 1)
	b = ((b >> 2) & k2) | ((b & k2) << 2)
	b = ((b >> 4) & k4) | ((b & k4) << 4)
	return b
}

// transpose swaps rows and columns (reflection in the a1-h8 diagonal).
func transpose(b uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (b ^ (b << 28))
	b ^= t ^ (t >> 28)
	t = k2 & (b ^ (b << 14))
	b ^= t ^ (t >> 14)
	t = k1 & (b ^ (b << 7))
	b ^= t ^ (t >> 7)
	return b
}
