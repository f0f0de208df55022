package game

import "fmt"

// Ply is one turn of a game: a side and the square it played, or Pass.
type Ply struct {
	Color  Color
	Square Square
}

func (p Ply) String() string { return p.Color.Letter() + " " + p.Square.String() }

// Game is a position with its history. Passes are made automatically: after
// every move, a side with no legal move passes at once while the other can
// still move.
type Game struct {
	start Position
	pos   Position
	plies []Ply
}

// NewGame starts a game from the given position. If the side to move there
// has to pass, the pass is made at once.
func NewGame(start Position) *Game {
	g := &Game{start: start, pos: start}
	g.autoPass()
	return g
}

// Clone returns a copy that moves on independently of g.
func (g *Game) Clone() *Game {
	return &Game{start: g.start, pos: g.pos, plies: append([]Ply(nil), g.plies...)}
}

// Start returns the position the game began from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Plies returns every turn so far, passes included.
func (g *Game) Plies() []Ply { return append([]Ply(nil), g.plies...) }

// PlyCount is len(Plies()) without the copy: what a message's buttons, a
// stale click's check and the store's writes ask at every move.
func (g *Game) PlyCount() int { return len(g.plies) }

// MovesBy counts the moves a colour made, passes left out (without
// copying the plies: it is asked at every move).
func (g *Game) MovesBy(c Color) int {
	n := 0
	for _, p := range g.plies {
		if p.Color == c && !p.Square.IsPass() {
			n++
		}
	}
	return n
}

// Moves returns the squares played so far, without passes.
func (g *Game) Moves() []Square { return MovesOf(g.plies) }

// MovesOf returns the squares of plies, without the passes: what a
// transcript lists.
func MovesOf(plies []Ply) []Square {
	out := make([]Square, 0, len(plies))
	for _, p := range plies {
		if !p.Square.IsPass() {
			out = append(out, p.Square)
		}
	}
	return out
}

// Over reports whether neither side can move.
func (g *Game) Over() bool { return g.pos.GameOver() }

// Transcript returns the moves in the standard transcript notation.
func (g *Game) Transcript() string { return FormatTranscript(g.Moves(), g.pos.size) }

// Play makes a move for the side to move and returns the plies it led to:
// the move itself, then a pass if the opponent has no move left but the
// mover does. The game is unchanged if the move is refused.
func (g *Game) Play(sq Square) ([]Ply, error) {
	if g.pos.GameOver() {
		return nil, inputErr(ErrGameOver, "the game is over")
	}
	next, err := g.pos.Play(sq)
	if err != nil {
		return nil, err
	}
	first := len(g.plies)
	g.plies = append(g.plies, Ply{g.pos.turn, sq})
	g.pos = next
	g.autoPass()
	return append([]Ply(nil), g.plies[first:]...), nil
}

func (g *Game) autoPass() {
	if g.pos.MustPass() {
		g.plies = append(g.plies, Ply{g.pos.turn, Pass})
		g.pos = g.pos.Pass()
	}
}

// Replay plays moves from start and returns the game, or an error naming the
// first move that could not be played.
func Replay(start Position, moves []Square) (*Game, error) {
	g := NewGame(start)
	for i, m := range moves {
		if _, err := g.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	return g, nil
}

// ReplayPlies rebuilds a game from its stored plies, passes included, and
// checks that every ply was legal and every pass forced.
func ReplayPlies(start Position, plies []Ply) (*Game, error) {
	g := &Game{start: start, pos: start}
	for i, p := range plies {
		if p.Color != g.pos.turn {
			return nil, fmt.Errorf("ply %d: %s moved but it was %s's turn", i+1, p.Color, g.pos.turn)
		}
		if p.Square.IsPass() {
			if !g.pos.MustPass() {
				return nil, fmt.Errorf("ply %d: %s passed with a legal move or after the game ended", i+1, p.Color)
			}
			g.pos = g.pos.Pass()
		} else {
			next, err := g.pos.Play(p.Square)
			if err != nil {
				return nil, fmt.Errorf("ply %d: %w", i+1, err)
			}
			g.pos = next
		}
		g.plies = append(g.plies, p)
	}
	g.autoPass() // a game always stands where its side to move can move, or is over
	return g, nil
}
