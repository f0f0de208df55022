package storage

// This file is what a player has played: recent games, results per bot
// level.

import (
	"context"
	"database/sql"
	"fmt"

	"othello-bot/record"
)

// History returns a player's most recent finished games, newest first.
func (s *Store) History(ctx context.Context, playerID string, limit int) ([]record.HistoryEntry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM (
		SELECT r.game_id, r.finished_at, 'X', r.white_id, coalesce(pw.name, ''), r.white_level, r.black_discs, r.white_discs,
			r.winner, r.reason, r.size, r.transcript, g.takebacks, r.time_control
		FROM results r JOIN games g ON g.id = r.game_id LEFT JOIN players pw ON pw.id = r.white_id WHERE r.black_id = ?
		UNION ALL
		SELECT r.game_id, r.finished_at, 'O', r.black_id, coalesce(pb.name, ''), r.black_level, r.white_discs, r.black_discs,
			r.winner, r.reason, r.size, r.transcript, g.takebacks, r.time_control
		FROM results r JOIN games g ON g.id = r.game_id LEFT JOIN players pb ON pb.id = r.black_id WHERE r.white_id = ?
	) AS h ORDER BY 2 DESC, 1 DESC LIMIT ?`, playerID, playerID, limit)
	if err != nil {
		return nil, fmt.Errorf("loading history: %w", err)
	}
	defer rows.Close()
	var out []record.HistoryEntry
	for rows.Next() {
		var (
			h                     record.HistoryEntry
			finished              int64
			color, winner, reason string
			oppID                 sql.NullString
			oppName               string
			oppLevel              sql.NullInt64
		)
		if err := rows.Scan(&h.GameID, &finished, &color, &oppID, &oppName, &oppLevel, &h.Mine, &h.Theirs, &winner, &reason,
			&h.Size, &h.Transcript, &h.Takebacks, &h.Control); err != nil {
			return nil, err
		}
		h.FinishedAt, h.Color, h.Reason = fromMillis(finished), colorOf(color), record.EndReason(reason)
		h.Opponent = sideOf(oppID, oppName, oppLevel)
		switch {
		case record.EndReason(reason).Unfinished():
			h.Result = record.AbortedGame
		case winner == "draw":
			h.Result = record.Drew
		case winner == color:
			h.Result = record.Won
		default:
			h.Result = record.Lost
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// RecordAgainstBot returns a player's wins, losses and draws against each
// bot level they have finished a game with (aborted games left out).
func (s *Store) RecordAgainstBot(ctx context.Context, playerID string) ([]record.LevelRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT level, count(CASE WHEN outcome = 1 THEN 1 END), count(CASE WHEN outcome = -1 THEN 1 END),
		count(CASE WHEN outcome = 0 THEN 1 END) FROM (
		SELECT r.white_level AS level, CASE r.winner WHEN 'X' THEN 1 WHEN 'O' THEN -1 ELSE 0 END AS outcome
		FROM results r WHERE r.black_id = ? AND r.white_level IS NOT NULL AND r.reason NOT IN ('abort', 'abandoned', 'aborted-by-moderator')
		UNION ALL
		SELECT r.black_level, CASE r.winner WHEN 'O' THEN 1 WHEN 'X' THEN -1 ELSE 0 END
		FROM results r WHERE r.white_id = ? AND r.black_level IS NOT NULL AND r.reason NOT IN ('abort', 'abandoned', 'aborted-by-moderator')
	) AS h GROUP BY level ORDER BY level`, playerID, playerID)
	if err != nil {
		return nil, fmt.Errorf("loading record against the bot: %w", err)
	}
	defer rows.Close()
	var out []record.LevelRecord
	for rows.Next() {
		var r record.LevelRecord
		if err := rows.Scan(&r.Level, &r.Wins, &r.Losses, &r.Draws); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
