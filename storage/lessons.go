package storage

// This file is what the opponents that err like people and the coach
// keep: a player's own mistakes in a finished game as lessons, puzzles
// given to that player alone (package coach makes them; a game's lessons
// are made once for each of its players, whoever makes them first), and
// the games people's opening habits are counted from.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/game"
	"othello-bot/habit"
	"othello-bot/record"
)

// SaveLessons stores a game's lessons for one player (each owned by them,
// with the rating it starts from) and marks the game done for them,
// together; a game done already (by another process, or a second press)
// keeps what was stored first, and false says so.
func (s *Store) SaveLessons(ctx context.Context, guildID string, gameID int64, ownerID string, lessons []record.PuzzleRecord, now time.Time) (bool, error) {
	saved := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		saved = false
		res, err := tx.ExecContext(ctx, `INSERT INTO lesson_scans (game_id, owner_id, found, scanned_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id, owner_id) DO NOTHING`, gameID, ownerID, len(lessons), millis(now))
		if err != nil {
			return fmt.Errorf("marking game %d's lessons for %s made: %w", gameID, ownerID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		for _, p := range lessons {
			p.Owner = ownerID
			if err := insertPuzzle(ctx, tx, guildID, nullID(gameID), sql.NullString{}, p, now); err != nil {
				return err
			}
		}
		saved = true
		return nil
	})
	return saved, err
}

// Lessons are a player's lessons from one game in the order played, and
// whether they were made (false: not yet; made and none is an empty list).
func (s *Store) Lessons(ctx context.Context, gameID int64, ownerID string) ([]record.PuzzleRecord, bool, error) {
	var found int
	err := s.db.QueryRowContext(ctx, `SELECT found FROM lesson_scans WHERE game_id = ? AND owner_id = ?`, gameID, ownerID).Scan(&found)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("loading game %d's lessons: %w", gameID, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.game_id = ? AND p.owner_id = ? ORDER BY p.ply`, gameID, ownerID)
	if err != nil {
		return nil, false, fmt.Errorf("loading game %d's lessons: %w", gameID, err)
	}
	defer rows.Close()
	var out []record.PuzzleRecord
	for rows.Next() {
		r, err := scanPuzzle(rows)
		if err != nil {
			return nil, false, err
		}
		out = append(out, r)
	}
	return out, true, rows.Err()
}

// NextLesson is a player's lesson they have not tried, from their latest
// game first, or record.ErrNotFound.
func (s *Store) NextLesson(ctx context.Context, ownerID string) (record.PuzzleRecord, error) {
	return scanPuzzle(s.db.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p
		WHERE p.owner_id = ? AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = ?)
		ORDER BY p.game_id DESC, p.ply LIMIT 1`, ownerID, ownerID))
}

// OpeningGames are the latest finished 8x8 games from the standard start
// (aborted ones left out), newest first, for how people open (package
// habit): each game's moves and which colours were people.
func (s *Store) OpeningGames(ctx context.Context, limit int) ([]habit.Game, error) {
	start, _ := game.NewPosition(8)
	rows, err := s.db.QueryContext(ctx, `SELECT r.transcript, r.black_id, r.white_id FROM results r JOIN games g ON g.id = r.game_id
		WHERE r.size = 8 AND g.start_position = ? AND r.reason NOT IN ('abort', 'aborted-by-moderator')
		ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?`, encodePosition(start), limit)
	if err != nil {
		return nil, fmt.Errorf("loading games for opening habits: %w", err)
	}
	defer rows.Close()
	var out []habit.Game
	for rows.Next() {
		var transcript string
		var black, white sql.NullString
		if err := rows.Scan(&transcript, &black, &white); err != nil {
			return nil, err
		}
		moves, err := game.ParseTranscript(transcript, 8)
		if err != nil {
			continue // a transcript no longer readable is left out
		}
		out = append(out, habit.Game{Moves: moves, Black: black.Valid, White: white.Valid})
	}
	return out, rows.Err()
}
