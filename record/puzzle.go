package record

// This file is puzzles as they are kept: a position with its answer, where
// it came from, each player's tries and their puzzle record. The rules
// (finding, answering, rating) are package puzzle's, which names these
// types as its own.

import (
	"errors"
	"slices"
	"time"

	"othello-bot/game"
)

// Glicko is a Glicko-2 rating as kept; package rating computes with it
// (rating.Player has the same fields).
type Glicko struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Puzzle is one position to solve, with its answer.
type Puzzle struct {
	// Start is the position, the solver to move.
	Start game.Position
	// Line is the solution: the solver's moves and the replies played for
	// the opponent, alternately, beginning with the solver's; a forced
	// pass is not written.
	Line []game.Square
	// Result is the final margin (discs, for the solver) with best play
	// from Start; Cost is what the game's move lost against it.
	Result, Cost int
	// Played is the move the game's player made instead.
	Played game.Square
	// Ply is how many plies of the game came before Start.
	Ply int
	// Also are other first moves as right as Line's first (a lesson's
	// moves about as good as the best); the line is then that one move.
	Also []game.Square
}

// Moves is how many moves the solver makes.
func (p Puzzle) Moves() int { return (len(p.Line) + 1) / 2 }

// Answer checks the solver's move at step (the index in Line of the move
// asked for: 0, 2, 4…). On Right it gives the opponent's reply, played for
// them, and the step asked for next.
func (p Puzzle) Answer(step int, move game.Square) (Verdict, game.Square, int) {
	if step == 0 && len(p.Line) == 1 && slices.Contains(p.Also, move) {
		return Solved, game.Pass, step
	}
	if step < 0 || step >= len(p.Line) || step%2 != 0 || move != p.Line[step] {
		return Wrong, game.Pass, step
	}
	if step+1 >= len(p.Line) {
		return Solved, game.Pass, step
	}
	return Right, p.Line[step+1], step + 2
}

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

// Position is the board at step: the start with the line's first step
// moves played (forced passes made).
func (p Puzzle) Position(step int) (game.Position, error) {
	pos := p.Start
	for _, m := range p.Line[:min(step, len(p.Line))] {
		next, err := pos.Play(m)
		if err != nil {
			return pos, err
		}
		pos = next
		if pos.MustPass() {
			pos = pos.Pass()
		}
	}
	return pos, nil
}

// PuzzleRecord is a kept puzzle: the puzzle, where it came from (a
// server's game, or the built-in set), and its own rating.
type PuzzleRecord struct {
	ID int64
	Puzzle
	// GuildID is the server whose game it came from ("" for built-in);
	// GameID that game (0 for built-in); Builtin its key in the built-in
	// set ("" for a server's).
	GuildID string
	GameID  int64
	Builtin string
	// Owner is the player a lesson is for: their own mistake in GameID,
	// given to them alone ("" for a puzzle anyone may be given); Why
	// says why the move played was worse (package coach's encoding).
	Owner  string
	Why    string
	Rating Glicko
	// Plays and Wins count first tries, and those that solved it.
	Plays, Wins int
}

// ErrTried is a second try at a puzzle by the same player.
var ErrTried = errors.New("this puzzle was tried already")

// TryStatus is where a try stands.
type TryStatus string

const (
	TryOpen   TryStatus = "open"
	TryPassed TryStatus = "solved"
	TryFailed TryStatus = "failed"
)

// PuzzleTry is one player's attempt at one puzzle: each player has one
// per puzzle, and it counts for their rating.
type PuzzleTry struct {
	ID, PuzzleID      int64
	PlayerID, GuildID string
	// Step is the index in the line of the move asked for next.
	Step             int
	Status           TryStatus
	Started, Expires time.Time
	// Daily is the day (YYYY-MM-DD) of the daily puzzle this try answers,
	// "" for a /puzzle of one's own.
	Daily string
	// RatingChange is what finishing it did to the player's rating.
	RatingChange float64
}

// TimeToAnswer is how long a try stays open: a puzzle is a few moves of
// reading, and an open try must not wait forever for an answer.
const TimeToAnswer = 15 * time.Minute

// Expired says whether a try can no longer be answered at now.
func (t PuzzleTry) Expired(now time.Time) bool { return t.Status == TryOpen && !now.Before(t.Expires) }

// PuzzleSolver is a player's puzzle record: their rating (one,
// everywhere), how many puzzles they tried and solved, and their streaks
// of solved puzzles.
type PuzzleSolver struct {
	Rating             Glicko
	Attempts, Solved   int
	Streak, BestStreak int
}

// TryRating is what finishing a try does to the ratings: the player's
// record and the puzzle's rating after, and the change of the player's
// rating.
type TryRating struct {
	Solver PuzzleSolver
	Puzzle Glicko
	Change float64
}
