//go:build !purego

package bitboard

import "golang.org/x/sys/cpu"

// hasAVX2 says whether the assembly may take its fast paths: they use AVX2
// for the move generator and Flips, BMI1/BMI2/LZCNT/POPCNT for perft's
// flips. Each is checked on its
// own: a virtual machine may hide one, and without LZCNT its encoding runs
// as BSR, which would count wrong rather than fail.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasLZCNT && cpu.X86.HasPOPCNT

// countRepliesAVX2 is countRepliesGo in assembly: the flips with scalar
// bit-manipulation instructions, the opponent's moves in the four
// directions at once in one 256-bit register (the way Edax's
// get_moves_avx2 does), the whole loop without a call per move.
//
//go:noescape
func countRepliesAVX2(rays *[64][8]uint64, p, o, moves, mask uint64) uint64

func (t *Table) countReplies(p, o, moves uint64) uint64 {
	if hasAVX2 {
		return countRepliesAVX2(&t.rays, p, o, moves, t.Mask)
	}
	return t.countRepliesGo(p, o, moves)
}

// Flips returns the discs of o that a move by p at bit x turns over. It is
// assembly (AVX2, eight directions in two registers: about 4% less CPU
// for the whole exact solver than the scalar BMI version) behind a call
// small enough to inline.
func (t *Table) Flips(x int, p, o uint64) uint64 {
	return flips(&t.rays[x&63], p, o) // x is a square: the mask only spares the bounds check
}

// Moves returns the squares where the side owning p may move against o on
// the board given by mask: with AVX2, the four directions side by side in
// assembly (2.4 times as fast as movesGo).
func Moves(p, o, mask uint64) uint64 { return moves(p, o, mask) }

// flips and moves check hasAVX2 themselves and otherwise go on in flipsGo
// and movesGo.
//
//go:noescape
func flips(ray *[8]uint64, p, o uint64) uint64

//go:noescape
func moves(p, o, mask uint64) uint64
