package puzzle

import (
	"errors"
	"time"

	"othello-bot/rating"
)

// Record is a kept puzzle: the puzzle, where it came from (a server's game,
// or the built-in set), and its own rating.
type Record struct {
	ID int64
	Puzzle
	// GuildID is the server whose game it came from ("" for built-in);
	// GameID that game (0 for built-in); Builtin its key in the built-in
	// set ("" for a server's).
	GuildID string
	GameID  int64
	Builtin string
	Rating  rating.Player
	// Plays and Wins count first tries, and those that solved it.
	Plays, Wins int
}

// ErrTried is a second try at a puzzle by the same player.
var ErrTried = errors.New("this puzzle was tried already")

// Status is where a try stands.
type Status string

const (
	Open   Status = "open"
	Passed Status = "solved"
	Failed Status = "failed"
)

// Try is one player's attempt at one puzzle: each player has one per
// puzzle, and it counts for their rating.
type Try struct {
	ID, PuzzleID      int64
	PlayerID, GuildID string
	// Step is the index in the line of the move asked for next.
	Step             int
	Status           Status
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
func (t Try) Expired(now time.Time) bool { return t.Status == Open && !now.Before(t.Expires) }

// Solver is a player's puzzle record: their rating (one, everywhere),
// how many puzzles they tried and solved, and their streaks of solved
// puzzles.
type Solver struct {
	Rating             rating.Player
	Attempts, Solved   int
	Streak, BestStreak int
}

// NewSolver is a player who has never tried a puzzle.
func NewSolver() Solver { return Solver{Rating: rating.New()} }

// Finish rates a finished try for the player and the puzzle, as Attempt
// does, and moves the streaks: a solve extends the streak, a miss ends it.
func (s Solver) Finish(puzzle rating.Player, solved bool) (Solver, rating.Player) {
	var p rating.Player
	s.Rating, p = Attempt(s.Rating, puzzle, solved)
	s.Attempts++
	if solved {
		s.Solved++
		s.Streak++
		s.BestStreak = max(s.BestStreak, s.Streak)
	} else {
		s.Streak = 0
	}
	return s, p
}
