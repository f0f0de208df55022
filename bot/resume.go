package bot

// This file is the restart: games where the bot was to move go on.

import (
	"context"
	"errors"
	"time"

	"othello-bot/record"
)

// Resume picks up after a restart: the bot moves in every game where it is
// to move, and games that ended as the process stopped are finished. Each
// gets a fresh message in its channel. The timers that fell due while the
// bot was away are the scheduler's next tick.
func (s *Service) Resume(ctx context.Context) error {
	return s.resume(ctx, func(*record.Game) bool { return true })
}

// ResumeOrphans is Resume for processes sharing a database: it picks up
// only the games where the bot has been to move for longer than idle,
// those whose process stopped while thinking; a game another process is
// thinking about right now is left to it. The timer holder runs it with
// each tick.
func (s *Service) ResumeOrphans(ctx context.Context, idle time.Duration) error {
	cutoff := s.clock.Now().Add(-idle)
	games, err := s.games.StalledGames(ctx, cutoff)
	if err != nil {
		return err
	}
	return s.resumeGames(ctx, games, func(*record.Game) bool { return true }) // all idle since cutoff
}

func (s *Service) resume(ctx context.Context, orphaned func(*record.Game) bool) error {
	games, err := s.games.ActiveGames(ctx)
	if err != nil {
		return err
	}
	return s.resumeGames(ctx, games, orphaned)
}

func (s *Service) resumeGames(ctx context.Context, games []*record.Game, orphaned func(*record.Game) bool) error {
	for _, g := range games {
		if !g.State.Over() && !g.ToMove().IsBot() || !orphaned(g) {
			continue
		}
		s.Logger(ctx).Info("resuming game", "game", g.ID, "channel", g.ChannelID)
		token, tokenValid := g.ReplyToken, g.ReplyToken != "" && s.clock.Now().Before(g.ReplyExpires)
		unlock := s.LockChannel(g.ChannelID)
		pub := s.PublicPrinter(ctx, g.GuildID)
		notes, err := s.advance(ctx, pub, g)
		unlock()
		if errors.Is(err, record.ErrStale) {
			// A command handled while we started (or another process)
			// moved the game on: it is in hand, nothing to resume.
			s.Logger(ctx).Info("resume: the game moved on meanwhile", "game", g.ID)
			continue
		}
		if err != nil {
			s.Logger(ctx).Error("resume", "game", g.ID, "err", err)
			continue
		}
		msg := s.GameMessage(pub, g, append([]string{pub.T("resume.back")}, notes...))
		if tokenValid {
			// Finish the reply the player has been looking at.
			s.fitOut(ctx, msg)
			id, err := s.notify.EditReply(ctx, token, *msg)
			if err == nil {
				s.Posted(ctx, g.ChannelID, msg, id)
				continue
			}
			s.Logger(ctx).Warn("resume: finishing the reply in flight", "game", g.ID, "err", err)
		}
		if err := s.SendOrKeep(ctx, g.ChannelID, *msg); err != nil {
			s.Logger(ctx).Error("resume: posting", "game", g.ID, "err", err)
		}
	}
	return nil
}
