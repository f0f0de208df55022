// Package takeback is /undo: in a casual game against the bot, the player
// takes back their last move and the bot's reply. It mounts on the core
// service (package bot) as a capability.
package takeback

import (
	"context"
	"errors"
	"log/slog"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/play"
	"othello-bot/record"
)

// Core is what a takeback uses of the core service.
type Core interface {
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	LockChannel(id string) func()
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	Flow() *play.Flow
	Logger(ctx context.Context) *slog.Logger
}

// Service answers /undo.
type Service struct{ Core }

// New builds the capability.
func New(core Core) *Service { return &Service{Core: core} }

// Routes answers /undo.
func (s *Service) Routes() map[string]bot.Handler { return map[string]bot.Handler{"undo": s.undo} }

// refusals put the flow's refusals of a takeback in words.
var refusals = []struct {
	err error
	key string
}{{play.ErrNotPlaying, "error.not_playing"}, {play.ErrBetweenMembers, "undo.pvp"}, {play.ErrRated, "undo.rated"},
	{play.ErrOnClock, "undo.clock"}, {play.ErrBotThinking, "undo.thinking"}, {play.ErrNothingToTake, "undo.nothing"},
	{record.ErrStale, "error.changed_meanwhile"}, {record.ErrNotActive, "error.changed_meanwhile"}}

func (s *Service) undo(ctx context.Context, req bot.Request) (bot.Response, error) {
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me, pub := req.Me(), req.Pub()
	taken, err := s.Flow().TakeBack(ctx, g, req.User.ID)
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return bot.Refuse(me.T(r.key)), nil
		}
	}
	if err != nil {
		return bot.Response{}, err
	}
	var moves []string
	for _, p := range taken {
		if !p.Square.IsPass() {
			moves = append(moves, "**"+p.Square.String()+"**")
		}
	}
	s.Logger(ctx).Info("takeback", "game", g.ID, "plies", len(taken))
	note := pub.T("undo.took_back", "Name", bot.Escape(req.User.Name), "Moves", joinAnd(pub, moves))
	return bot.Response{Message: s.GameMessage(pub, g, []string{note})}, nil
}

// joinAnd lists things in the reader's words: "d3 and c5".
func joinAnd(t *catalog.Printer, items []string) string {
	if len(items) == 0 {
		return ""
	}
	out := items[0]
	for _, it := range items[1:] {
		out = t.T("list.and", "A", out, "B", it)
	}
	return out
}
