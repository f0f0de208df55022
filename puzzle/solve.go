package puzzle

import (
	"math"

	"othello-bot/rating"
	"othello-bot/record"
)

// InitialRating is a new puzzle's rating before anyone has tried it: a
// guess from what makes endgame puzzles hard (more empty squares to read,
// more moves to find), with the deviation of a newcomer, so the first
// attempts move it most.
func InitialRating(p Puzzle) record.Glicko {
	r := rating.New()
	r.Rating = math.Round(1200 + 40*float64(p.Start.Empties()) + 150*float64(p.Moves()-1))
	return record.Glicko(r)
}

// Attempt rates one try at a puzzle as lichess does: a game between the
// player and the puzzle, which the player wins by solving it. It returns
// both new ratings.
func Attempt(player, puzzle rating.Player, solved bool) (rating.Player, rating.Player) {
	score := 0.0
	if solved {
		score = 1
	}
	return player.Update([]rating.Result{{Opponent: puzzle, Score: score}}),
		puzzle.Update([]rating.Result{{Opponent: player, Score: 1 - score}})
}
