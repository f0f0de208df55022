package bot

// This file is /hint: the engine's suggestion, only for the player to move.

import (
	"context"
	"fmt"
	"strings"

	"othello-bot/engine"
)

func (s *Service) hint(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	color, playing := playerColor(g, req.User.ID)
	switch {
	case !playing:
		return refuse("Hints are for the players of this game."), nil
	case g.Rated:
		return refuse("Hints are off in rated games."), nil
	case g.Position().ToMove() != color:
		return refuse("It's not your turn; ask again when it is."), nil
	}
	actx, cancel := context.WithTimeout(ctx, s.cfg.EngineMoveTime)
	defer cancel()
	evals, err := s.eng.Analyze(actx, g.Position())
	if err != nil {
		return Response{}, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	var lines []string
	exact := true
	for i, e := range evals {
		if i == 3 {
			break
		}
		exact = exact && e.Eval.Exact
		lines = append(lines, fmt.Sprintf("**%s** %s", e.Move, describeEval(e.Eval)))
	}
	unit := "Numbers: the final disc margin I expect for you (+ ahead, − behind)."
	if exact {
		unit = "Solved exactly: the final disc margin with perfect play from both sides."
	}
	return Response{Message: &Message{Ephemeral: true, Content: "My suggestion: " + strings.Join(lines, " · ") + "\n" + unit}}, nil
}

func describeEval(e engine.Eval) string {
	d := e.Cents / 100
	switch {
	case e.Exact && d > 0:
		return fmt.Sprintf("(wins by %d with perfect play)", d)
	case e.Exact && d < 0:
		return fmt.Sprintf("(loses by %d with perfect play)", -d)
	case e.Exact:
		return "(a draw with perfect play)"
	}
	return fmt.Sprintf("(%+.1f discs)", e.Discs())
}
