// Package habits keeps the engine's picture of how people open fresh: from
// the named opening lines and the latest finished games (the players'
// moves, not the bot's), counted by package habit, handed to the engine's
// erring levels (engine.SetHabits). Each process keeps its own engine, so
// each refreshes its own, whether or not it holds the timers.
package habits

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/habit"
	"othello-bot/opening"
)

// Store gives the games the counts come from.
type Store interface {
	// OpeningGames are the latest finished 8x8 games from the standard
	// start, newest first.
	OpeningGames(ctx context.Context, limit int) ([]habit.Game, error)
}

// Every is how often the counts are made again; Games how many of the
// latest games they count.
const (
	Every = time.Hour
	Games = 5000
)

// Service refreshes the engine's habits.
type Service struct {
	store Store
	eng   *engine.Engine
	log   *slog.Logger

	mu   sync.Mutex
	next time.Time
}

// New returns the refresher; nothing is counted before its first Refresh.
func New(store Store, eng *engine.Engine, log *slog.Logger) *Service {
	return &Service{store: store, eng: eng, log: log}
}

// Refresh counts again when due (at once the first time, then every
// Every) and gives the engine the new counts. A failing store leaves the
// old counts and tries again at the next tick.
func (s *Service) Refresh(ctx context.Context, now time.Time) {
	s.mu.Lock()
	if now.Before(s.next) {
		s.mu.Unlock()
		return
	}
	s.next = now.Add(Every)
	s.mu.Unlock()
	t, err := Count(ctx, s.store)
	if err != nil {
		s.log.Error("counting how people open", "err", err)
		s.mu.Lock()
		s.next = now
		s.mu.Unlock()
		return
	}
	s.eng.SetHabits(t)
	s.log.Debug("opening habits counted", "games", t.Games(), "positions", t.Positions())
}

// Count makes the table: every named opening line once, then the latest
// Games games.
func Count(ctx context.Context, store Store) (*habit.Table, error) {
	t := habit.New()
	everyone := func(int, game.Color) bool { return true }
	for _, o := range opening.Standard().All() {
		t.Add(o.Moves, everyone, 1)
	}
	games, err := store.OpeningGames(ctx, Games)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		t.AddGame(g)
	}
	return t, nil
}
