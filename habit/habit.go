// Package habit counts how people open on 8x8: for each position of the
// first moves, how often each move was played from it, over finished games
// (the players' moves only, not the bot's) and the named opening lines. The
// engine's erring levels draw their opening moves from these counts, so a
// beginner opens the way beginners here do, not uniformly at random
// (Egaroucid's human opening statistics are the idea). Positions are
// counted once under the board's eight symmetries.
package habit

import (
	"othello-bot/game"
	"othello-bot/game/bitboard"
)

// Plies is how far into a game moves are counted.
const Plies = 14

// Table is the counts. It is built once and then only read: a new table
// replaces an old one whole (Engine.SetHabits), so reads need no lock.
type Table struct {
	moves map[key]map[int]int // in the canonical image's frame
	games int
}

type key struct {
	black, white uint64
	toMove       game.Color
}

// New returns an empty table.
func New() *Table { return &Table{moves: map[key]map[int]int{}} }

// Add counts a game from the standard start: its first Plies moves, each
// where person(ply, colour) says a person played it, weight times. It
// stops at the first pass or a move that is not legal (a game from another
// start).
func (t *Table) Add(moves []game.Square, person func(ply int, c game.Color) bool, weight int) {
	pos, _ := game.NewPosition(8)
	t.games++
	for i, m := range moves {
		if i >= Plies || m.IsPass() || pos.Check(m) != nil {
			return
		}
		if person(i, pos.ToMove()) {
			k, s := canonical(pos)
			if t.moves[k] == nil {
				t.moves[k] = map[int]int{}
			}
			t.moves[k][bitboard.TransformSquare(m.Row*8+m.Col, s)] += weight
		}
		next, err := pos.Play(m)
		if err != nil {
			return
		}
		pos = next
	}
}

// Moves are the counts of the moves played from p (nil when nobody has
// played from it, or p is not 8x8).
func (t *Table) Moves(p game.Position) map[game.Square]int {
	if t == nil || p.Size() != 8 {
		return nil
	}
	k, s := canonical(p)
	seen := t.moves[k]
	if len(seen) == 0 {
		return nil
	}
	out := make(map[game.Square]int, len(seen))
	back := inverse[s]
	for x, n := range seen {
		y := bitboard.TransformSquare(x, back)
		out[game.Square{Col: y % 8, Row: y / 8}] += n
	}
	return out
}

// Positions is how many positions have counts; Games how many games were
// added.
func (t *Table) Positions() int { return len(t.moves) }
func (t *Table) Games() int     { return t.games }

// canonical is the least of a position's eight images and the symmetry
// that makes it.
func canonical(p game.Position) (key, int) {
	black, white, _ := p.Bitboards()
	best, bestS := key{black, white, p.ToMove()}, 0
	for s := 1; s < 8; s++ {
		k := key{bitboard.Transform(black, s), bitboard.Transform(white, s), p.ToMove()}
		if k.black < best.black || (k.black == best.black && k.white < best.white) {
			best, bestS = k, s
		}
	}
	return best, bestS
}

// inverse[s] undoes symmetry s.
var inverse = func() [8]int {
	var inv [8]int
	for s := range 8 {
		for r := range 8 {
			ok := true
			for x := range 64 {
				if bitboard.TransformSquare(bitboard.TransformSquare(x, s), r) != x {
					ok = false
					break
				}
			}
			if ok {
				inv[s] = r
				break
			}
		}
	}
	return inv
}()

// Game is a finished game from the standard start as the counts take it:
// its moves, and whether each colour was a person.
type Game struct {
	Moves        []game.Square
	Black, White bool
}

// AddGame counts a game's people's moves once.
func (t *Table) AddGame(g Game) {
	t.Add(g.Moves, func(_ int, c game.Color) bool { return c == game.Black && g.Black || c == game.White && g.White }, 1)
}
