package storage

// This file is how values are written in the database: positions, colours,
// styles, sides.

import (
	"database/sql"
	"fmt"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// encodePosition writes the board as size*size characters: '-', 'X', 'O'.
func encodePosition(p game.Position) string { return p.CellString() }

func decodePosition(size int, s, toMove string) (game.Position, error) {
	cells := make([]game.Color, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'X':
			cells[i] = game.Black
		case 'O':
			cells[i] = game.White
		case '-':
		default:
			return game.Position{}, fmt.Errorf("bad cell %q in stored position", s[i])
		}
	}
	return game.FromCells(size, cells, colorOf(toMove))
}

func colorCode(c game.Color) string {
	if c == game.White {
		return "O"
	}
	return "X"
}

func colorOf(code string) game.Color {
	switch code {
	case "O":
		return game.White
	case "X":
		return game.Black
	}
	return game.Empty
}

func styleOr(s record.Style) record.Style {
	if s == "" {
		return record.StyleAuto
	}
	return s
}

func sideColumns(s record.Side) (id sql.NullString, level sql.NullInt64) {
	if s.IsBot() {
		return sql.NullString{}, sql.NullInt64{Int64: int64(s.Level), Valid: true}
	}
	return sql.NullString{String: s.Player.ID, Valid: true}, sql.NullInt64{}
}

// controlOf is a time control from its stored milliseconds.
func controlOf(base, increment, perMove int64) timecontrol.Control {
	return timecontrol.Control{Base: time.Duration(base) * time.Millisecond,
		Increment: time.Duration(increment) * time.Millisecond, PerMove: time.Duration(perMove) * time.Millisecond}
}
