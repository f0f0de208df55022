// Package takeback is /undo: in a casual game against the bot, the player
// takes back their last move and the bot's reply. It mounts on the core
// service (package bot) as a capability.
package takeback

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
)

// Store is the one write a takeback makes.
type Store interface {
	// TakeBack rewinds an active game to its first keep plies, as of
	// the game's version (record.ErrStale, record.ErrNotActive).
	TakeBack(ctx context.Context, g *record.Game, keep int, t record.Turn) error
}

// Core is what a takeback uses of the core service.
type Core interface {
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	LockChannel(id string) func()
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
}

// Service answers /undo.
type Service struct {
	Core
	store Store
	// abandonAfter is how long a game against the bot waits for its
	// player (0: forever); a takeback starts that wait again.
	abandonAfter time.Duration
}

// New builds the capability.
func New(core Core, store Store, abandonAfter time.Duration) *Service {
	return &Service{Core: core, store: store, abandonAfter: abandonAfter}
}

// Routes answers /undo.
func (s *Service) Routes() map[string]bot.Handler { return map[string]bot.Handler{"undo": s.undo} }

func (s *Service) undo(ctx context.Context, req bot.Request) (bot.Response, error) {
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me, pub := req.Me(), req.Pub()
	color, playing := bot.PlayerColor(g, req.User.ID)
	switch {
	case !playing:
		return bot.Refuse(me.T("error.not_playing")), nil
	case !g.Black.IsBot() && !g.White.IsBot():
		return bot.Refuse(me.T("undo.pvp")), nil
	case g.Rated:
		return bot.Refuse(me.T("undo.rated")), nil
	case g.Control.Live():
		return bot.Refuse(me.T("undo.clock")), nil
	case g.ToMove().IsBot():
		return bot.Refuse(me.T("undo.thinking")), nil
	}
	plies := g.Plies()
	keep := -1
	for i := len(plies) - 1; i >= 0; i-- {
		if plies[i].Color == color && !plies[i].Square.IsPass() {
			keep = i
			break
		}
	}
	if keep < 0 {
		return bot.Refuse(me.T("undo.nothing")), nil
	}
	var taken []string
	for _, p := range plies[keep:] {
		if !p.Square.IsPass() {
			taken = append(taken, "**"+p.Square.String()+"**")
		}
	}
	now := s.Now()
	t := record.Turn{At: now}
	if s.abandonAfter > 0 {
		t.Deadline = now.Add(s.abandonAfter)
		t.RemindAt = t.Deadline // no reminder against the bot
	}
	if err := s.store.TakeBack(ctx, g, keep, t); err != nil {
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			return bot.Refuse(me.T("error.changed_meanwhile")), nil
		}
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("takeback", "game", g.ID, "plies", len(plies)-keep)
	note := pub.T("undo.took_back", "Name", bot.Escape(req.User.Name), "Moves", joinAnd(pub, taken))
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
