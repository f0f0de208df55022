package storage

// This file is follows: who in a server follows whom, to be pinged when
// they start a game.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/record"
)

// ToggleFollow makes follower follow followed in a server, or stop if
// they did: it reports whether they follow now.
func (s *Store) ToggleFollow(ctx context.Context, guildID, followerID string, followed record.Player, now time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `DELETE FROM follows WHERE guild_id = ? AND follower_id = ? AND followed_id = ?`,
		guildID, followerID, followed.ID)
	if err != nil {
		return false, fmt.Errorf("unfollowing in %s: %w", guildID, err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return false, nil
	}
	_, err = s.wdb.ExecContext(ctx, `INSERT INTO follows (guild_id, follower_id, followed_id, followed_name, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, guildID, followerID, followed.ID, followed.Name, millis(now))
	if err != nil {
		return false, fmt.Errorf("following in %s: %w", guildID, err)
	}
	return true, nil
}

// Following lists whom a member follows in a server, by name.
func (s *Store) Following(ctx context.Context, guildID, followerID string) ([]record.Player, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT followed_id, followed_name FROM follows WHERE guild_id = ? AND follower_id = ?
		ORDER BY followed_name, followed_id`, guildID, followerID)
	if err != nil {
		return nil, fmt.Errorf("reading follows in %s: %w", guildID, err)
	}
	defer rows.Close()
	var out []record.Player
	for rows.Next() {
		var p record.Player
		if err := rows.Scan(&p.ID, &p.Name); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Followers lists who follows a member in a server.
func (s *Store) Followers(ctx context.Context, guildID, followedID string) ([]string, error) {
	return s.ids(ctx, "reading followers", `SELECT follower_id FROM follows WHERE guild_id = ? AND followed_id = ?
		ORDER BY created_at, follower_id`, guildID, followedID)
}

// ids runs a query of one text column and lists its values.
func (s *Store) ids(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
