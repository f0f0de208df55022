package game

import "othello-bot/game/bitboard"

// Perft counts the leaves of the game tree depth plies below p. A pass takes
// one ply, and a position where neither side can move counts as one leaf
// even when it is shallower than depth: the convention of Aart Bik's
// published table. Depth 0 is the position itself.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.cells == nil {
		mine, theirs := p.own()
		return bitboard.For(p.size).Perft(mine, theirs, depth)
	}
	return perftGrid(p, depth)
}

// perftGrid is the same count done with the plain rules on the grid.
func perftGrid(p Position, depth int) uint64 {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if !p.hasMoves(p.turn.Opponent()) || depth == 1 {
			return 1
		}
		return perftGrid(p.Pass(), depth-1)
	}
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		q, err := p.Play(m)
		if err != nil {
			panic("game: generated move refused: " + err.Error())
		}
		n += perftGrid(q, depth-1)
	}
	return n
}
