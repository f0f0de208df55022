package engine

import "math/bits"

// lineStable[p8|o8<<8] is the number of p's discs minus o's discs on an
// 8-square line that no sequence of moves on that line can ever flip. On an
// edge a disc can only be flipped along the edge, so this is exactly the
// stability of edge discs.
var lineStable [1 << 16]int8

// lineStableTheirs[p8|o8<<8] counts o's discs on the line that can never
// be flipped along it.
var lineStableTheirs [1 << 16]uint8

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
	for p := 0; p < 256; p++ {
		for o := 0; o < 256; o++ {
			if p&o != 0 {
				continue
			}
			u := unstable(uint8(p), uint8(o))
			sp := bits.OnesCount8(uint8(p) &^ u)
			so := bits.OnesCount8(uint8(o) &^ u)
			lineStable[p|o<<8] = int8(sp - so)
			lineStableTheirs[p|o<<8] = uint8(so)
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

// stableEdgeDiscs counts o's edge discs that can never be flipped: a lower
// bound of o's stable discs, so p can end with at most 64 minus twice it.
func stableEdgeDiscs(p, o uint64) int {
	s := int(lineStableTheirs[p&0xff|(o&0xff)<<8])
	s += int(lineStableTheirs[p>>56|(o>>56)<<8])
	s += int(lineStableTheirs[((p&colA)*gather)>>56|(((o&colA)*gather)>>56)<<8])
	s += int(lineStableTheirs[(((p>>7)&colA)*gather)>>56|((((o>>7)&colA)*gather)>>56)<<8])
	return s - bits.OnesCount64(o&cornerSquares) // each corner is on two edges
}

const cornerSquares = 0x8100000000000081

// edgeStability sums lineStable over the four edges of an 8x8 board.
func edgeStability(p, o uint64) int {
	s := int(lineStable[p&0xff|(o&0xff)<<8])
	s += int(lineStable[p>>56|(o>>56)<<8])
	s += int(lineStable[((p&colA)*gather)>>56|(((o&colA)*gather)>>56)<<8])
	s += int(lineStable[(((p>>7)&colA)*gather)>>56|((((o>>7)&colA)*gather)>>56)<<8])
	return s
}
