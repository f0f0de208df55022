package storage

// This file is small facts the bot keeps between runs.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Setting reads a value kept between runs ("" if never set).
func (s *Store) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading setting %s: %w", key, err)
	}
	return v, nil
}

// SetSetting keeps a value between runs.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("writing setting %s: %w", key, err)
	}
	return nil
}
