package storage

// This file is "Watch in Discord" presses waiting for the Activity to open
// their game, shared by every process on the database.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RememberOpening keeps a person's press in a channel on a game (public
// id) until the Activity takes it, replacing one before it there; presses
// older than forgetBefore go.
func (s *Store) RememberOpening(ctx context.Context, userID, channelID, publicID string, at, forgetBefore time.Time) error {
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM activity_opens WHERE pressed_at < ?`, millis(forgetBefore)); err != nil {
		return fmt.Errorf("forgetting old Activity presses: %w", err)
	}
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO activity_opens (user_id, channel_id, public_id, pressed_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, channel_id) DO UPDATE SET public_id = excluded.public_id, pressed_at = excluded.pressed_at`,
		userID, channelID, publicID, millis(at))
	if err != nil {
		return fmt.Errorf("remembering an Activity press in %s: %w", channelID, err)
	}
	return nil
}

// TakeOpening takes a person's press in a channel, once: the game's public
// id if it was made at or after since, else "".
func (s *Store) TakeOpening(ctx context.Context, userID, channelID string, since time.Time) (string, error) {
	var id string
	var at int64
	err := s.wdb.QueryRowContext(ctx, `DELETE FROM activity_opens WHERE user_id = ? AND channel_id = ? RETURNING public_id, pressed_at`,
		userID, channelID).Scan(&id, &at)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("taking an Activity press in %s: %w", channelID, err)
	case at < millis(since):
		return "", nil
	}
	return id, nil
}
