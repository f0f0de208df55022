// Package coach turns a player's largest mistakes in a finished game into
// lessons: the position as played, "find a better move", and why the move
// played was worse in words a beginner knows — it gave a corner, took an
// X-square, opened a wall, gave away parity, left the opponent more moves
// — each computed from the board. (lichess's "learn from your mistakes".)
// It knows nothing of Discord or SQL: the bot keeps lessons as private
// puzzles and words the reasons through its catalog.
package coach

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"othello-bot/engine"
	"othello-bot/game"
)

// Scorer scores every legal move of a position (the engine).
type Scorer interface {
	ScoreMoves(ctx context.Context, p game.Position, depth, exactFrom int) ([]engine.MoveEval, error)
}

// Settings are how deep the coach looks: lighter than /analyze's (8
// plies, exact from 20), so a game's lessons take a second, not a minute.
var Settings = struct{ Depth, ExactFrom int }{Depth: 6, ExactFrom: 14}

// MinLoss is the least a move must have lost, in discs, to be a lesson:
// below it the better move is a matter of taste.
const MinLoss = 3.0

// tolerance is how far below the best a move may be and still be a right
// answer, in discs, where values are estimates; exact values take only
// the best.
const tolerance = 1.0

// Lesson is one mistake as a position to solve again.
type Lesson struct {
	Ply    int           // plies of the game before Start (passes counted)
	Start  game.Position // the position as it was, the player to move
	Played game.Square
	// Best is the engine's move; Accept every move right as an answer
	// (Best first), all far better than Played.
	Best   game.Square
	Accept []game.Square
	// Loss is what Played lost against Best, and BestValue the final
	// margin Best keeps for the player, in discs; Exact says the solver
	// proved them.
	Loss, BestValue float64
	Exact           bool
	Why             []Reason
}

// Find gives up to n lessons for the player of colour c in a game on a
// board of 8x8 or less (start and its plies, passes included): their
// largest mistakes of at least MinLoss, in the order they were played.
// Only the player's own positions are searched, each once.
func Find(ctx context.Context, s Scorer, start game.Position, plies []game.Ply, c game.Color, n int) ([]Lesson, error) {
	if _, _, ok := start.Bitboards(); !ok {
		return nil, fmt.Errorf("coach: lessons come from boards up to 8x8, not %dx%d", start.Size(), start.Size())
	}
	var found []Lesson
	pos := start
	for i, ply := range plies {
		if ply.Square.IsPass() {
			pos = pos.Pass()
			continue
		}
		if ply.Color == c && len(pos.LegalMoves()) > 1 {
			l, ok, err := lessonAt(ctx, s, pos, ply.Square)
			if err != nil {
				return nil, err
			}
			if ok {
				l.Ply = i
				found = append(found, l)
			}
		}
		next, err := pos.Play(ply.Square)
		if err != nil {
			return nil, fmt.Errorf("coach: replaying ply %d: %w", i+1, err)
		}
		pos = next
	}
	slices.SortStableFunc(found, func(a, b Lesson) int { return cmp.Compare(b.Loss, a.Loss) })
	found = found[:min(n, len(found))]
	slices.SortFunc(found, func(a, b Lesson) int { return cmp.Compare(a.Ply, b.Ply) })
	for i := range found {
		// Why, for the few kept: the opponent's best reply is one more search.
		l := &found[i]
		l.Why = Reasons(l.Start, l.Played, l.Best, l.Loss)
		reply, ok, err := bestReply(ctx, s, l.Start, l.Played)
		if err != nil {
			return nil, err
		}
		if ok {
			// Before the discs, which come last.
			l.Why = slices.Insert(l.Why, len(l.Why)-1, Reason{Kind: Reply, Square: reply})
		}
	}
	return found, nil
}

// lessonAt scores a position where the player moved and makes the
// lesson, if the move played lost at least MinLoss (its reasons are added
// by Find, for the lessons kept).
func lessonAt(ctx context.Context, s Scorer, pos game.Position, played game.Square) (Lesson, bool, error) {
	scores, err := s.ScoreMoves(ctx, pos, Settings.Depth, Settings.ExactFrom)
	if err != nil {
		return Lesson{}, false, fmt.Errorf("coach: %w", err)
	}
	best := scores[0]
	l := Lesson{Start: pos, Played: played, Best: best.Move, BestValue: best.Eval.Discs(), Exact: best.Eval.Exact}
	tol := tolerance
	if best.Eval.Exact {
		tol = 0
	}
	playedValue := math.Inf(-1)
	for _, m := range scores {
		if m.Move == played {
			playedValue = m.Eval.Discs()
		}
	}
	l.Loss = l.BestValue - playedValue
	if l.Loss < MinLoss {
		return Lesson{}, false, nil
	}
	for _, m := range scores {
		if m.Move != played && best.Eval.Discs()-m.Eval.Discs() <= tol {
			l.Accept = append(l.Accept, m.Move)
		}
	}
	return l, true, nil
}

// bestReply is the opponent's best answer to played, when they have one
// and it is not their only move.
func bestReply(ctx context.Context, s Scorer, pos game.Position, played game.Square) (game.Square, bool, error) {
	after, err := pos.Play(played)
	if err != nil || after.MustPass() || len(after.LegalMoves()) < 2 {
		return game.Pass, false, nil
	}
	scores, err := s.ScoreMoves(ctx, after, Settings.Depth-1, Settings.ExactFrom)
	if err != nil {
		return game.Pass, false, fmt.Errorf("coach: %w", err)
	}
	return scores[0].Move, true, nil
}

// Rating is a lesson's first rating, before anyone has tried it: harder
// with more empty squares to read, easier the more the move played lost
// (a corner given away is plain to see afterwards). The tries move it.
func Rating(l Lesson) float64 {
	r := 900 + 15*float64(min(l.Start.Empties(), 40)) - 20*min(l.Loss, 20)
	return max(600, min(2000, math.Round(r)))
}
