package game

import (
	"errors"
	"strings"
)

// FormatTranscript writes moves the standard way: "f5d6c3" on boards of up
// to 9 rows, separated by spaces on larger ones ("f10 e9 …") where row
// numbers have two digits. Passes are not written.
func FormatTranscript(moves []Square, size int) string {
	var b strings.Builder
	for _, m := range moves {
		if m.IsPass() {
			continue
		}
		if size > 9 && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// ParseTranscript reads a transcript for a board of the given size. Each move
// is a letter followed by a row number, so spaces between moves are optional
// on every size; letters may be upper or lower case. It checks only that each
// square is on the board; Replay checks that the moves are legal.
func ParseTranscript(s string, size int) ([]Square, error) {
	if err := CheckSize(size); err != nil {
		return nil, err
	}
	t := strings.ToLower(s)
	var out []Square
	for i := 0; i < len(t); {
		if isSpace(t[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		sq, err := ParseSquare(t[i:j], size)
		if err != nil {
			kind := ErrNotSquare
			if errors.Is(err, ErrOffBoard) {
				kind = ErrOffBoard
			}
			return nil, inputErr(kind, "move %d: %s", len(out)+1, err)
		}
		out = append(out, sq)
		i = j
	}
	return out, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' }
