package bot

// This file is where game messages live: one live message per game, final
// states, replies finished after a restart, and each request's logger.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"othello-bot/place"

	"othello-bot/record"
)

// replyTokenLife is how long Discord lets a bot edit its reply to an
// interaction.
const replyTokenLife = place.TokenLife

// Posted is told by an adapter where a live game message went (m.Game
// set): it becomes the game's live message, and the one before it loses
// its menu and buttons, so only one message ever acts on a game. A message
// that arrives after a newer one loses its own instead.
func (s *Service) Posted(ctx context.Context, channelID string, m *Message, messageID string) {
	if m != nil && m.posted != nil && messageID != "" {
		m.posted(ctx, messageID)
	}
	if m == nil || m.Game == nil || messageID == "" || m.Game.Recorded == messageID {
		return // (the turns' own writes recorded it: a move's answer editing its message)
	}
	log := s.Logger(ctx)
	previous, live, err := s.games.SetGameMessage(ctx, m.Game.ID, m.Game.Version, messageID)
	if err != nil {
		log.Error("recording the game message", "game", m.Game.ID, "message", messageID, "err", err)
		return
	}
	stale := previous
	if !live {
		stale = messageID
	}
	if stale == "" {
		return
	}
	if err := s.notify.RemoveComponents(ctx, channelID, stale); errors.Is(err, ErrUnreachable) {
		log.Debug("an old game message keeps its menu: no way to edit it here now", "game", m.Game.ID, "message", stale)
	} else if err != nil {
		// Deleted by someone, or the channel is gone: the old menu refuses
		// moves anyway (it names the ply it was for).
		log.Warn("removing an old game message's menu", "game", m.Game.ID, "message", stale, "err", err)
	}
}

// ShowFinal puts a finished game's final state where the players look:
// the live game message is edited to it; without one (or if that fails)
// it is posted anew. It reports whether anyone in the channel sees it.
func (s *Service) ShowFinal(ctx context.Context, g *record.Game, m Message) bool {
	s.fitOut(ctx, &m)
	// The final state is the game's newest version: recorded as such, a
	// game message posted meanwhile (a /board answered while the game
	// ended) is older and loses its menu, whichever lands first.
	m.Game = &GameRef{ID: g.ID, Version: g.Version}
	if g.MessageID != "" {
		err := s.notify.Edit(ctx, g.ChannelID, g.MessageID, m)
		if err == nil {
			s.Posted(ctx, g.ChannelID, &m, g.MessageID)
			return true
		}
		s.Logger(ctx).Warn("editing the game message to its final state", "game", g.ID, "message", g.MessageID, "err", err)
	}
	id, err := s.notify.Send(ctx, g.ChannelID, m)
	if errors.Is(err, ErrUnreachable) {
		// Where the bot is no member and no reply token lives: the final
		// board waits for the channel's next interaction.
		if err := s.keepNotice(ctx, g.ChannelID, m); err != nil {
			s.Logger(ctx).Error("keeping the final state for later", "game", g.ID, "err", err)
		}
		return true
	}
	if err != nil {
		s.Logger(ctx).Warn("posting the final state", "game", g.ID, "err", err)
		return false
	}
	s.Posted(ctx, g.ChannelID, &m, id)
	return true
}

// Send posts a message (after fitting it to Discord's limits) and, for a
// game message, makes it the live one.
func (s *Service) Send(ctx context.Context, channelID string, m Message) (string, error) {
	s.fitOut(ctx, &m)
	id, err := s.notify.Send(ctx, channelID, m)
	if err != nil {
		return "", err
	}
	s.Posted(ctx, channelID, &m, id)
	return id, nil
}

// fitOut applies the last guard of Discord's limits to a message leaving
// the bot, logging what the builders let through.
func (s *Service) fitOut(ctx context.Context, m *Message) {
	if errs := m.fit(); len(errs) > 0 {
		s.Logger(ctx).Error("a message broke Discord's limits and was cut", "problems", fmt.Sprint(errs))
	}
}

type loggerKey struct{}

// WithLogger gives a request's work its own logger (say, one that names
// the request), so every line about one user's action can be found.
func WithLogger(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// Logger is the request's logger, or the service's.
func (s *Service) Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok && l != nil {
		return l
	}
	return s.log
}
