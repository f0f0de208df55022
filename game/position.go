package game

import (
	"fmt"
	"math/bits"
	"slices"

	"othello-bot/game/bitboard"
)

// Position is a board and the side to move. It is a value: Play returns a
// new Position and leaves the receiver as it was. The zero value is not a
// position; make one with NewPosition or one of the parsers.
type Position struct {
	size int
	turn Color
	// Boards of size <= 8 keep their discs here ...
	black, white uint64
	// ... and larger ones on this grid, row by row. A grid is never changed
	// once a Position holds it, so copies of a Position may share it.
	cells []Color
}

// NewPosition returns the start position on a board of the given size:
// the four centre squares filled, white on the top-left and bottom-right of
// them, black to move.
func NewPosition(size int) (Position, error) {
	if err := CheckSize(size); err != nil {
		return Position{}, err
	}
	cells := make([]Color, size*size)
	h := size / 2
	cells[(h-1)*size+h-1] = White
	cells[h*size+h] = White
	cells[(h-1)*size+h] = Black
	cells[h*size+h-1] = Black
	return FromCells(size, cells, Black)
}

// FromCells builds a position from size*size colours, row by row from a1.
func FromCells(size int, cells []Color, toMove Color) (Position, error) {
	if err := CheckSize(size); err != nil {
		return Position{}, err
	}
	if len(cells) != size*size {
		return Position{}, fmt.Errorf("a %dx%d board needs %d cells, got %d", size, size, size*size, len(cells))
	}
	if toMove != Black && toMove != White {
		return Position{}, fmt.Errorf("the side to move must be black or white")
	}
	p := Position{size: size, turn: toMove}
	if size > 8 {
		p.cells = make([]Color, len(cells))
	}
	for i, c := range cells {
		if c != Empty && c != Black && c != White {
			return Position{}, fmt.Errorf("cell %d holds an unknown value %d", i, c)
		}
		if p.cells != nil {
			p.cells[i] = c
			continue
		}
		bit := uint64(1) << ((i/size)*8 + i%size)
		switch c {
		case Black:
			p.black |= bit
		case White:
			p.white |= bit
		}
	}
	return p, nil
}

// Size returns the board's width (and height).
func (p Position) Size() int { return p.size }

// ToMove returns the side whose turn it is.
func (p Position) ToMove() Color { return p.turn }

// Bitboards returns the discs of black and white as bitboards (bit
// row*8+col) and true, for boards of size 8 or less. The engine uses it to
// search small boards fast.
func (p Position) Bitboards() (black, white uint64, ok bool) {
	return p.black, p.white, p.cells == nil
}

// At returns what is on a square; squares off the board are Empty.
func (p Position) At(sq Square) Color {
	if !sq.On(p.size) {
		return Empty
	}
	if p.cells != nil {
		return p.cells[sq.Row*p.size+sq.Col]
	}
	bit := uint64(1) << (sq.Row*8 + sq.Col)
	switch {
	case p.black&bit != 0:
		return Black
	case p.white&bit != 0:
		return White
	}
	return Empty
}

// Cells returns the board row by row from a1, a fresh slice.
func (p Position) Cells() []Color {
	out := make([]Color, p.size*p.size)
	for r := 0; r < p.size; r++ {
		for c := 0; c < p.size; c++ {
			out[r*p.size+c] = p.At(Square{c, r})
		}
	}
	return out
}

// Count returns the number of discs of each colour.
func (p Position) Count() (black, white int) {
	if p.cells == nil {
		return bits.OnesCount64(p.black), bits.OnesCount64(p.white)
	}
	for _, c := range p.cells {
		switch c {
		case Black:
			black++
		case White:
			white++
		}
	}
	return black, white
}

// Empties returns the number of empty squares.
func (p Position) Empties() int {
	b, w := p.Count()
	return p.size*p.size - b - w
}

// Equal reports whether two positions have the same size, discs and side to
// move, whichever representation each uses.
func (p Position) Equal(q Position) bool {
	if p.size != q.size || p.turn != q.turn {
		return false
	}
	for r := 0; r < p.size; r++ {
		for c := 0; c < p.size; c++ {
			if p.At(Square{c, r}) != q.At(Square{c, r}) {
				return false
			}
		}
	}
	return true
}

func (p Position) own() (mine, theirs uint64) {
	if p.turn == Black {
		return p.black, p.white
	}
	return p.white, p.black
}

// LegalMoves returns the squares the side to move may play, row by row.
func (p Position) LegalMoves() []Square {
	return p.movesOf(p.turn)
}

func (p Position) movesOf(side Color) []Square {
	var out []Square
	if p.cells == nil {
		mine, theirs := p.black, p.white
		if side == White {
			mine, theirs = theirs, mine
		}
		for m := bitboard.Moves(mine, theirs, bitboard.For(p.size).Mask); m != 0; m &= m - 1 {
			x := bits.TrailingZeros64(m)
			out = append(out, Square{x % 8, x / 8})
		}
		return out
	}
	for i, c := range p.cells {
		if c == Empty && p.gridFlips(i, side, nil) > 0 {
			out = append(out, Square{i % p.size, i / p.size})
		}
	}
	return out
}

