package bot

// This file is /hint: the engine's suggestion, only for the player to move.

import (
	"context"
	"fmt"
	"strings"

	"othello-bot/catalog"
	"othello-bot/engine"
)

func (s *Service) hint(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me := req.Me()
	color, playing := playerColor(g, req.User.ID)
	switch {
	case !playing:
		return Refuse(me.T("hint.not_player")), nil
	case g.Rated:
		return Refuse(me.T("hint.rated")), nil
	case g.Position().ToMove() != color:
		return Refuse(me.T("hint.not_your_turn")), nil
	}
	actx, cancel := context.WithTimeout(ctx, s.cfg.EngineMoveTime)
	defer cancel()
	evals, err := s.eng.Analyze(actx, g.Position())
	if err != nil {
		return Response{}, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	var lines []string
	exact, book := true, false
	for i, e := range evals {
		if i == 3 {
			break
		}
		exact = exact && e.Eval.Exact
		line := "**" + e.Move.String() + "** " + describeEval(me, e.Eval)
		if e.Book {
			line += " " + me.T("hint.book")
			book = true
		}
		lines = append(lines, line)
	}
	unit := me.T("hint.unit")
	if exact {
		unit = me.T("hint.unit_exact")
	}
	if book {
		unit += "\n" + me.T("hint.book_legend")
	}
	return Response{Message: &Message{Ephemeral: true, Content: me.T("hint.suggestion", "Moves", strings.Join(lines, " · ")) + "\n" + unit}}, nil
}

func describeEval(t *catalog.Printer, e engine.Eval) string {
	d := e.Cents / 100
	switch {
	case e.Exact && d > 0:
		return t.T("hint.wins_by", "Count", d)
	case e.Exact && d < 0:
		return t.T("hint.loses_by", "Count", -d)
	case e.Exact:
		return t.T("hint.draw")
	}
	return t.T("hint.discs", "Discs", fmt.Sprintf("%+.1f", e.Discs()))
}
