// Package pattern is the trained evaluation of 8x8 positions, in the way
// of Logistello and Edax: the board is cut into patterns (edges with their
// X-squares, 3x3 and 2x5 corners, lines, diagonals), every configuration of
// a pattern has a weight per game stage, and all symmetric placements of a
// pattern share one table. Mobility and the empties within a stage add a
// few linear terms. The weights are fitted by cmd/train.
//
// Squares are bits of a uint64 as in game/bitboard: bit r*8+c is column c,
// row r. A square's digit in a pattern index is 0 empty, 1 the side to move,
// 2 the opponent.
package pattern

import "math/bits"

// Kind names a group of features sharing one weight table.
type Kind int

// The kinds, in the order of their tables within a stage.
const (
	Corner3x3 Kind = iota
	Corner2x5
	EdgeX
	Line2
	Line3
	Line4
	Diag8
	Diag7
	Diag6
	Diag5
	Diag4
	MobilityMe     // moves of the side to move (0..63)
	MobilityThem   // moves of the opponent
	EmptiesInStage // empties % StageWidth: parity and more
	numKinds
)

// Geometry of the tables.
const (
	// StageWidth is how many empty-square counts share a stage's weights.
	StageWidth = 4
	// Stages covers 0..63 empty squares.
	Stages = 64 / StageWidth
	// Features is how many table entries one position sums: 46 pattern
	// placements, two mobility counts and the stage position.
	Features = 46 + 3
)

// kindSize is each kind's table length: 3^squares for a pattern.
var kindSize = [numKinds]int{
	Corner3x3: 19683, Corner2x5: 59049, EdgeX: 59049,
	Line2: 6561, Line3: 6561, Line4: 6561,
	Diag8: 6561, Diag7: 2187, Diag6: 729, Diag5: 243, Diag4: 81,
	MobilityMe: 64, MobilityThem: 64, EmptiesInStage: StageWidth,
}

// Offset is where each kind's table starts within a stage; StageSize is a
// stage's whole length.
var (
	Offset    [numKinds]uint32
	StageSize int
)

// kindOf gives the kind of each of the Features slots, as Indices fills them.
var kindOf [Features]Kind

var (
	tern  [256]uint32 // byte -> base-3 number with the same digits (bit i -> 3^i)
	rtern [256]uint32 // the same with the bit order reversed (bit 7 -> 3^0)
	diag  [5][4]uint64
	shift [5][4]uint8
)

func init() {
	n := uint32(0)
	for k := Kind(0); k < numKinds; k++ {
		Offset[k] = n
		n += uint32(kindSize[k])
	}
	StageSize = int(n)
	for b := 0; b < 256; b++ {
		t, p := uint32(0), uint32(1)
		for i := 0; i < 8; i++ {
			if b>>i&1 != 0 {
				t += p
			}
			p *= 3
		}
		tern[b] = t
		rtern[bits.Reverse8(uint8(b))] = t
	}
	// Diagonals of length 8-k: two with r-c = -k and k, two with
	// r+c = 7-k and 7+k. Each has one square per row and column, so a
	// multiplication gathers it into one byte in column order.
	for k := 0; k < 5; k++ {
		for r := 0; r < 8; r++ {
			for c := 0; c < 8; c++ {
				bit := uint64(1) << (r*8 + c)
				if c-r == k {
					diag[k][0] |= bit
				}
				if r-c == k {
					diag[k][1] |= bit
				}
				if r+c == 7-k {
					diag[k][2] |= bit
				}
				if r+c == 7+k {
					diag[k][3] |= bit
				}
			}
		}
		shift[k] = [4]uint8{uint8(56 + k), 56, 56, uint8(56 + k)}
	}
	kinds := []struct {
		k Kind
		n int
	}{
		{Corner3x3, 4}, {Corner2x5, 8}, {EdgeX, 4}, {Line2, 4}, {Line3, 4}, {Line4, 4},
		{Diag8, 2}, {Diag7, 4}, {Diag6, 4}, {Diag5, 4}, {Diag4, 4},
		{MobilityMe, 1}, {MobilityThem, 1}, {EmptiesInStage, 1},
	}
	i := 0
	for _, k := range kinds {
		for j := 0; j < k.n; j++ {
			kindOf[i] = k.k
			i++
		}
	}
	initCanonical()
}

// KindOf is the kind of feature slot i.
func KindOf(i int) Kind { return kindOf[i] }

// Stage is the stage of a position with the given number of empty squares.
func Stage(empties int) int { return empties / StageWidth }

// transpose mirrors a board in the a1-h8 diagonal.
func transpose(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00aa00aa00aa00aa
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000cccc0000cccc
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000f0f0f0f0
	return x ^ t ^ t<<28
}

// row is the squares of row r picked by mask m (of the transposed boards: a
// column) as a base-3 number, the a-side square first; rev starts from the
// h-side.
func row(p, o uint64, r uint, m uint64) uint32 {
	return tern[p>>(8*r)&m] + 2*tern[o>>(8*r)&m]
}

