package puzzle

import (
	"othello-bot/rating"
	"othello-bot/record"
)

// The kept forms of puzzles are package record's, so a store keeps them
// without the rules; these are their names here.
type (
	// Puzzle is one position to solve, with its answer.
	Puzzle = record.Puzzle
	// Record is a kept puzzle with where it came from and its rating.
	Record = record.PuzzleRecord
	// Status is where a try stands.
	Status = record.TryStatus
	// Try is one player's attempt at one puzzle.
	Try = record.PuzzleTry
	// Solver is a player's puzzle record.
	Solver = record.PuzzleSolver
	// Verdict is what an answer to a puzzle did.
	Verdict = record.Verdict
)

const (
	Open   = record.TryOpen
	Passed = record.TryPassed
	Failed = record.TryFailed

	Wrong  = record.Wrong
	Right  = record.Right
	Solved = record.Solved

	// TimeToAnswer is how long a try stays open.
	TimeToAnswer = record.TimeToAnswer
)

// ErrTried is a second try at a puzzle by the same player.
var ErrTried = record.ErrTried

// NewSolver is a player who has never tried a puzzle.
func NewSolver() Solver { return Solver{Rating: record.Glicko(rating.New())} }

// Finish rates a finished try for the player (nil: their first) and the
// puzzle, as Attempt does, and moves the streaks: a solve extends the
// streak, a miss ends it. A store calls it inside the transaction that
// records the try.
func Finish(before *Solver, puzzle record.Glicko, solved bool) record.TryRating {
	s := NewSolver()
	if before != nil {
		s = *before
	}
	from := s.Rating.Rating
	r, p := Attempt(rating.Player(s.Rating), rating.Player(puzzle), solved)
	s.Rating = record.Glicko(r)
	s.Attempts++
	if solved {
		s.Solved++
		s.Streak++
		s.BestStreak = max(s.BestStreak, s.Streak)
	} else {
		s.Streak = 0
	}
	return record.TryRating{Solver: s, Puzzle: record.Glicko(p), Change: s.Rating.Rating - from}
}

// Rated is a newly found puzzle with its initial rating, as a store keeps
// it.
func Rated(p Puzzle) Record { return Record{Puzzle: p, Rating: InitialRating(p)} }
