// Package downtime gives back the time the bot was away: a heartbeat in
// the store while it runs, and on start every clock that ran while
// nobody could move stood still, so a restart charges no one and no flag
// falls for it (as lichess does after its own restarts). It mounts on
// the core service (package bot) beside the capabilities.
package downtime

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
)

// aliveSetting keeps the last heartbeat, in Unix milliseconds.
const aliveSetting = "alive_at"

// Grace is how long after a start a clock given back stays still, so
// players see the bot is back before their time runs again.
const Grace = 10 * time.Second

// Store is what downtime keeps and reads.
type Store interface {
	// ActiveGames loads every active game.
	ActiveGames(ctx context.Context) ([]*record.Game, error)
	// Setting reads a small value kept between runs ("" if none);
	// SetSetting writes one.
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
	// Now is the store's clock, the one every process sharing it agrees
	// on (PostgreSQL's): a shared store's heartbeats are on it.
	Now(ctx context.Context) (time.Time, error)
	// Ping says whether the store answers (see Watch).
	Ping(ctx context.Context) error
}

// Core is what downtime needs of the game flow: *bot.Service is one.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	// StandStill stands a game's clock still over a span; false when
	// that changed nothing.
	StandStill(ctx context.Context, g *record.Game, from, until time.Time) (bool, error)
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	SendOrKeep(ctx context.Context, channelID string, m bot.Message) error
}

// Service beats and gives back.
type Service struct {
	core  Core
	store Store
	every time.Duration // how often a running bot beats
	// shared: other processes may be beating too, so a start within a
	// beat of the last is no absence.
	shared bool

	mu     sync.Mutex
	untold []notice // games given time back, to be told (see Tell)
	// also give back what else runs on a clock (puzzle tries): each is
	// told the absence, from when (on this process's clock) and how long.
	also []func(ctx context.Context, since time.Time, away time.Duration) error

	out outages // spans while running (outages.go)
}

// Also gives back, after each absence, what else runs on a clock.
func (s *Service) Also(f func(ctx context.Context, since time.Time, away time.Duration) error) {
	s.also = append(s.also, f)
}

// notice is a game given time back after an absence of away, its clock
// running again at resumes.
type notice struct {
	game    *record.Game
	away    time.Duration
	resumes time.Time
}

// New returns the service for a bot that beats every `every`.
func New(core Core, store Store, every time.Duration, shared bool) *Service {
	return &Service{core: core, store: store, every: every, shared: shared}
}

// Beat records that the bot is up now. Every process sharing the store
// beats on each tick, holding the timers or not.
func (s *Service) Beat(ctx context.Context) error {
	now, err := s.beatClock(ctx)
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	if err := s.store.SetSetting(ctx, aliveSetting, strconv.FormatInt(now.UnixMilli(), 10)); err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	return nil
}

// beatClock is the clock heartbeats are on: the shared store's, which all
// its processes agree on; alone, the bot's own (in `local`, the script's).
func (s *Service) beatClock(ctx context.Context) (time.Time, error) {
	if !s.shared {
		return s.core.Now(), nil
	}
	return s.store.Now(ctx)
}

// LastBeat is the last heartbeat; zero if none was ever stored (or it
// cannot be read: the next beat mends it).
func (s *Service) LastBeat(ctx context.Context) (time.Time, error) {
	v, err := s.store.Setting(ctx, aliveSetting)
	if err != nil || v == "" {
		return time.Time{}, err
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, nil
	}
	return time.UnixMilli(ms).UTC(), nil
}

