package game

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseASCII reads the terminal's board back: the tests check the ASCII
// format round-trips with it.

// ParseASCII reads a board drawn by ASCII (the header and border lines may be
// missing; only the numbered rows matter).
func ParseASCII(s string, toMove Color) (Position, error) {
	var rows [][]Color
	for _, line := range strings.Split(s, "\n") {
		bar := strings.IndexByte(line, '|')
		if bar < 0 {
			continue
		}
		num, err := strconv.Atoi(strings.TrimSpace(line[:bar]))
		if err != nil || num != len(rows)+1 {
			return Position{}, fmt.Errorf("row %d is missing or out of order", len(rows)+1)
		}
		parts := strings.Split(strings.TrimRight(line[bar+1:], " "), "|")
		if len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		row := make([]Color, 0, len(parts))
		for _, cell := range parts {
			switch strings.TrimSpace(cell) {
			case "":
				row = append(row, Empty)
			case "X":
				row = append(row, Black)
			case "O":
				row = append(row, White)
			default:
				return Position{}, fmt.Errorf("row %d: %q is not X, O or empty", num, strings.TrimSpace(cell))
			}
		}
		rows = append(rows, row)
	}
	n := len(rows)
	if err := CheckSize(n); err != nil {
		return Position{}, fmt.Errorf("the board has %d rows: %w", n, err)
	}
	cells := make([]Color, 0, n*n)
	for i, row := range rows {
		if len(row) != n {
			return Position{}, fmt.Errorf("row %d has %d cells, want %d", i+1, len(row), n)
		}
		cells = append(cells, row...)
	}
	return FromCells(n, cells, toMove)
}
