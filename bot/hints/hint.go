// Package hints is /hint: the engine's suggestion for the player to move,
// only for them, in games that are not rated. It mounts on the core
// service (package bot) as a capability.
package hints

import (
	"context"
	"fmt"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/record"
)

func (s *Service) hint(ctx context.Context, req bot.Request) (bot.Response, error) {
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me := req.Me()
	color, playing := bot.PlayerColor(g, req.User.ID)
	switch {
	case !playing:
		return bot.Refuse(me.T("hint.not_player")), nil
	case g.Rated:
		return bot.Refuse(me.T("hint.rated")), nil
	case g.Position().ToMove() != color:
		return bot.Refuse(me.T("hint.not_your_turn")), nil
	}
	// Bounded by nodes, a hint is the same on any machine; the deadline
	// (four move times) is a safety net for one far slower than planned,
	// and the answer says when it was reached.
	actx, cancel := context.WithTimeout(ctx, 4*s.moveTime)
	defer cancel()
	h, err := s.eng.Hint(actx, g.Position())
	if err != nil {
		return bot.Response{}, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	evals := h.Moves
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
	if h.CutShort {
		unit += "\n" + me.T("hint.cut_short")
	}
	return bot.Response{Message: &bot.Message{Ephemeral: true, Content: me.T("hint.suggestion", "Moves", strings.Join(lines, " · ")) + "\n" + unit}}, nil
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

// Core is what hints need of the shared flow: *bot.Service.
type Core interface {
	// ChannelGame is the channel's active game, or nil and the refusal.
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
}

// Service gives hints on a core, with the engine.
type Service struct {
	Core
	eng      *engine.Engine
	moveTime time.Duration
}

// New returns the hints capability: the engine thinks at most moveTime for
// a hint. Mount it on core.
func New(core Core, eng *engine.Engine, moveTime time.Duration) *Service {
	return &Service{Core: core, eng: eng, moveTime: moveTime}
}

// Routes answers /hint.
func (s *Service) Routes() map[string]bot.Handler { return map[string]bot.Handler{"hint": s.hint} }
