package ranks

// This file finishes what a crash cut short: role changes Discord was
// asked for whose answer was never recorded, and servers whose members
// were being given their roles.

import (
	"context"
	"errors"
	"time"

	"othello-bot/bot"
	"othello-bot/schedule"
)

const (
	// reconcileEvery is how often the holder of the timers looks for
	// unfinished role changes (and on its first tick, as it starts).
	reconcileEvery = time.Minute
	// reconcileBatch bounds the changes finished in one look.
	reconcileBatch = 500
)

// Jobs is the rating roles' timed work: Reconcile, on start and then every
// minute, in the background (it waits on Discord's pace).
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{{Name: "rating roles", Run: func(_ context.Context, now time.Time) {
		if s.roles == nil {
			return
		}
		s.mu.Lock()
		due := !s.reconciling && (s.reconciled.IsZero() || now.Sub(s.reconciled) >= reconcileEvery)
		if due {
			s.reconciled, s.reconciling = now, true
		}
		s.mu.Unlock()
		if !due {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			ctx := s.Background()
			if err := s.Reconcile(ctx); err != nil && ctx.Err() == nil {
				s.Logger(ctx).Warn("rating roles: finishing what was cut short", "err", err)
			}
			s.mu.Lock()
			s.reconciling = false
			s.mu.Unlock()
		}()
	}}}
}

// Reconcile asks Discord again for each role change it was asked for and
// whose answer was never recorded (giving or taking a role twice is the
// same as once), and carries on giving a server's members their roles
// where that was cut short.
func (s *Service) Reconcile(ctx context.Context) error {
	list, err := s.store.PendingRanks(ctx, reconcileBatch)
	if err != nil {
		return err
	}
	finished := 0
	for _, p := range list {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if s.problem(p.GuildID) == problemForbidden {
			continue // refused already: asked again when roles are turned on again
		}
		unlock := s.change.Lock(p.GuildID)
		err := s.apply(ctx, p.GuildID, p.PlayerID, p.RoleID, p.Holding)
		unlock()
		switch {
		case err == nil:
			finished++
		case !errors.Is(err, bot.ErrForbidden) && !errors.Is(err, bot.ErrLimitReached):
			s.Logger(ctx).Warn("rating roles: a change cut short", "guild", p.GuildID, "player", p.PlayerID, "role", p.RoleID, "err", err)
		}
	}
	if finished > 0 {
		s.Logger(ctx).Info("rating roles: changes cut short finished", "count", finished)
	}
	backfills, err := s.store.RolesBackfills(ctx)
	if err != nil {
		return err
	}
	for guildID, step := range backfills {
		s.mu.Lock()
		running := s.backfill[guildID] != nil
		s.mu.Unlock()
		if !running && s.problem(guildID) != problemForbidden {
			s.Logger(ctx).Info("rating roles: giving members their roles again, where it was cut short", "guild", guildID)
			s.giveAll(guildID, step)
		}
	}
	return nil
}
