package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"othello-bot/record"
)

// NextDeadline returns the earliest deadline of an active game (zero if
// none), so a timer can sleep until then.
func (s *Store) NextDeadline(ctx context.Context) (time.Time, error) {
	var n sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT min(deadline_at) FROM games WHERE status = 'active' AND deadline_at IS NOT NULL`).Scan(&n)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading deadlines: %w", err)
	}
	return fromNullMillis(n), nil
}

// SaveRating writes a player's rating in a scope.
func (s *Store) SaveRating(ctx context.Context, r record.Rating) error {
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, r.Player, r.UpdatedAt); err != nil {
			return err
		}
		return saveRating(ctx, tx, r)
	})
}

// LatestVersion is the schema version this binary brings.
func LatestVersion() int {
	ms, err := loadMigrations(sqliteDB)
	if err != nil {
		return 0
	}
	return len(ms)
}
