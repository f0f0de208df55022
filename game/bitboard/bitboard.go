// Package bitboard holds the fast Othello primitives for boards that fit in
// 64 squares: move generation, flips and perft on a pair of uint64s.
//
// Bit i is the square at column i%8, row i/8, so a1 is bit 0, h1 bit 7 and
// a2 bit 8. Boards of size 4 and 6 live in the top-left corner and the
// squares outside them stay empty, which is enough for the shift-based move
// generator to respect their edges.
package bitboard

import "math/bits"

const (
	notColA   = 0xfefefefefefefefe
	notColH   = 0x7f7f7f7f7f7f7f7f
	notColsAH = notColA & notColH
)

// Table holds, for one board size, the on-board mask and the rays from every
// square in each of the 8 directions (excluding the square itself). Rays 0-3
// run towards higher bits, rays 4-7 towards lower bits.
type Table struct {
	Size int
	Mask uint64
	rays [64][8]uint64
}

var tables [3]Table // sizes 4, 6, 8

// Dirs lists the 8 directions as (dcol, drow), in the order of the rays.
var Dirs = [8][2]int{
	{1, 0}, {-1, 1}, {0, 1}, {1, 1}, // +1, +7, +8, +9
	{-1, 0}, {1, -1}, {0, -1}, {-1, -1}, // -1, -7, -8, -9
}

func init() {
	for i := range tables {
		size := 4 + 2*i
		t := &tables[i]
		t.Size = size
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				t.Mask |= 1 << (r*8 + c)
				for d, dir := range Dirs {
					var ray uint64
					for cc, rr := c+dir[0], r+dir[1]; cc >= 0 && cc < size && rr >= 0 && rr < size; cc, rr = cc+dir[0], rr+dir[1] {
						ray |= 1 << (rr*8 + cc)
					}
					t.rays[r*8+c][d] = ray
				}
			}
		}
	}
}

// For returns the table of a board size of 4, 6 or 8, or nil.
func For(size int) *Table {
	if size != 4 && size != 6 && size != 8 {
		return nil
	}
	return &tables[size/2-2]
}

// movesGo is Moves in portable code: each direction fills runs of o-discs
// from p with doubling shifts (two steps of one, then two of two), the way
// Edax's portable get_moves does. Moves (replies_*.go) runs it, or the
// assembly where the CPU has AVX2. The four directions are written out
// rather than calling a helper, which would be too large to inline.
func movesGo(p, o, mask uint64) uint64 {
	h := o & notColsAH

	l1 := h & (p << 1)
	r1 := h & (p >> 1)
	l1 |= h & (l1 << 1)
	r1 |= h & (r1 >> 1)
	h1 := h & (h << 1)
	l1 |= h1 & (l1 << 2)
	r1 |= (h1 >> 1) & (r1 >> 2)
	l1 |= h1 & (l1 << 2)
	r1 |= (h1 >> 1) & (r1 >> 2)

	l8 := o & (p << 8)
	r8 := o & (p >> 8)
	l8 |= o & (l8 << 8)
	r8 |= o & (r8 >> 8)
	o8 := o & (o << 8)
	l8 |= o8 & (l8 << 16)
	r8 |= (o8 >> 8) & (r8 >> 16)
	l8 |= o8 & (l8 << 16)
	r8 |= (o8 >> 8) & (r8 >> 16)

	l7 := h & (p << 7)
	r7 := h & (p >> 7)
	l7 |= h & (l7 << 7)
	r7 |= h & (r7 >> 7)
	h7 := h & (h << 7)
	l7 |= h7 & (l7 << 14)
	r7 |= (h7 >> 7) & (r7 >> 14)
	l7 |= h7 & (l7 << 14)
	r7 |= (h7 >> 7) & (r7 >> 14)

	l9 := h & (p << 9)
	r9 := h & (p >> 9)
	l9 |= h & (l9 << 9)
	r9 |= h & (r9 >> 9)
	h9 := h & (h << 9)
	l9 |= h9 & (l9 << 18)
	r9 |= (h9 >> 9) & (r9 >> 18)
	l9 |= h9 & (l9 << 18)
	r9 |= (h9 >> 9) & (r9 >> 18)

	m := l1<<1 | r1>>1 | l8<<8 | r8>>8 | l7<<7 | r7>>7 | l9<<9 | r9>>9
	return m &^ (p | o) & mask
}

// flipsGo is the portable Flips along the square's eight rays.
func flipsGo(r *[8]uint64, p, o uint64) uint64 {
	return flipUp(p, o, r[0]) | flipUp(p, o, r[1]) | flipUp(p, o, r[2]) | flipUp(p, o, r[3]) |
		flipDown(p, o, r[4]) | flipDown(p, o, r[5]) | flipDown(p, o, r[6]) | flipDown(p, o, r[7])
}

// flipUp handles a ray towards higher bits: the first square on it that is
// not o's is its lowest such bit; if p owns it, everything before it flips.
func flipUp(p, o, ray uint64) uint64 {
	end := ray &^ o
	end &= -end
	return (end - 1) & ray & owned(end&p)
}

// owned is all ones when x is not zero, else zero: a branch-free test (the
// branches it replaces go either way about as often, and mispredict).
func owned(x uint64) uint64 { return -((x | -x) >> 63) }

// flipDown handles a ray towards lower bits, where the first square that is
// not o's is the highest such bit.
func flipDown(p, o, ray uint64) uint64 {
	// The highest set bit of ray&^o; the |1 keeps the shift below 64 when
	// the ray is all o, and that stray bit 0 is masked off by ray&^o.
	blockers := ray &^ o
	end := uint64(1<<63) >> (bits.LeadingZeros64(blockers|1) & 63) & blockers
	return ray & -(end << 1) & owned(end&p)
}

// Perft counts the leaves depth plies below p-to-move: a pass takes a ply
// and a finished game is one leaf however shallow (Aart Bik's convention).
func (t *Table) Perft(p, o uint64, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	moves := Moves(p, o, t.Mask)
	if moves == 0 {
		if Moves(o, p, t.Mask) == 0 || depth == 1 {
			return 1 // game over, or a pass into the last ply
		}
		return t.Perft(o, p, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	if depth == 2 {
		return t.countReplies(p, o, moves)
	}
	var n uint64
	for moves != 0 {
		x := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := t.Flips(x, p, o)
		n += t.Perft(o^f, p^f|1<<x, depth-1)
	}
	return n
}
