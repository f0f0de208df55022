package bot

// This file is the exact timers: each game's next deadline or ping armed
// on the wall clock, so a flag falls at its time and not at the next tick.
// The database stays the truth (a timer only makes the tick's work come
// on time), and every change it leads to is conditional on the game's
// version, so a timer that fires in two processes, or after the game
// moved on, changes nothing twice.

import (
	"context"
	"runtime/debug"
	"time"

	"othello-bot/record"
)

// timerHorizon is how far ahead each tick arms the timers of games due:
// past the next tick, so a deadline set in another process, or before a
// restart, fires on time here too.
const timerHorizon = 10 * time.Second

// nextTimer is when g's timer is next due: its ping, if one is still to
// come (at RemindAt, or the configured time before the deadline), or its
// deadline; zero when it has none.
func (s *Service) nextTimer(g *record.Game) time.Time {
	if g.Status != record.Active || g.Deadline.IsZero() {
		return time.Time{}
	}
	remind := g.RemindAt
	if remind.IsZero() {
		remind = g.Deadline.Add(-s.cfg.ReminderBefore)
	}
	if !g.Reminded && remind.Before(g.Deadline) {
		return remind
	}
	return g.Deadline
}

// Arm sets g's timer for its next due time (replacing the one armed
// before), or clears it when it has none. Without ExactTimers it does
// nothing: the tick fires the timers (the terminal's clock is its own).
func (s *Service) Arm(g *record.Game) {
	if !s.cfg.ExactTimers {
		return
	}
	// A live game's timer keeps the game as committed, its flag tried on
	// it without a read; any other timer keeps only where the game is
	// (it reads the game when it fires, a day off or more).
	armed := &record.Game{ID: g.ID, ChannelID: g.ChannelID}
	if live(g) {
		armed = g.Clone()
	}
	s.alarms.Set(g.ID, s.nextTimer(g), s.clock.Now(), func() {
		s.Task(s.background, "timer", func(ctx context.Context) {
			s.fireGameTimer(ctx, armed, s.clock.Now())
		})
	})
}

// survive, deferred, keeps a panic in work no request waits for (a timer,
// a tick) from taking the process down: it is logged, and the database
// keeps the timer for the next tick to try again.
func (s *Service) Survive(ctx context.Context, what string) {
	if r := recover(); r != nil {
		s.Logger(ctx).Error(what+" panic", "panic", r, "stack", string(debug.Stack()))
	}
}
