package engine

import "math/bits"

// With one empty square left every other square holds a disc, so the
// discs a move there turns over depend only on where the mover's discs
// are on the four lines through it: a table by the square's place on a
// line and the mover's discs on it gives the count, without working out
// which discs flip (Edax's count_last_flip does the same).
//
// A line of a smaller board embedded in the 8x8 bitboard reads its
// off-board squares as the opponent's: they lie at its ends, so a run
// reaching them finds no disc of the mover beyond and flips nothing, as
// on the board.

// lastFlips[pos][line] is what a move at pos turns over along an 8-square
// line where line's set bits are the mover's and every other square but
// pos the opponent's.
var lastFlips [8][256]uint8

// diag9 and diag7 are the diagonals through each square (towards h8 and
// towards a8 from a1's side).
var diag9, diag7 [64]uint64

func init() {
	for pos := 0; pos < 8; pos++ {
		for line := 0; line < 256; line++ {
			n := 0
			for _, step := range []int{-1, 1} {
				run := 0
				for i := pos + step; i >= 0 && i < 8; i += step {
					if line>>i&1 == 1 {
						n += run
						break
					}
					run++
				}
			}
			lastFlips[pos][line] = uint8(n)
		}
	}
	for x := 0; x < 64; x++ {
		r, c := x/8, x%8
		for i := -7; i <= 7; i++ {
			if rr, cc := r+i, c+i; rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
				diag9[x] |= 1 << (rr*8 + cc)
			}
			if rr, cc := r+i, c-i; rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
				diag7[x] |= 1 << (rr*8 + cc)
			}
		}
	}
}

// countLastFlips is how many discs a move by the side owning m at x turns
// over when x is the board's last empty square.
func countLastFlips(m uint64, x int) int {
	x &= 63
	r, c := x>>3, x&7
	const file, gather, spread = 0x0101010101010101, 0x0102040810204080, 0x0101010101010101
	row := uint8(m >> (r * 8))
	col := uint8(((m >> c) & file) * gather >> 56)
	d9 := uint8((m & diag9[x]) * spread >> 56)
	d7 := uint8((m & diag7[x]) * spread >> 56)
	return int(lastFlips[c][row]) + int(lastFlips[r][col]) + int(lastFlips[c][d9]) + int(lastFlips[c][d7])
}

// lastScore is the final margin for p after the last empty square x of
// the board mask is filled (total is its number of squares): by p, or by
// the opponent if p cannot move there, or by neither.
func lastScore(p uint64, x int, mask uint64, total int) int {
	np := bits.OnesCount64(p)
	if n := countLastFlips(p, x); n != 0 {
		return 2*(np+n+1) - total
	}
	// The opponent's discs are every square of the board but p's and x.
	no := total - np - 1
	if n := countLastFlips(mask&^p&^(1<<(x&63)), x); n != 0 {
		return total - 2*(no+n+1)
	}
	switch d := np - no; {
	case d > 0:
		return d + 1
	case d < 0:
		return d - 1
	}
	return 0
}
