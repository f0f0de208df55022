package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Sizes a board may have: every even number in [MinSize, MaxSize].
const (
	MinSize = 4
	MaxSize = 26
)

// ValidSize reports whether n is a board size the game supports.
func ValidSize(n int) bool { return n >= MinSize && n <= MaxSize && n%2 == 0 }

// CheckSize returns an error that says what is wrong with a board size.
func CheckSize(n int) error {
	if !ValidSize(n) {
		return fmt.Errorf("%d is not a board size (use an even number from %d to %d)", n, MinSize, MaxSize)
	}
	return nil
}

// Square is a place on the board: Col 0 is column a (left), Row 0 is row 1
// (top). The zero value is a1. Pass stands for "no square".
type Square struct {
	Col, Row int
}

// Pass is the move of a side that has no legal move.
var Pass = Square{-1, -1}

// IsPass reports whether s is the Pass move.
func (s Square) IsPass() bool { return s == Pass }

// String returns the square in the players' notation, "d3", or "pass".
func (s Square) String() string {
	if s.IsPass() {
		return "pass"
	}
	if s.Col < 0 || s.Col >= MaxSize || s.Row < 0 {
		return fmt.Sprintf("(%d,%d)", s.Col, s.Row)
	}
	return string(rune('a'+s.Col)) + strconv.Itoa(s.Row+1)
}

// SquareList writes squares for people: "d3, c4, f5".
func SquareList(sqs []Square) string {
	parts := make([]string, len(sqs))
	for i, q := range sqs {
		parts[i] = q.String()
	}
	return strings.Join(parts, ", ")
}

// On reports whether s lies on a board of the given size.
func (s Square) On(size int) bool {
	return s.Col >= 0 && s.Col < size && s.Row >= 0 && s.Row < size
}

// Errors a move or a square can be refused with. Errors returned by this
// package match them with errors.Is; their text is written for players.
var (
	ErrNotSquare = errors.New("not a square")
	ErrOffBoard  = errors.New("off the board")
	ErrTaken     = errors.New("square taken")
	ErrNoFlips   = errors.New("flips nothing")
	ErrGameOver  = errors.New("game over")
	ErrMustPass  = errors.New("no legal move")
)

// InputError is a refusal with a message fit to show a player.
type InputError struct {
	kind error
	msg  string
}

func (e *InputError) Error() string { return e.msg }
func (e *InputError) Unwrap() error { return e.kind }

func inputErr(kind error, format string, args ...any) error {
	return &InputError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// ParseSquare reads a square like "d3" or "D3" for a board of the given size.
func ParseSquare(s string, size int) (Square, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	sq, ok := parseSquareToken(t)
	if !ok {
		return Pass, inputErr(ErrNotSquare, "%s is not a square (use a letter then a number, like d3)", QuoteInput(t))
	}
	if !sq.On(size) {
		return Pass, inputErr(ErrOffBoard, "%s is off the %dx%d board", t, size, size)
	}
	return sq, nil
}

// parseSquareToken reads a lower-case letter and a row number without a
// leading zero; it knows nothing of board sizes beyond the alphabet.
func parseSquareToken(t string) (Square, bool) {
	if len(t) < 2 || len(t) > 4 || t[0] < 'a' || t[0] > 'z' || t[1] < '1' || t[1] > '9' {
		return Pass, false
	}
	row := 0
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return Pass, false
		}
		row = row*10 + int(t[i]-'0')
	}
	return Square{Col: int(t[0] - 'a'), Row: row - 1}, true
}

// QuoteInput makes what a user typed safe and short enough to repeat back.
func QuoteInput(t string) string {
	const max = 16
	if r := []rune(t); len(r) > max {
		t = string(r[:max]) + "…"
	}
	plain := t != ""
	for _, r := range t {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || r == '"' {
			plain = false
			break
		}
	}
	if plain {
		return t
	}
	return strconv.Quote(t)
}