// hasMoves reports whether side has any legal move.
func (p Position) hasMoves(side Color) bool {
	if p.cells == nil {
		mine, theirs := p.black, p.white
		if side == White {
			mine, theirs = theirs, mine
		}
		return bitboard.Moves(mine, theirs, bitboard.For(p.size).Mask) != 0
	}
	for i, c := range p.cells {
		if c == Empty && p.gridFlips(i, side, nil) > 0 {
			return true
		}
	}
	return false
}

// HasMoves reports whether the side to move has a legal move.
func (p Position) HasMoves() bool { return p.hasMoves(p.turn) }

// MustPass reports whether the side to move has no move while the other
// side has one: the only thing to do is pass.
func (p Position) MustPass() bool {
	return !p.hasMoves(p.turn) && p.hasMoves(p.turn.Opponent())
}

// GameOver reports whether neither side can move (a full board included).
func (p Position) GameOver() bool {
	return !p.hasMoves(p.turn) && !p.hasMoves(p.turn.Opponent())
}

// Winner returns the side with more discs, or Empty for a draw. It is only
// meaningful once the game is over.
func (p Position) Winner() Color {
	b, w := p.Count()
	switch {
	case b > w:
		return Black
	case w > b:
		return White
	}
	return Empty
}

// Check says why the side to move may not play sq, or returns nil.
func (p Position) Check(sq Square) error {
	if !sq.On(p.size) {
		return inputErr(ErrOffBoard, "%s is off the %dx%d board", sq, p.size, p.size)
	}
	if p.At(sq) != Empty {
		return inputErr(ErrTaken, "%s is taken", sq)
	}
	if p.flipCount(sq) == 0 {
		return inputErr(ErrNoFlips, "%s flips nothing", sq)
	}
	return nil
}

// flipCount returns how many discs a move at an empty, on-board sq flips.
func (p Position) flipCount(sq Square) int {
	if p.cells == nil {
		mine, theirs := p.own()
		return bits.OnesCount64(bitboard.For(p.size).Flips(sq.Row*8+sq.Col, mine, theirs))
	}
	return p.gridFlips(sq.Row*p.size+sq.Col, p.turn, nil)
}

// Flips returns the discs a move by the side to move at sq would turn over,
// or nil if the move is not legal.
func (p Position) Flips(sq Square) []Square {
	if !sq.On(p.size) || p.At(sq) != Empty {
		return nil
	}
	var out []Square
	if p.cells == nil {
		mine, theirs := p.own()
		for f := bitboard.For(p.size).Flips(sq.Row*8+sq.Col, mine, theirs); f != 0; f &= f - 1 {
			x := bits.TrailingZeros64(f)
			out = append(out, Square{x % 8, x / 8})
		}
		return out
	}
	var idx []int
	p.gridFlips(sq.Row*p.size+sq.Col, p.turn, func(i int) { idx = append(idx, i) })
	slices.Sort(idx) // row by row, like the bitboards
	for _, i := range idx {
		out = append(out, Square{i % p.size, i / p.size})
	}
	return out
}

// Play returns the position after the side to move plays sq. The turn
// passes to the opponent even if the opponent then has no move; Game handles
// passes automatically.
func (p Position) Play(sq Square) (Position, error) {
	if err := p.Check(sq); err != nil {
		return p, err
	}
	q := p
	q.turn = p.turn.Opponent()
	if p.cells == nil {
		x := sq.Row*8 + sq.Col
		mine, theirs := p.own()
		f := bitboard.For(p.size).Flips(x, mine, theirs)
		mine |= f | 1<<x
		theirs &^= f
		if p.turn == Black {
			q.black, q.white = mine, theirs
		} else {
			q.black, q.white = theirs, mine
		}
		return q, nil
	}
	q.cells = append([]Color(nil), p.cells...)
	i := sq.Row*p.size + sq.Col
	q.cells[i] = p.turn
	p.gridFlips(i, p.turn, func(j int) { q.cells[j] = p.turn })
	return q, nil
}

// Pass returns the position with the turn handed to the opponent.
func (p Position) Pass() Position {
	p.turn = p.turn.Opponent()
	return p
}

// gridFlips counts the discs a move by side at cell i would flip on the grid,
// calling fn (if not nil) for each. Cell i must be empty.
func (p Position) gridFlips(i int, side Color, fn func(int)) int {
	n, opp := p.size, side.Opponent()
	c0, r0 := i%n, i/n
	total := 0
	for _, d := range bitboard.Dirs {
		c, r, run := c0+d[0], r0+d[1], 0
		for c >= 0 && c < n && r >= 0 && r < n && p.cells[r*n+c] == opp {
			c, r, run = c+d[0], r+d[1], run+1
		}
		if run == 0 || c < 0 || c >= n || r < 0 || r >= n || p.cells[r*n+c] != side {
			continue
		}
		total += run
		if fn != nil {
			for k := 1; k <= run; k++ {
				fn((r0+k*d[1])*n + c0 + k*d[0])
			}
		}
	}
	return total
}

// toGrid returns the same position kept on the generic grid, whatever its
// size. Tests use it to check the bitboards against the plain rules.
func (p Position) toGrid() Position {
	q := p
	q.cells = p.Cells()
	q.black, q.white = 0, 0
	return q
}
