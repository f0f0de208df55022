//go:build !purego

package bitboard

import "golang.org/x/sys/cpu"

// hasAVX2 says whether countRepliesAVX2 may run: it uses AVX2 for the move
// generator and BMI1/BMI2/LZCNT/POPCNT for the flips. Each is checked on its
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
