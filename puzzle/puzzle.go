// Package puzzle finds puzzles in finished games: positions near the end
// where the side to move has exactly one move that keeps its best result
// (the only winning move, or the only drawing one when nothing wins), and
// the player in the game missed it. The exact solver decides; a puzzle
// may go on for several moves, the opponent's best replies played for the
// solver, as long as each of the player's moves is again the only one.
// It knows nothing of Discord or SQL.
package puzzle

import (
	"context"
	"errors"
	"fmt"

	"othello-bot/engine"
	"othello-bot/game"
)

// Scorer scores every legal move of a position exactly (the engine's
// ScoreMoves with exactFrom at least the empties).
type Scorer interface {
	ScoreMoves(ctx context.Context, p game.Position, depth, exactFrom int) ([]engine.MoveEval, error)
}

// Options bound the search.
type Options struct {
	// MaxEmpties is the most empty squares a puzzle's position has
	// (about 20: the solver is quick there).
	MaxEmpties int
	// MaxMoves is the most moves a puzzle asks of its solver.
	MaxMoves int
}

// ErrNotSolvable is a board the exact solver does not take (over 8x8).
var ErrNotSolvable = errors.New("puzzles come from boards up to 8x8")

// outcome is a margin's class: win, draw, loss.
func outcome(margin int) int {
	switch {
	case margin > 0:
		return 1
	case margin < 0:
		return -1
	}
	return 0
}

// only is the move that alone keeps the best result, if there is one and
// that result is not a loss: the best move, and the exact margin.
func only(scores []engine.MoveEval) (game.Square, int, bool) {
	if len(scores) < 2 {
		return game.Pass, 0, false // a forced move is no puzzle
	}
	best := scores[0]
	margin := discs(best.Eval)
	if margin < 0 {
		return game.Pass, 0, false
	}
	for _, m := range scores[1:] {
		if outcome(discs(m.Eval)) == outcome(margin) {
			return game.Pass, 0, false
		}
	}
	return best.Move, margin, true
}

func discs(e engine.Eval) int { return e.Cents / 100 }

// scoreOf is a move's exact margin among scores.
func scoreOf(scores []engine.MoveEval, sq game.Square) (int, bool) {
	for _, m := range scores {
		if m.Move == sq {
			return discs(m.Eval), true
		}
	}
	return 0, false
}

// Find looks for puzzles in a game: its start and its moves (passes left
// out, as game.MovesOf gives them).
func Find(ctx context.Context, s Scorer, start game.Position, moves []game.Square, o Options) ([]Puzzle, error) {
	if _, _, ok := start.Bitboards(); !ok {
		return nil, ErrNotSolvable
	}
	if o.MaxMoves < 1 {
		o.MaxMoves = 1
	}
	var out []Puzzle
	pos := start
	for i, played := range moves {
		pos = passIfStuck(pos)
		if pos.Empties() <= o.MaxEmpties && len(pos.LegalMoves()) >= 2 {
			p, found, err := at(ctx, s, pos, played, o)
			if err != nil {
				return nil, err
			}
			if found {
				p.Ply = i
				out = append(out, p)
			}
		}
		next, err := pos.Play(played)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s) of the game: %w", i+1, played, err)
		}
		pos = next
	}
	return out, nil
}

// passIfStuck passes for a side with no move in a game not over.
func passIfStuck(p game.Position) game.Position {
	if p.MustPass() {
		return p.Pass()
	}
	return p
}

// at is the puzzle at pos, where the game's player played `played`, if
// there is one: their move was not the only one keeping the best result.
func at(ctx context.Context, s Scorer, pos game.Position, played game.Square, o Options) (Puzzle, bool, error) {
	scores, err := s.ScoreMoves(ctx, pos, 0, 64)
	if err != nil {
		return Puzzle{}, false, err
	}
	best, margin, ok := only(scores)
	if !ok || best == played {
		return Puzzle{}, false, nil
	}
	got, _ := scoreOf(scores, played)
	if outcome(got) == outcome(margin) {
		return Puzzle{}, false, nil // a smaller win is not a miss
	}
	p := Puzzle{Start: pos, Result: margin, Cost: margin - got, Played: played}
	line, err := Line(ctx, s, pos, best, o.MaxMoves)
	if err != nil {
		return Puzzle{}, false, err
	}
	p.Line = line
	return p, true, nil
}

// Line is the solution from pos beginning with first: after each of the
// solver's moves the opponent's best reply, then the solver's next move
// while it is again the only one keeping the result, up to maxMoves.
func Line(ctx context.Context, s Scorer, pos game.Position, first game.Square, maxMoves int) ([]game.Square, error) {
	solver := pos.ToMove()
	line := []game.Square{first}
	next, err := pos.Play(first)
	if err != nil {
		return nil, err
	}
	for moves := 1; moves < maxMoves; moves++ {
		next = passIfStuck(next)
		if next.GameOver() || next.ToMove() == solver {
			break // over, or the opponent had to pass: the puzzle ends here
		}
		replies, err := s.ScoreMoves(ctx, next, 0, 64)
		if err != nil {
			return nil, err
		}
		reply := replies[0].Move
		after, err := next.Play(reply)
		if err != nil {
			return nil, err
		}
		after = passIfStuck(after)
		if after.GameOver() || after.ToMove() != solver {
			break
		}
		scores, err := s.ScoreMoves(ctx, after, 0, 64)
		if err != nil {
			return nil, err
		}
		m, _, ok := only(scores)
		if !ok {
			break // more than one way on: the puzzle is solved at the last move
		}
		line = append(line, reply, m)
		if next, err = after.Play(m); err != nil {
			return nil, err
		}
	}
	return line, nil
}
