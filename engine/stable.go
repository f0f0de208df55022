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
// full.
func fullLines(occ uint64) (h, v, d9, d7 uint64) {
	for _, m := range rowMasks {
		if occ&m == m {
			h |= m
		}
	}
	c := occ & (occ >> 8)
	c &= c >> 16
	c &= c >> 32
	v = (c & 0xff) * colA
	for _, m := range diag9Masks {
		if occ&m == m {
			d9 |= m
		}
	}
	for _, m := range diag7Masks {
		if occ&m == m {
			d7 |= m
		}
	}
	return h, v, d9, d7
}

var rowMasks, diag9Masks, diag7Masks = lineMasks()

// lineMasks lists the rows and the diagonals of both kinds of an 8x8
// board.
func lineMasks() (rows [8]uint64, d9, d7 [15]uint64) {
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			bit := uint64(1) << (r*8 + c)
			rows[r] |= bit
			d9[c-r+7] |= bit
			d7[c+r] |= bit
		}
	}
	return rows, d9, d7
}

// edgeStability sums lineStable over the four edges of an 8x8 board.
func edgeStability(p, o uint64) int {
	s := int(lineStable[p&0xff|(o&0xff)<<8])
	s += int(lineStable[p>>56|(o>>56)<<8])
	s += int(lineStable[((p&colA)*gather)>>56|(((o&colA)*gather)>>56)<<8])
	s += int(lineStable[(((p>>7)&colA)*gather)>>56|((((o>>7)&colA)*gather)>>56)<<8])
	return s
}