// GiveBack runs on start, before any timer fires or request is answered.
// The bot was away from its last heartbeat until now unless, sharing the
// store, another process beat within one and a half beats. Then every
// running live clock stands still from the last beat (see charged): those
// whose time came due while it was away, or comes due within Grace, until
// Grace from now, and after an absence of over two beats every running
// game does, and Tell then says so. A flag that fell
// before the last beat stands. It returns how long the bot was away
// (zero when it was not).
func (s *Service) GiveBack(ctx context.Context) (time.Duration, error) {
	last, err := s.LastBeat(ctx)
	if err != nil {
		return 0, err
	}
	// The absence on the store's clock (a process whose own clock is off
	// neither hides nor invents one), laid on this process's clock, which
	// its games' clocks run on.
	dbNow, err := s.beatClock(ctx)
	if err != nil {
		return 0, err
	}
	away := dbNow.Sub(last)
	if last.IsZero() || away <= 0 || s.shared && away <= s.every*3/2 {
		return 0, s.Beat(ctx)
	}
	now := s.core.Now()
	last = now.Add(-away)
	if err := s.giveBack(ctx, last, now, away, nil); err != nil {
		return away, err
	}
	s.core.Logger(ctx).Info("the bot was away: time given back", "away", away, "since", last)
	// The beat last: an absence cut short by a crash is given back from
	// the same beat next time (a clock already moved past it moves only
	// by the new part).
	return away, s.Beat(ctx)
}

// giveBack stands still the running clocks of the games in the servers
// covers says (nil: all) over an absence from last until now (see charged), notes whom to
// tell, and gives back what else runs on a clock.
func (s *Service) giveBack(ctx context.Context, last, now time.Time, away time.Duration, covers func(guildID string) bool) error {
	games, err := s.store.ActiveGames(ctx)
	if err != nil {
		return err
	}
	until := now.Add(Grace)
	long := away > 2*s.every
	for _, g := range games {
		if covers != nil && !covers(g.GuildID) {
			continue
		}
		end, tell := charged(g, last, now, until, long)
		if end.IsZero() {
			continue
		}
		changed, err := s.core.StandStill(ctx, g, last, end)
		if err != nil {
			return err
		}
		if changed && tell {
			s.mu.Lock()
			s.untold = append(s.untold, notice{g, away, until})
			s.mu.Unlock()
		}
	}
	for _, f := range s.also {
		if err := f(ctx, last, away); err != nil {
			return err
		}
	}
	return nil
}

// charged says until when g's running turn stands still for the bot's
// absence since last (zero: not at all), and whether its players are
// told. Time the bot could not take a move is never charged: a live
// clock stands still until now whatever the absence; one whose time was
// due meanwhile or within the grace, or any clock after a long absence,
// until the grace is over, and its players are told. A short absence
// costs a correspondence clock (days a move) nothing worth a write.
func charged(g *record.Game, last, now, until time.Time, long bool) (end time.Time, tell bool) {
	if g.Status != record.Active || g.State.Over() || g.Deadline.IsZero() || !g.Deadline.After(last) {
		return time.Time{}, false
	}
	switch {
	case long || !g.Deadline.After(until):
		return until, true
	case g.Control.Live():
		return now, false
	}
	return time.Time{}, false
}

// Tell shows each game on a clock with a member to move that GiveBack
// gave time back its board, the time given and when the clock runs again
// (the bot's own move after a restart says it is back). It is apart from
// GiveBack so that a start asks Discord nothing before its gateway opens.
func (s *Service) Tell(ctx context.Context) {
	s.mu.Lock()
	untold := s.untold
	s.untold = nil
	s.mu.Unlock()
	for _, n := range untold {
		g := n.game
		if !g.Control.Live() || g.ToMove().IsBot() {
			continue
		}
		pub := s.core.PublicPrinter(ctx, g.GuildID)
		note := pub.T("downtime.given_back", "Away", pub.Duration(n.away.Round(time.Second)),
			"Side", bot.SideName(pub, g.ToMove()), "When", bot.Stamp(n.resumes, bot.StampRelative))
		if err := s.core.SendOrKeep(ctx, g.ChannelID, *s.core.GameMessage(pub, g, []string{note})); err != nil {
			s.core.Logger(ctx).Warn("saying the time was given back", "game", g.ID, "err", err)
		}
	}
}
