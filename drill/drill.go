// Package drill holds the trainers' rules, free of Discord: an opening
// line played from memory (where the player left it), and an endgame
// played out against the exact solver, each move graded by the discs it
// lost. A drill's state is small enough to ride in the message that shows
// it (Encode), so nothing of it is kept anywhere else.
package drill

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"othello-bot/engine"
	"othello-bot/game"
)

// Endgame sizes: at most MaxEmpties empty squares, so every move is
// solved exactly in a fraction of a second.
const (
	MinEmpties = 4
	MaxEmpties = 14
)

// mover plays the games endgames are taken from.
type mover interface {
	Move(ctx context.Context, p game.Position, level int, rng *rand.Rand) (engine.Result, error)
}

// genLevel plays the games endgames come from: a club player's, so the
// positions are ones people reach.
const genLevel = 12

// Endgame is an 8x8 position with that many empty squares where the side
// to move has at least two moves: from a game of a few random moves and
// then the engine at a club player's level.
func Endgame(ctx context.Context, eng mover, rng *rand.Rand, empties int) (game.Position, error) {
	if empties < MinEmpties || empties > MaxEmpties {
		return game.Position{}, fmt.Errorf("drill: %d empty squares, want %d-%d", empties, MinEmpties, MaxEmpties)
	}
	for range 50 {
		p, _ := game.NewPosition(8)
		for ply := 0; p.Empties() > empties; ply++ {
			if p.MustPass() {
				p = p.Pass()
			}
			if p.GameOver() {
				break
			}
			moves := p.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			if ply >= 4 {
				r, err := eng.Move(ctx, p, genLevel, rng)
				if err != nil {
					return game.Position{}, err
				}
				m = r.Move
			}
			next, err := p.Play(m)
			if err != nil {
				return game.Position{}, err
			}
			p = next
		}
		if p.MustPass() {
			p = p.Pass()
		}
		if p.Empties() == empties && !p.GameOver() && len(p.LegalMoves()) >= 2 {
			return p, nil
		}
	}
	return game.Position{}, errors.New("drill: no endgame of that size came in 50 games")
}

// Encode writes an 8x8 position as the drill's state carries it: Black's
// and White's discs as hex, and who moves ("X" or "O").
func Encode(p game.Position) string {
	b, w, _ := p.Bitboards()
	c := "X"
	if p.ToMove() == game.White {
		c = "O"
	}
	return strconv.FormatUint(b, 16) + "." + strconv.FormatUint(w, 16) + "." + c
}

// Decode reads what Encode wrote: an 8x8 position with no disc on both
// sides' boards, the four centre squares taken, and at most MaxEmpties
// empty squares (the state comes back from a client, which may forge it).
func Decode(s string) (game.Position, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 || (parts[2] != "X" && parts[2] != "O") {
		return game.Position{}, fmt.Errorf("drill: %q is not a position", s)
	}
	b, err1 := strconv.ParseUint(parts[0], 16, 64)
	w, err2 := strconv.ParseUint(parts[1], 16, 64)
	if err1 != nil || err2 != nil || b&w != 0 {
		return game.Position{}, fmt.Errorf("drill: %q is not a position", s)
	}
	const centre = 1<<27 | 1<<28 | 1<<35 | 1<<36
	if (b|w)&centre != centre {
		return game.Position{}, fmt.Errorf("drill: %q has an empty centre", s)
	}
	cells := make([]game.Color, 64)
	for i := range cells {
		switch {
		case b>>i&1 == 1:
			cells[i] = game.Black
		case w>>i&1 == 1:
			cells[i] = game.White
		}
	}
	toMove := game.Black
	if parts[2] == "O" {
		toMove = game.White
	}
	p, err := game.FromCells(8, cells, toMove)
	if err != nil {
		return game.Position{}, fmt.Errorf("drill: %w", err)
	}
	if p.Empties() > MaxEmpties {
		return game.Position{}, fmt.Errorf("drill: %d empty squares is past the solver's quick reach", p.Empties())
	}
	return p, nil
}

// Scorer scores every move exactly (the engine's ScoreMoves).
type Scorer interface {
	ScoreMoves(ctx context.Context, p game.Position, depth, exactFrom int) ([]engine.MoveEval, error)
}

// Lost is what move loses in p against the best, in discs, exactly, and
// the best move.
func Lost(ctx context.Context, s Scorer, p game.Position, move game.Square) (int, game.Square, error) {
	scores, err := s.ScoreMoves(ctx, p, 0, 64)
	if err != nil {
		return 0, game.Pass, err
	}
	for _, m := range scores {
		if m.Move == move {
			return (scores[0].Eval.Cents - m.Eval.Cents) / 100, scores[0].Move, nil
		}
	}
	return 0, game.Pass, fmt.Errorf("drill: %s is not a move here", move)
}

// Perfect is the final margin for the side to move with best play on both
// sides, in discs.
func Perfect(ctx context.Context, s Scorer, p game.Position) (int, error) {
	if p.GameOver() {
		return Final(p, p.ToMove()), nil
	}
	sign := 1
	if p.MustPass() {
		p, sign = p.Pass(), -1
	}
	scores, err := s.ScoreMoves(ctx, p, 0, 64)
	if err != nil {
		return 0, err
	}
	return sign * scores[0].Eval.Cents / 100, nil
}

// Final is a finished game's margin for c, the empty squares going to the
// winner, as the solver counts them.
func Final(p game.Position, c game.Color) int {
	b, w := p.Count()
	d, empty := b-w, p.Size()*p.Size()-b-w
	switch {
	case d > 0:
		d += empty
	case d < 0:
		d -= empty
	}
	if c == game.White {
		return -d
	}
	return d
}
