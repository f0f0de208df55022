package storage

import (
	"context"
	"fmt"
	"time"
)

// FirstSeen records that an interaction id arrived at and says whether it
// is the first time any process sharing the database saw it.
func (s *Store) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, id, millis(at))
	if err != nil {
		return false, fmt.Errorf("recording interaction %s: %w", id, err)
	}
	n, err := res.RowsAffected()
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
