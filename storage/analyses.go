package storage

// This file keeps game analyses, so each is computed once.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
)

// Analysis returns the stored analysis of a game, or record.ErrNotFound.
func (s *Store) Analysis(ctx context.Context, gameID int64) ([]byte, error) {
	var report string
	err := s.db.QueryRowContext(ctx, `SELECT report FROM analyses WHERE game_id = ?`, gameID).Scan(&report)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading the analysis of game %d: %w", gameID, err)
	}
	return []byte(report), nil
}

// SaveAnalysis stores a game's analysis, replacing any earlier one.
func (s *Store) SaveAnalysis(ctx context.Context, gameID int64, report []byte, at time.Time) error {
	return s.inTx(ctx, func(tx *dbTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO analyses (game_id, report, created_at) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET report = excluded.report, created_at = excluded.created_at`,
			gameID, string(report), millis(at))
		if err != nil {
			return fmt.Errorf("saving the analysis of game %d: %w", gameID, err)
		}
		return nil
	})
}
