package storage

// This file is the daily puzzle: each server's channel and hour, and each
// day's puzzle claimed and posted once.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
)

// SetDailyPuzzle sets where (a channel, "" for nowhere) and at which hour
// (UTC) a server's daily puzzle is posted.
func (s *Store) SetDailyPuzzle(ctx context.Context, guildID, channelID string, hour int, now time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO guilds (id, puzzle_channel, puzzle_hour, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET puzzle_channel = excluded.puzzle_channel, puzzle_hour = excluded.puzzle_hour,
		updated_at = excluded.updated_at`, guildID, channelID, hour, millis(now))
	if err != nil {
		return fmt.Errorf("setting the daily puzzle of %s: %w", guildID, err)
	}
	return nil
}

// DailyPuzzleSettings lists the servers with a daily puzzle channel.
func (s *Store) DailyPuzzleSettings(ctx context.Context) ([]record.DailySetting, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, puzzle_channel, puzzle_hour FROM guilds WHERE puzzle_channel <> '' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("loading daily puzzle settings: %w", err)
	}
	defer rows.Close()
	var out []record.DailySetting
	for rows.Next() {
		var d record.DailySetting
		if err := rows.Scan(&d.GuildID, &d.ChannelID, &d.Hour); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DailyPuzzleSetting is one server's daily puzzle setting (no channel if
// none).
func (s *Store) DailyPuzzleSetting(ctx context.Context, guildID string) (record.DailySetting, error) {
	d := record.DailySetting{GuildID: guildID, Hour: 12}
	err := s.db.QueryRowContext(ctx, `SELECT puzzle_channel, puzzle_hour FROM guilds WHERE id = ?`, guildID).Scan(&d.ChannelID, &d.Hour)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("loading the daily puzzle of %s: %w", guildID, err)
	}
	return d, nil
}

// ClaimDaily claims a server's post for a day with its puzzle, once across
// processes and restarts: true for the one that claimed it, and for a
// claim whose post never came out (a crash between the two) once it is
// older than retryAfter.
func (s *Store) ClaimDaily(ctx context.Context, d record.Daily, retryAfter time.Duration, now time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, claimed_by, claimed_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO UPDATE SET claimed_by = excluded.claimed_by,
		claimed_at = excluded.claimed_at WHERE daily_puzzles.message_id = '' AND daily_puzzles.claimed_at < ?`,
		d.GuildID, d.Day, d.PuzzleID, d.ChannelID, s.instance, millis(now), millis(now.Add(-retryAfter)))
	if err != nil {
		return false, fmt.Errorf("claiming the daily puzzle of %s: %w", d.GuildID, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// PostedDaily records the message of a day's post.
func (s *Store) PostedDaily(ctx context.Context, guildID, day, messageID string, now time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE daily_puzzles SET message_id = ?, posted_at = ? WHERE guild_id = ? AND day = ?`,
		messageID, millis(now), guildID, day)
	if err != nil {
		return fmt.Errorf("recording the daily puzzle post of %s: %w", guildID, err)
	}
	return nil
}

// Daily loads a server's post of a day, or record.ErrNotFound.
func (s *Store) Daily(ctx context.Context, guildID, day string) (record.Daily, error) {
	d := record.Daily{GuildID: guildID, Day: day}
	var posted sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT puzzle_id, channel_id, message_id, posted_at FROM daily_puzzles
		WHERE guild_id = ? AND day = ?`, guildID, day).Scan(&d.PuzzleID, &d.ChannelID, &d.MessageID, &posted)
	if errors.Is(err, sql.ErrNoRows) {
		return d, record.ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("loading the daily puzzle of %s: %w", guildID, err)
	}
	d.Posted = fromNullMillis(posted)
	return d, nil
}

// DailySolvers lists who solved a server's daily puzzle of a day, in the
// order they solved it.
func (s *Store) DailySolvers(ctx context.Context, guildID, day string) ([]record.Player, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.name FROM puzzle_attempts a JOIN players p ON p.id = a.player_id
		WHERE a.guild_id = ? AND a.daily = ? AND a.status = 'solved' ORDER BY a.finished_at, a.id`, guildID, day)
	if err != nil {
		return nil, fmt.Errorf("loading who solved the daily puzzle: %w", err)
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

// DailyCandidate is the puzzle for a server's next daily post: the newest
// from its own games not posted before, else a built-in one it has not
// had; record.ErrNotFound when none is left.
func (s *Store) DailyCandidate(ctx context.Context, guildID string) (record.PuzzleRecord, error) {
	for _, q := range []string{
		`WHERE p.guild_id = ? AND p.owner_id IS NULL AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.guild_id = ? AND d.puzzle_id = p.id)
			ORDER BY p.created_at DESC, p.id DESC LIMIT 1`,
		`WHERE p.guild_id = '' AND p.owner_id IS NULL AND ? <> '' AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.guild_id = ? AND d.puzzle_id = p.id)
			ORDER BY p.id LIMIT 1`,
	} {
		r, err := scanPuzzle(s.db.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p `+q, guildID, guildID))
		if !errors.Is(err, record.ErrNotFound) {
			return r, err
		}
	}
	return record.PuzzleRecord{}, record.ErrNotFound
}

// GuildPuzzles lists the puzzles found in a server's games, in order
// (lessons, each their player's own, left out).
func (s *Store) GuildPuzzles(ctx context.Context, guildID string) ([]record.PuzzleRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.guild_id = ? AND p.owner_id IS NULL ORDER BY p.id`, guildID)
	if err != nil {
		return nil, fmt.Errorf("listing a server's puzzles: %w", err)
	}
	defer rows.Close()
	var out []record.PuzzleRecord
	for rows.Next() {
		r, err := scanPuzzle(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
