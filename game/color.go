package game

import "strings"

// Color is what occupies a square, or whose turn it is.
type Color int8

const (
	Empty Color = iota
	Black
	White
)

// Opponent returns the other side. Empty stays Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "empty"
}

// Letter returns the classic terminal letter: X for black, O for white, a
// space for an empty square.
func (c Color) Letter() string {
	switch c {
	case Black:
		return "X"
	case White:
		return "O"
	}
	return " "
}

// ParseColor accepts the names and letters players use for a side:
// x/black/b and o/white/w, in any case.
func ParseColor(s string) (Color, bool) {
	switch strings.ToLower(s) {
	case "x", "black", "b":
		return Black, true
	case "o", "white", "w":
		return White, true
	}
	return Empty, false
}
