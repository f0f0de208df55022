package catalog

import (
	"errors"
	"strings"

	"othello-bot/game"
)

// MoveError says in the reader's words why a typed move was refused: the
// game's own errors carry English, so each is matched by its sentinel.
func (p *Printer) MoveError(input string, size int, err error) string {
	typed := strings.ToLower(strings.TrimSpace(input))
	switch {
	case errors.Is(err, game.ErrNotSquare):
		return p.T("move.not_square", "Input", game.QuoteInput(typed))
	case errors.Is(err, game.ErrOffBoard):
		return p.T("move.off_board", "Square", typed, "Size", size)
	case errors.Is(err, game.ErrTaken):
		return p.T("move.taken", "Square", typed)
	case errors.Is(err, game.ErrNoFlips):
		return p.T("move.no_flips", "Square", typed)
	case errors.Is(err, game.ErrGameOver):
		return p.T("move.game_over")
	}
	return p.T("move.illegal", "Square", game.QuoteInput(typed))
}
