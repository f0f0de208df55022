package bot

// This file is who may end a game without a result (/abort is its own
// capability, bot/aborts), and games left without an end: a game against
// the bot whose player stopped moving ends as abandoned.

import (
	"context"
	"errors"

	"othello-bot/catalog"
	"othello-bot/record"
)

// Member permissions, as Discord numbers them, that make a moderator of
// games (see ModeratorPermission).
const (
	PermManageMessages int64 = 1 << 13
	PermManageThreads  int64 = 1 << 34
)

// ModeratorPermission is what makes a member a moderator of a game: Manage
// Threads for a game in its own thread, Manage Messages for one in a
// channel.
func ModeratorPermission(g *record.Game) int64 {
	if g.ParentID != "" {
		return PermManageThreads
	}
	return PermManageMessages
}

// MaxAbortReason bounds the reason a moderator gives (it goes into the
// results log and the game message).
const MaxAbortReason = 200

// abandon ends a game against the bot whose player has not moved within
// the inactivity timeout: no winner, no rating change.
func (s *Service) abandon(ctx context.Context, pub *catalog.Printer, g *record.Game) {
	if _, err := s.FinishWith(ctx, pub, g, record.Result{Reason: record.EndAbandoned}); err != nil {
		if !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
			s.Logger(ctx).Error("tick: abandoning", "game", g.ID, "err", err)
		}
		return
	}
	s.ShowFinal(ctx, g, *s.GameMessage(pub, g, []string{ResultLine(pub, g)}))
}
