package puzzle

import (
	"math"

	"othello-bot/game"
	"othello-bot/rating"
)

// Verdict is what an answer to a puzzle did.
type Verdict int

const (
	// Wrong: not the move; the puzzle is failed.
	Wrong Verdict = iota
	// Right: the move, and the line goes on after the reply.
	Right
	// Solved: the move, and the last one.
	Solved
)

// Answer checks the solver's move at step (the index in Line of the move
// asked for: 0, 2, 4…). On Right it gives the opponent's reply, played for
// them, and the step asked for next.
func (p Puzzle) Answer(step int, move game.Square) (Verdict, game.Square, int) {
	if step < 0 || step >= len(p.Line) || step%2 != 0 || move != p.Line[step] {
		return Wrong, game.Pass, step
	}
	if step+1 >= len(p.Line) {
		return Solved, game.Pass, step
	}
	return Right, p.Line[step+1], step + 2
}

// Position is the board at step: the start with the line's first step
// moves played (forced passes made).
func (p Puzzle) Position(step int) (game.Position, error) {
	pos := p.Start
	for _, m := range p.Line[:min(step, len(p.Line))] {
		next, err := pos.Play(m)
		if err != nil {
			return pos, err
		}
		pos = passIfStuck(next)
	}
	return pos, nil
}

// InitialRating is a new puzzle's rating before anyone has tried it: a
// guess from what makes endgame puzzles hard (more empty squares to read,
// more moves to find), with the deviation of a newcomer, so the first
// attempts move it most.
func InitialRating(p Puzzle) rating.Player {
	r := rating.New()
	r.Rating = math.Round(1200 + 40*float64(p.Start.Empties()) + 150*float64(p.Moves()-1))
	return r
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
