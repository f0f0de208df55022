//go:build !amd64 || purego

package bitboard

const hasAVX2 = false

func (t *Table) countReplies(p, o, moves uint64) uint64 { return t.countRepliesGo(p, o, moves) }

// Flips returns the discs of o that a move by p at bit x turns over.
func (t *Table) Flips(x int, p, o uint64) uint64 { return flipsGo(&t.rays[x&63], p, o) }

// Moves returns the squares where the side owning p may move against o on
// the board given by mask.
func Moves(p, o, mask uint64) uint64 { return movesGo(p, o, mask) }
