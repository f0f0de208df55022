//go:build !amd64 || purego

package bitboard

const hasAVX2 = false

func (t *Table) countReplies(p, o, moves uint64) uint64 { return t.countRepliesGo(p, o, moves) }
