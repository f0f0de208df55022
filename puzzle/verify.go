package puzzle

import (
	"context"
	"fmt"

	"othello-bot/engine"
	"othello-bot/game"
)

// Evaluator values a position exactly for the side to move (the engine's
// Evaluate at full depth): Verify's way to the answer is not Find's.
type Evaluator interface {
	Evaluate(ctx context.Context, p game.Position, depth int) (engine.Eval, error)
}

// Margins are each legal move's exact final margin for the side to move at
// p, each child valued on its own.
func Margins(ctx context.Context, e Evaluator, p game.Position) (map[game.Square]int, error) {
	out := map[game.Square]int{}
	for _, m := range p.LegalMoves() {
		next, err := p.Play(m)
		if err != nil {
			return nil, err
		}
		switch {
		case next.GameOver():
			b, w := next.Count()
			d := b - w
			if p.ToMove() == game.White {
				d = -d
			}
			out[m] = d
		case next.MustPass():
			v, err := exact(ctx, e, next.Pass())
			if err != nil {
				return nil, err
			}
			out[m] = v
		default:
			v, err := exact(ctx, e, next)
			if err != nil {
				return nil, err
			}
			out[m] = -v
		}
	}
	return out, nil
}

func exact(ctx context.Context, e Evaluator, p game.Position) (int, error) {
	v, err := e.Evaluate(ctx, p, 64)
	if err != nil {
		return 0, err
	}
	if !v.Exact {
		return 0, fmt.Errorf("the evaluation of\n%v is not exact", p)
	}
	return v.Cents / 100, nil
}

// Verify re-solves a puzzle move by move: at each of the solver's steps
// exactly one move keeps the best result, and it is the line's, with the
// puzzle's margin; each reply is one of the opponent's best; the game's
// move (when given) changes the result by Cost.
func Verify(ctx context.Context, e Evaluator, p Puzzle) error {
	if len(p.Line) == 0 {
		return fmt.Errorf("no line")
	}
	pos := p.Start
	for i, m := range p.Line {
		pos = passIfStuck(pos)
		ms, err := Margins(ctx, e, pos)
		if err != nil {
			return err
		}
		if i%2 == 1 { // the opponent's reply: one of their best
			best := -65
			for _, v := range ms {
				best = max(best, v)
			}
			if v, ok := ms[m]; !ok || v != best {
				return fmt.Errorf("step %d: the reply %s gives the opponent %d, their best is %d", i, m, v, best)
			}
		} else {
			keeping := 0
			for sq, v := range ms {
				if v > p.Result {
					return fmt.Errorf("step %d: %s gives %d, more than the puzzle's %d", i, sq, v, p.Result)
				}
				if outcome(v) == outcome(p.Result) {
					keeping++
					if sq != m || v != p.Result {
						return fmt.Errorf("step %d: %s keeps the result with %d; the line says %s with %d", i, sq, v, m, p.Result)
					}
				}
			}
			if keeping != 1 {
				return fmt.Errorf("step %d: %d moves keep the result %d", i, keeping, p.Result)
			}
			if i == 0 && !p.Played.IsPass() {
				if v, ok := ms[p.Played]; !ok || outcome(v) == outcome(p.Result) || p.Cost != p.Result-v {
					return fmt.Errorf("the game's move %s gives %d (cost %d) against %d", p.Played, v, p.Cost, p.Result)
				}
			}
		}
		next, err := pos.Play(m)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		pos = next
	}
	return nil
}
