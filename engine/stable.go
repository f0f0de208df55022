package engine

import "math/bits"

// lineStable[p8|o8<<8] is the number of p's discs minus o's discs on an
// 8-square line that no sequence of moves on that line can ever flip. On an
// edge a disc can only be flipped along the edge, so this is exactly the
// stability of edge discs.
var lineStable [1 << 16]int8

// lineStableTheirs[p8|o8<<8] is o's discs on the line that can never be
// flipped along it.
var lineStableTheirs [1 << 16]uint8

// colSpread[b] puts the bits of a byte gathered from column a (see
// gather) back on column a.
var colSpread [256]uint64

func initLineStable() {
	memo := make(map[uint16]uint8, 6561)
	var unstable func(p, o uint8) uint8
	unstable = func(p, o uint8) uint8 {
		key := uint16(p) | uint16(o)<<8
		if u, ok := memo[key]; ok {
			return u
		}
		var u uint8
		empty := ^(p | o)
		for x := 0; x < 8; x++ {
			if empty&(1<<x) == 0 {
				continue
			}
			// A disc of either colour may land here through another
			// direction, flipping whatever it flanks on this line.
			for side := 0; side < 2; side++ {
				me, them := p, o
				if side == 1 {
					me, them = o, p
				}
				f := lineFlips(x, me, them)
				nme, nthem := me|f|1<<x, them&^f
				if side == 1 {
					nme, nthem = nthem, nme
				}
				u |= f | unstable(nme, nthem)
			}
		}
		u &= p | o
		memo[key] = u
		return u
	}
	for m := 0; m < 256; m++ {
		var col uint64
		for i := 0; i < 8; i++ {
			if m&(1<<i) != 0 {
				col |= 1 << (8 * i)
			}
		}
		colSpread[(col*gather)>>56] = col
	}
	for p := 0; p < 256; p++ {
		for o := 0; o < 256; o++ {
			if p&o != 0 {
				continue
			}
			u := unstable(uint8(p), uint8(o))
			sp := bits.OnesCount8(uint8(p) &^ u)
			so := bits.OnesCount8(uint8(o) &^ u)
			lineStable[p|o<<8] = int8(sp - so)
			lineStableTheirs[p|o<<8] = uint8(o) &^ u
		}
	}
}

func lineFlips(x int, me, them uint8) uint8 {
	var f uint8
	for _, d := range []int{-1, 1} {
		var run uint8
		i := x + d
		for i >= 0 && i < 8 && them&(1<<i) != 0 {
			run |= 1 << i
			i += d
		}
		if i >= 0 && i < 8 && me&(1<<i) != 0 {
			f |= run
		}
	}
	return f
}

const (
	colA = 0x0101010101010101
	// gather multiplies a column's bits (one per byte) into the top byte.
	gather = 0x0102040810204080
)

// stableDiscs is a set of o's discs that can never be flipped (a lower
// bound of all of them, as engines compute it): the stable edge discs,
// then, growing from them, discs that in each of the four directions lie
// on a full line or next to a stable disc of their own. p can end with at
// most 64 minus twice their number.
func stableDiscs(p, o uint64) uint64 {
	stable := uint64(lineStableTheirs[p&0xff|(o&0xff)<<8]) |
		uint64(lineStableTheirs[p>>56|(o>>56)<<8])<<56 |
		colSpread[lineStableTheirs[((p&colA)*gather)>>56|(((o&colA)*gather)>>56)<<8]] |
		colSpread[lineStableTheirs[(((p>>7)&colA)*gather)>>56|((((o>>7)&colA)*gather)>>56)<<8]]<<7
	occ := p | o
	h, v, d9, d7 := fullLines(occ)
	stable |= h & v & d9 & d7 & o
	for {
		grown := stable | o&
			(h|(stable<<1)&notColA|(stable>>1)&notColH)&
			(v|stable<<8|stable>>8)&
			(d9|(stable<<9)&notColA|(stable>>9)&notColH)&
			(d7|(stable<<7)&notColH|(stable>>7)&notColA)
		if grown == stable {
			return stable
		}
		stable = grown
	}
}

const (
	notColA = 0xfefefefefefefefe
	notColH = 0x7f7f7f7f7f7f7f7f
)

// fullLines returns the squares whose row, column and two diagonals are
// full, without a branch: a row's bits ANDed down into its first, a
// column's likewise, and each diagonal by doubling — a square stays full
// towards one end if the square 1, 2, then 4 steps on is full too, or that
// step leaves the board (Edax's get_full_lines does the same).
func fullLines(occ uint64) (h, v, d9, d7 uint64) {
	r := occ & (occ >> 1)
	r &= r >> 2
	r &= r >> 4
	h = (r & colA) * 0xff
	c := occ & (occ >> 8)
	c &= c >> 16
	c &= c >> 32
	v = (c & 0xff) * colA
	up9, down9, up7, down7 := occ, occ, occ, occ
	for k, n := 0, 9; k < 3; k, n = k+1, 2*n {
		m := n / 9 * 7 // the same number of steps along the other diagonal
		up9 &= leaves[k][0] | up9>>n
		down9 &= leaves[k][1] | down9<<n
		up7 &= leaves[k][2] | up7>>m
		down7 &= leaves[k][3] | down7<<m
	}
	return h, v, up9 & down9, up7 & down7
}

// leaves[k] is, for a step of 2^k squares along each diagonal (towards h8,
// towards a1, towards a8, towards h1), the squares from which it leaves
// the board.
var leaves = func() (l [3][4]uint64) {
	for k := range l {
		d := 1 << k
		for x := 0; x < 64; x++ {
			c, r := x%8, x/8
			for i, dir := range [4][2]int{{1, 1}, {-1, -1}, {-1, 1}, {1, -1}} {
				if cc, rr := c+d*dir[0], r+d*dir[1]; cc < 0 || cc > 7 || rr < 0 || rr > 7 {
					l[k][i] |= 1 << x
				}
			}
		}
	}
	return l
}()

// edgeStability sums lineStable over the four edges of an 8x8 board.
func edgeStability(p, o uint64) int {
	s := int(lineStable[p&0xff|(o&0xff)<<8])
	s += int(lineStable[p>>56|(o>>56)<<8])
	s += int(lineStable[((p&colA)*gather)>>56|(((o&colA)*gather)>>56)<<8])
	s += int(lineStable[(((p>>7)&colA)*gather)>>56|((((o>>7)&colA)*gather)>>56)<<8])
	return s
}
