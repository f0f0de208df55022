package storage

// This file is openings' statistics and puzzles: the finished games a
// server has played and the puzzles found in them (and the built-in set);
// tries.go holds the tries, daily.go the daily puzzle. Whatever must
// happen once (a game searched, a try finished, a day's post) is a
// conditional write, whoever tries.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/record"
)

// FinishedGames returns a server's finished games of one size with a
// result (no aborted ones), newest first, for opening statistics.
func (s *Store) FinishedGames(ctx context.Context, guildID string, size, limit int) ([]opening.Played, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT transcript, winner FROM results
		WHERE guild_id = ? AND size = ? AND winner IN ('X', 'O', 'draw')
		ORDER BY finished_at DESC LIMIT ?`, guildID, size, limit)
	if err != nil {
		return nil, fmt.Errorf("loading a server's games: %w", err)
	}
	defer rows.Close()
	var out []opening.Played
	for rows.Next() {
		var transcript, winner string
		if err := rows.Scan(&transcript, &winner); err != nil {
			return nil, err
		}
		moves, err := game.ParseTranscript(transcript, size)
		if err != nil {
			continue // a transcript no longer readable is left out, not fatal
		}
		p := opening.Played{Moves: moves, Winner: game.Empty}
		if winner != "draw" {
			p.Winner = colorOf(winner)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// UnsearchedGames returns finished 8x8 games with a result that have not
// been searched for puzzles yet, oldest first.
func (s *Store) UnsearchedGames(ctx context.Context, limit int) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.game_id FROM results r
		WHERE r.size = 8 AND r.winner IN ('X', 'O', 'draw') AND r.guild_id <> ''
		AND NOT EXISTS (SELECT 1 FROM puzzle_scans p WHERE p.game_id = r.game_id)
		ORDER BY r.finished_at, r.game_id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("finding games to search for puzzles: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// SavePuzzles stores what a search of a game found, each with the rating
// it starts from, and marks the game searched, together; a game searched already (by another process) keeps
// what was stored first, and false says so.
func (s *Store) SavePuzzles(ctx context.Context, guildID string, gameID int64, found []record.PuzzleRecord, now time.Time) (bool, error) {
	saved := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		saved = false
		res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_scans (game_id, found, scanned_at) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO NOTHING`, gameID, len(found), millis(now))
		if err != nil {
			return fmt.Errorf("marking game %d searched: %w", gameID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		for _, p := range found {
			if err := insertPuzzle(ctx, tx, guildID, nullID(gameID), sql.NullString{}, p, now); err != nil {
				return err
			}
		}
		saved = true
		return nil
	})
	return saved, err
}

func insertPuzzle(ctx context.Context, tx *dbTx, guildID string, gameID sql.NullInt64, builtin sql.NullString, p record.PuzzleRecord, now time.Time) error {
	r := p.Rating
	owner := sql.NullString{String: p.Owner, Valid: p.Owner != ""}
	_, err := tx.ExecContext(ctx, `INSERT INTO puzzles (guild_id, game_id, builtin, ply, position, to_move, line, result, cost,
		played, rating, deviation, volatility, created_at, owner_id, accept, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		guildID, gameID, builtin, p.Ply, encodePosition(p.Start), colorCode(p.Start.ToMove()), game.FormatTranscript(p.Line, 8),
		p.Result, p.Cost, p.Played.String(), r.Rating, r.Deviation, r.Volatility, millis(now), owner, game.FormatTranscript(p.Also, 8), p.Why)
	if err != nil {
		return fmt.Errorf("saving a puzzle: %w", err)
	}
	return nil
}

// AddBuiltinPuzzles stores the built-in set (each with the rating it
// starts from), each puzzle once by its key;
// it returns how many were new.
func (s *Store) AddBuiltinPuzzles(ctx context.Context, set map[string]record.PuzzleRecord, now time.Time) (int, error) {
	added := 0
	err := s.inTx(ctx, func(tx *dbTx) error {
		added = 0
		for key, p := range set {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM puzzles WHERE builtin = ?`, key).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			if err := insertPuzzle(ctx, tx, "", sql.NullInt64{}, sql.NullString{String: key, Valid: true}, p, now); err != nil {
				return err
			}
			added++
		}
		return nil
	})
	return added, err
}

const puzzleColumns = `p.id, p.guild_id, coalesce(p.game_id, 0), coalesce(p.builtin, ''), p.ply, p.position, p.to_move, p.line,
	p.result, p.cost, p.played, p.rating, p.deviation, p.volatility, p.plays, p.wins, coalesce(p.owner_id, ''), p.accept, p.why`

func scanPuzzle(row scanner) (record.PuzzleRecord, error) {
	var (
		r                      record.PuzzleRecord
		position, toMove, line string
		played, accept         string
	)
	if err := row.Scan(&r.ID, &r.GuildID, &r.GameID, &r.Builtin, &r.Ply, &position, &toMove, &line, &r.Result, &r.Cost,
		&played, &r.Rating.Rating, &r.Rating.Deviation, &r.Rating.Volatility, &r.Plays, &r.Wins, &r.Owner, &accept, &r.Why); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return r, record.ErrNotFound
		}
		return r, err
	}
	var err error
	if r.Start, err = decodePosition(8, position, toMove); err != nil {
		return r, fmt.Errorf("puzzle %d: %w", r.ID, err)
	}
	if r.Line, err = game.ParseTranscript(line, 8); err != nil {
		return r, fmt.Errorf("puzzle %d: %w", r.ID, err)
	}
	if r.Also, err = game.ParseTranscript(accept, 8); err != nil {
		return r, fmt.Errorf("puzzle %d: %w", r.ID, err)
	}
	if r.Played, err = game.ParseSquare(played, 8); err != nil {
		r.Played = game.Pass
	}
	return r, nil
}

// Puzzle loads one puzzle, or record.ErrNotFound.
func (s *Store) Puzzle(ctx context.Context, id int64) (record.PuzzleRecord, error) {
	return scanPuzzle(s.db.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.id = ?`, id))
}

// PickPuzzle finds a puzzle a player has not tried, its rating nearest
// near: one from this server's games while there is any, then a built-in
// one; record.ErrNotFound when they have tried them all.
func (s *Store) PickPuzzle(ctx context.Context, guildID, playerID string, near float64) (record.PuzzleRecord, error) {
	scopes := []string{""}
	if guildID != "" {
		scopes = []string{guildID, ""}
	}
	for _, guild := range scopes {
		r, err := scanPuzzle(s.db.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p
			WHERE p.guild_id = ? AND p.owner_id IS NULL AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = ?)
			ORDER BY abs(p.rating - ?), p.id LIMIT 1`, guild, playerID, near))
		if !errors.Is(err, record.ErrNotFound) {
			return r, err
		}
	}
	return record.PuzzleRecord{}, record.ErrNotFound
}

// PuzzleCount is how many puzzles a server's games have given.
func (s *Store) PuzzleCount(ctx context.Context, guildID string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM puzzles WHERE guild_id = ? AND owner_id IS NULL`, guildID).Scan(&n)
	return n, err
}