func rev(p, o uint64, r uint, m uint64) uint32 {
	return rtern[p>>(8*r)&m] + 2*rtern[o>>(8*r)&m]
}

func cell(p, o uint64, sq uint) uint32 {
	return uint32(p>>sq&1) + 2*uint32(o>>sq&1)
}

// Indices writes the table index of every feature of the position with p
// to move, mp and mo being the two sides' move counts. Each index includes
// its kind's offset, so a stage's value is the sum of its table at them.
func Indices(p, o uint64, mp, mo, empties int, f *[Features]uint32) {
	pt, ot := transpose(p), transpose(o)
	// 3x3 corners: digit 3r+c is the square r rows and c columns in from the corner.
	f[0] = Offset[Corner3x3] + row(p, o, 0, 7) + 27*row(p, o, 1, 7) + 729*row(p, o, 2, 7)
	f[1] = Offset[Corner3x3] + rev(p, o, 0, 0xe0) + 27*rev(p, o, 1, 0xe0) + 729*rev(p, o, 2, 0xe0)
	f[2] = Offset[Corner3x3] + row(p, o, 7, 7) + 27*row(p, o, 6, 7) + 729*row(p, o, 5, 7)
	f[3] = Offset[Corner3x3] + rev(p, o, 7, 0xe0) + 27*rev(p, o, 6, 0xe0) + 729*rev(p, o, 5, 0xe0)
	// 2x5 corners along the rows, then along the columns.
	f[4] = Offset[Corner2x5] + row(p, o, 0, 0x1f) + 243*row(p, o, 1, 0x1f)
	f[5] = Offset[Corner2x5] + rev(p, o, 0, 0xf8) + 243*rev(p, o, 1, 0xf8)
	f[6] = Offset[Corner2x5] + row(p, o, 7, 0x1f) + 243*row(p, o, 6, 0x1f)
	f[7] = Offset[Corner2x5] + rev(p, o, 7, 0xf8) + 243*rev(p, o, 6, 0xf8)
	f[8] = Offset[Corner2x5] + row(pt, ot, 0, 0x1f) + 243*row(pt, ot, 1, 0x1f)
	f[9] = Offset[Corner2x5] + rev(pt, ot, 0, 0xf8) + 243*rev(pt, ot, 1, 0xf8)
	f[10] = Offset[Corner2x5] + row(pt, ot, 7, 0x1f) + 243*row(pt, ot, 6, 0x1f)
	f[11] = Offset[Corner2x5] + rev(pt, ot, 7, 0xf8) + 243*rev(pt, ot, 6, 0xf8)
	// Edges with the two X-squares next to their corners (digits 8 and 9).
	const b2, g2, b7, g7 = 9, 14, 49, 54
	f[12] = Offset[EdgeX] + row(p, o, 0, 0xff) + 6561*(cell(p, o, b2)+3*cell(p, o, g2))
	f[13] = Offset[EdgeX] + row(p, o, 7, 0xff) + 6561*(cell(p, o, b7)+3*cell(p, o, g7))
	f[14] = Offset[EdgeX] + row(pt, ot, 0, 0xff) + 6561*(cell(p, o, b2)+3*cell(p, o, b7))
	f[15] = Offset[EdgeX] + row(pt, ot, 7, 0xff) + 6561*(cell(p, o, g2)+3*cell(p, o, g7))
	// Lines 2, 3 and 4 from each edge.
	for k := uint(0); k < 3; k++ {
		off := Offset[Line2+Kind(k)]
		i := 16 + 4*k
		f[i] = off + row(p, o, 1+k, 0xff)
		f[i+1] = off + row(p, o, 6-k, 0xff)
		f[i+2] = off + row(pt, ot, 1+k, 0xff)
		f[i+3] = off + row(pt, ot, 6-k, 0xff)
	}
	// Diagonals, gathered into a byte each.
	const spread = 0x0101010101010101
	f[28] = Offset[Diag8] + tern[(p&diag[0][0])*spread>>56] + 2*tern[(o&diag[0][0])*spread>>56]
	f[29] = Offset[Diag8] + tern[(p&diag[0][2])*spread>>56] + 2*tern[(o&diag[0][2])*spread>>56]
	i := 30
	for k := 1; k < 5; k++ {
		off := Offset[Diag8+Kind(k)]
		for j := 0; j < 4; j++ {
			m, s := diag[k][j], shift[k][j]
			f[i] = off + tern[(p&m)*spread>>s] + 2*tern[(o&m)*spread>>s]
			i++
		}
	}
	f[46] = Offset[MobilityMe] + uint32(mp&63)
	f[47] = Offset[MobilityThem] + uint32(mo&63)
	f[48] = Offset[EmptiesInStage] + uint32(empties%StageWidth)
}
