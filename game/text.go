package game

import (
	"fmt"
	"math"
	"strings"
)

// ASCII draws the board the classic terminal way: letter columns, numbered
// rows, X for black and O for white, each cell boxed.
//
//	    A   B   C   D
//	  +---+---+---+---+
//	1 |   |   |   |   |
//	  +---+---+---+---+
func (p Position) ASCII() string {
	n := p.size
	var b strings.Builder
	b.WriteString("   ")
	for c := 0; c < n; c++ {
		b.WriteString("  ")
		b.WriteByte(byte('A' + c))
		if c < n-1 {
			b.WriteByte(' ')
		}
	}
	b.WriteString("\n")
	sep := "   +" + strings.Repeat("---+", n) + "\n"
	b.WriteString(sep)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%2d |", r+1)
		for c := 0; c < n; c++ {
			b.WriteString(" " + p.At(Square{c, r}).Letter() + " |")
		}
		b.WriteString("\n")
		b.WriteString(sep)
	}
	return b.String()
}

// ParseCellList reads a board given as a row-by-row list of cells, each " "
// (empty), "X" (black) or "O" (white). Its length must be the square of an
// even size from 4 to 26.
func ParseCellList(list []string, toMove Color) (Position, error) {
	n := int(math.Sqrt(float64(len(list))))
	for n*n < len(list) {
		n++
	}
	if n*n != len(list) || !ValidSize(n) {
		return Position{}, fmt.Errorf("a board of %d cells is not square with an even side from %d to %d (16, 36, 64, … cells)", len(list), MinSize, MaxSize)
	}
	cells := make([]Color, len(list))
	for i, v := range list {
		switch v {
		case " ":
			cells[i] = Empty
		case "X":
			cells[i] = Black
		case "O":
			cells[i] = White
		default:
			return Position{}, fmt.Errorf("cell %d (%s) is %q: use \" \", \"X\" or \"O\"", i+1, Square{i % n, i / n}, v)
		}
	}
	return FromCells(n, cells, toMove)
}

// CellList returns the board as a row-by-row list of " ", "X" and "O".
func (p Position) CellList() []string {
	cells := p.Cells()
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.Letter()
	}
	return out
}

// ParseBoard64 reads the 64-character 8x8 format: a1..h1, a2..h2, …, h8, with
// X for black, O for white and - (or .) for empty.
func ParseBoard64(s string, toMove Color) (Position, error) {
	if len(s) != 64 {
		return Position{}, fmt.Errorf("a BOARD64 has 64 characters (X, O or -), got %d", len([]rune(s)))
	}
	cells := make([]Color, 64)
	for i := 0; i < 64; i++ {
		switch s[i] {
		case 'X', 'x', '*':
			cells[i] = Black
		case 'O', 'o':
			cells[i] = White
		case '-', '.':
			cells[i] = Empty
		default:
			return Position{}, fmt.Errorf("BOARD64 character %d (%s) is %q: use X, O or -", i+1, Square{i % 8, i / 8}, s[i])
		}
	}
	return FromCells(8, cells, toMove)
}

// Board64 returns an 8x8 position in the BOARD64 format, or "" on other sizes.
func (p Position) Board64() string {
	if p.size != 8 {
		return ""
	}
	return p.CellString()
}

// CellString returns the board as size*size characters, row by row: X
// for black, O for white, - for empty (BOARD64 on 8x8; how the store and
// the pages write a board).
func (p Position) CellString() string {
	var b strings.Builder
	b.Grow(p.size * p.size)
	for _, c := range p.Cells() {
		switch c {
		case Black:
			b.WriteByte('X')
		case White:
			b.WriteByte('O')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
