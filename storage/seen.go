package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// FirstSeen records that an interaction id arrived at and says whether it
// is the first time any process sharing the database saw it.
func (s *Store) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	const insert = `INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`
	var n int64
	record := func(ctx context.Context, ex interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
	}) error {
		res, err := ex.ExecContext(ctx, insert, id, millis(at))
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	}
	var err error
	if s.dialect == sqliteDB {
		// In SQLite's group commit: one interaction's note shares its
		// transaction and sync with the writes queued beside it, instead
		// of taking the one write connection for a sync of its own.
		err = s.inTx(ctx, func(tx *dbTx) error { return record(ctx, tx) })
	} else {
		err = record(ctx, s.wdb)
	}
	if err != nil {
		return false, fmt.Errorf("recording interaction %s: %w", id, err)
	}
	return n == 1, nil
}

// ForgetSeen drops the interaction ids seen before a time; their requests'
// timestamps are refused as stale by then.
func (s *Store) ForgetSeen(ctx context.Context, before time.Time) error {
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM seen_interactions WHERE seen_at < ?`, millis(before)); err != nil {
		return fmt.Errorf("forgetting old interactions: %w", err)
	}
	return nil
}
