package storage

// This file is the pairing pool: who waits for a game in each server, and
// taking an entry once when it is paired, left or lapses.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/record"
)

// JoinPool puts a player in a server's pool and sets the entry's ID; it
// fails with record.ErrWaiting if they wait there already.
func (s *Store) JoinPool(ctx context.Context, e *record.PoolEntry) error {
	err := s.wdb.QueryRowContext(ctx, `INSERT INTO pool_entries (guild_id, channel_id, player_id, player_name, control, size, rated,
		range_width, rating, message_id, since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		e.GuildID, e.ChannelID, e.Player.ID, e.Player.Name, e.Want.Control, e.Want.Size, e.Want.Rated, e.Want.Range, e.Rating,
		e.MessageID, millis(e.Since)).Scan(&e.ID)
	if isUnique(err) {
		return record.ErrWaiting
	}
	if err != nil {
		return fmt.Errorf("joining the pool: %w", err)
	}
	return nil
}

const poolSelect = `SELECT id, guild_id, channel_id, player_id, player_name, control, size, rated, range_width, rating, message_id, ping_message_id, since
	FROM pool_entries`

func (s *Store) poolEntries(ctx context.Context, where string, args ...any) ([]record.PoolEntry, error) {
	rows, err := s.db.QueryContext(ctx, poolSelect+" WHERE "+where+" ORDER BY since, id", args...)
	if err != nil {
		return nil, fmt.Errorf("reading the pool: %w", err)
	}
	defer rows.Close()
	var out []record.PoolEntry
	for rows.Next() {
		var e record.PoolEntry
		var since int64
		if err := rows.Scan(&e.ID, &e.GuildID, &e.ChannelID, &e.Player.ID, &e.Player.Name, &e.Want.Control, &e.Want.Size,
			&e.Want.Rated, &e.Want.Range, &e.Rating, &e.MessageID, &e.PingMessageID, &since); err != nil {
			return nil, err
		}
		e.PlayerID, e.Since = e.Player.ID, fromMillis(since)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PoolEntries lists who waits in a server's pool, longest first.
func (s *Store) PoolEntries(ctx context.Context, guildID string) ([]record.PoolEntry, error) {
	return s.poolEntries(ctx, "guild_id = ?", guildID)
}

// LapsedPoolEntries lists the entries waiting since before a time, in
// every server.
func (s *Store) LapsedPoolEntries(ctx context.Context, before time.Time) ([]record.PoolEntry, error) {
	return s.poolEntries(ctx, "since < ?", millis(before))
}

// PoolEntryOf is a player's entry in a server's pool, or
// record.ErrNotFound.
func (s *Store) PoolEntryOf(ctx context.Context, guildID, playerID string) (record.PoolEntry, error) {
	list, err := s.poolEntries(ctx, "guild_id = ? AND player_id = ?", guildID, playerID)
	if err != nil {
		return record.PoolEntry{}, err
	}
	if len(list) == 0 {
		return record.PoolEntry{}, record.ErrNotFound
	}
	return list[0], nil
}

// TakePoolEntry removes an entry: true for the one caller that did, so an
// entry is paired, left or lapses once across processes.
func (s *Store) TakePoolEntry(ctx context.Context, id int64) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `DELETE FROM pool_entries WHERE id = ?`, id)
	if err != nil {
		return false, fmt.Errorf("taking pool entry %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetPoolMessage records the message that shows an entry waiting.
func (s *Store) SetPoolMessage(ctx context.Context, id int64, messageID string) error {
	if _, err := s.wdb.ExecContext(ctx, `UPDATE pool_entries SET message_id = ? WHERE id = ?`, messageID, id); err != nil {
		return fmt.Errorf("recording pool entry %d's message: %w", id, err)
	}
	return nil
}

// SetPoolPing records the message that pinged the server's play role for
// an entry.
func (s *Store) SetPoolPing(ctx context.Context, id int64, messageID string) error {
	if _, err := s.wdb.ExecContext(ctx, `UPDATE pool_entries SET ping_message_id = ? WHERE id = ?`, messageID, id); err != nil {
		return fmt.Errorf("recording pool entry %d's ping: %w", id, err)
	}
	return nil
}

// SetPlayRole sets the role a server's pool pings when a member starts
// waiting ("" for none).
func (s *Store) SetPlayRole(ctx context.Context, guildID, roleID string, now time.Time) error {
	return s.setGuild(ctx, guildID, "play_role", roleID, now)
}

// PlayRole is the role a server's pool pings, "" for none.
func (s *Store) PlayRole(ctx context.Context, guildID string) (string, error) {
	var role string
	err := s.guildValue(ctx, guildID, "play_role", &role)
	return role, err
}

// SetPoolOpen sets whether a server's casual live waits pair with other
// servers that allow it too.
func (s *Store) SetPoolOpen(ctx context.Context, guildID string, open bool, now time.Time) error {
	return s.setGuild(ctx, guildID, "pool_open", open, now)
}

// PoolOpen says whether a server's pool pairs with other servers.
func (s *Store) PoolOpen(ctx context.Context, guildID string) (bool, error) {
	var open int
	err := s.guildValue(ctx, guildID, "pool_open", &open)
	return open == 1, err
}

// OpenPoolEntries lists the casual waits of the other servers whose pools
// are open and of players in the bot's DM (guild ""), longest first: those
// a newcomer may be paired with across servers. A newcomer in the DM
// (exceptGuild "") sees the servers' only: two DMs have no place to play.
func (s *Store) OpenPoolEntries(ctx context.Context, exceptGuild string) ([]record.PoolEntry, error) {
	return s.poolEntries(ctx, "guild_id <> ? AND rated = 0 AND (guild_id = '' OR guild_id IN (SELECT id FROM guilds WHERE pool_open = 1))", exceptGuild)
}
