package bitboard

import "math/bits"

// countRepliesGo is the last ply of perft counted in place: for each move
// in moves, the number of replies the opponent then has, or one (a pass
// into the last ply, or the end of the game). It is the portable version
// of countReplies and the reference its assembly is tested against.
func (t *Table) countRepliesGo(p, o, moves uint64) uint64 {
	var n uint64
	for moves != 0 {
		x := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := t.Flips(x, p, o)
		c := uint64(bits.OnesCount64(Moves(o^f, p^f|1<<x, t.Mask)))
		n += c + (c-1)>>63 // c, or 1 when c is 0
	}
	return n
}
