package storage

// This file is what the store tells an operator's metrics: how long its
// transactions take and which fail, its connection pools, and a few
// counts read when metrics are scraped.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
)

// TxObserver hears of every transaction the store runs: how long it took
// (queueing for SQLite's writer included) and whether it failed. The
// refusals a caller expects (a game changed meanwhile, not found, not
// active) are outcomes, not failures.
type TxObserver func(took time.Duration, failed bool)

// ObserveTx makes f hear of each transaction from now on (the store may
// be in use already).
func (s *Store) ObserveTx(f TxObserver) { s.observeTx.Store(&f) }

func (s *Store) observe(start time.Time, err error) {
	f := s.observeTx.Load()
	if f == nil {
		return
	}
	expected := errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) || errors.Is(err, record.ErrNotFound) ||
		errors.Is(err, record.ErrChannelBusy)
	(*f)(time.Since(start), err != nil && !expected)
}

// Pools are the store's connection pools by role, for their statistics:
// "read" and "write" (one pool serves both on PostgreSQL's reads and
// writes alike, but each role has its own).
func (s *Store) Pools() map[string]*sql.DB {
	return map[string]*sql.DB{"read": s.db.DB, "write": s.wdb.DB}
}

// Counts are how much is going on, across every process on the database.
type Counts struct {
	LiveGames          int // active games on a live clock
	RunningTournaments int
	DailyPuzzles       int // daily puzzles posted, ever
}

// Count reads the Counts.
func (s *Store) Count(ctx context.Context) (Counts, error) {
	var c Counts
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM games WHERE status = 'active' AND time_base_ms > 0),
		(SELECT count(*) FROM tournaments WHERE status = 'running'),
		(SELECT count(*) FROM daily_puzzles WHERE posted_at IS NOT NULL)`).Scan(&c.LiveGames, &c.RunningTournaments, &c.DailyPuzzles)
	if err != nil {
		return c, fmt.Errorf("counting for metrics: %w", err)
	}
	return c, nil
}
