package storage

// This file is Othello TV: each server's channel, and the game its message
// shows.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/record"
)

// SetTV sets the channel where a server's best live game is followed (""
// for none); a new channel starts with no message.
func (s *Store) SetTV(ctx context.Context, guildID, channelID string, now time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO guilds (id, tv_channel, tv_message, tv_game, updated_at) VALUES (?, ?, '', 0, ?)
		ON CONFLICT (id) DO UPDATE SET tv_channel = excluded.tv_channel, tv_message = '', tv_game = 0,
		updated_at = excluded.updated_at`, guildID, channelID, millis(now))
	if err != nil {
		return fmt.Errorf("setting the TV channel of %s: %w", guildID, err)
	}
	return nil
}

// TVSettings lists the servers with a TV channel.
func (s *Store) TVSettings(ctx context.Context) ([]record.TVSetting, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, tv_channel, tv_message, tv_game FROM guilds WHERE tv_channel <> '' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("loading TV settings: %w", err)
	}
	defer rows.Close()
	var out []record.TVSetting
	for rows.Next() {
		var t record.TVSetting
		if err := rows.Scan(&t.GuildID, &t.ChannelID, &t.MessageID, &t.GameID); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// SaveTVShow records what a server's TV shows, if its channel is still
// channelID (a /settings tv: meanwhile wins).
func (s *Store) SaveTVShow(ctx context.Context, guildID, channelID, messageID string, gameID int64, now time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE guilds SET tv_message = ?, tv_game = ?, updated_at = ? WHERE id = ? AND tv_channel = ?`,
		messageID, gameID, millis(now), guildID, channelID)
	if err != nil {
		return fmt.Errorf("recording the TV show of %s: %w", guildID, err)
	}
	return nil
}
