package storage

// This file is tries at puzzles: started once per player, answered step by
// step, finished and rated once, and the solvers' records.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"othello-bot/record"
)

// StartTry opens a player's try at a puzzle; record.ErrTried (with the try
// there is) if they have one.
func (s *Store) StartTry(ctx context.Context, p record.Player, guildID string, puzzleID int64, daily string, now time.Time) (record.PuzzleTry, error) {
	var t record.PuzzleTry
	err := s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, p, now); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (puzzle_id, player_id, guild_id, status, started_at, expires_at, daily)
			VALUES (?, ?, ?, 'open', ?, ?, ?) ON CONFLICT (puzzle_id, player_id) DO NOTHING`,
			puzzleID, p.ID, guildID, millis(now), millis(now.Add(record.TimeToAnswer)), daily)
		if err != nil {
			return fmt.Errorf("starting a puzzle: %w", err)
		}
		n, _ := res.RowsAffected()
		t, err = loadTry(ctx, tx, `a.puzzle_id = ? AND a.player_id = ?`, puzzleID, p.ID)
		if err == nil && n == 0 {
			err = record.ErrTried
		}
		return err
	})
	return t, err
}

const tryColumns = `a.id, a.puzzle_id, a.player_id, a.guild_id, a.step, a.status, a.started_at, a.expires_at, a.daily, a.rating_change`

func loadTry(ctx context.Context, q querier, where string, args ...any) (record.PuzzleTry, error) {
	var (
		t                record.PuzzleTry
		status           string
		started, expires int64
	)
	err := q.QueryRowContext(ctx, `SELECT `+tryColumns+` FROM puzzle_attempts a WHERE `+where, args...).Scan(
		&t.ID, &t.PuzzleID, &t.PlayerID, &t.GuildID, &t.Step, &status, &started, &expires, &t.Daily, &t.RatingChange)
	if errors.Is(err, sql.ErrNoRows) {
		return t, record.ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("loading a puzzle try: %w", err)
	}
	t.Status, t.Started, t.Expires = record.TryStatus(status), fromMillis(started), fromMillis(expires)
	return t, nil
}

// Try loads a try, or record.ErrNotFound.
func (s *Store) Try(ctx context.Context, id int64) (record.PuzzleTry, error) {
	return loadTry(ctx, s.db, `a.id = ?`, id)
}

// ExtendOpenTries gives the tries open at since (not expired by then) by
// more to answer: the time the bot was away, which nobody could use.
func (s *Store) ExtendOpenTries(ctx context.Context, since time.Time, by time.Duration) (int64, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE puzzle_attempts SET expires_at = expires_at + ? WHERE status = 'open' AND expires_at > ?`,
		by.Milliseconds(), millis(since))
	if err != nil {
		return 0, fmt.Errorf("giving open puzzle tries their time back: %w", err)
	}
	return res.RowsAffected()
}

// AdvanceTry moves an open try from step to next, if it is still at step
// (a second press of the same answer finds it moved and gets false).
func (s *Store) AdvanceTry(ctx context.Context, id int64, step, next int) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE puzzle_attempts SET step = ? WHERE id = ? AND step = ? AND status = 'open'`, next, id, step)
	if err != nil {
		return false, fmt.Errorf("advancing a puzzle try: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// FinishTry ends an open try still at step, solved or not, and rates it
// in the same transaction: rate is given the player's record before (nil
// for their first try) and the puzzle's rating, and says what the try did
// to both (package puzzle's Finish); the store writes what it says. It returns
// the player's record after, and false if the try was not open at that
// step (answered already).
func (s *Store) FinishTry(ctx context.Context, id int64, step int, solved bool, now time.Time,
	rate func(before *record.PuzzleSolver, puzzle record.Glicko) record.TryRating) (record.PuzzleSolver, bool, error) {
	var (
		after record.PuzzleSolver
		done  bool
	)
	err := s.inSerialTx(ctx, func(tx *dbTx) error {
		done = false
		t, err := loadTry(ctx, tx, `a.id = ?`, id)
		if err != nil {
			return err
		}
		if t.Status != record.TryOpen || t.Step != step {
			return nil
		}
		var before *record.PuzzleSolver
		switch v, err := loadSolver(ctx, tx, t.PlayerID); {
		case err == nil:
			before = &v
		case !errors.Is(err, record.ErrNotFound):
			return err
		}
		var pr record.Glicko
		if err := tx.QueryRowContext(ctx, `SELECT rating, deviation, volatility FROM puzzles WHERE id = ?`, t.PuzzleID).Scan(
			&pr.Rating, &pr.Deviation, &pr.Volatility); err != nil {
			return fmt.Errorf("loading puzzle %d: %w", t.PuzzleID, err)
		}
		rated := rate(before, pr)
		after = rated.Solver
		newPuzzle := rated.Puzzle
		status, win := record.TryFailed, 0
		if solved {
			status, win = record.TryPassed, 1
		}
		res, err := tx.ExecContext(ctx, `UPDATE puzzle_attempts SET status = ?, finished_at = ?, rating_change = ?
			WHERE id = ? AND status = 'open' AND step = ?`, string(status), millis(now), rated.Change, id, step)
		if err != nil {
			return fmt.Errorf("finishing a puzzle try: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE puzzles SET rating = ?, deviation = ?, volatility = ?, plays = plays + 1, wins = wins + ?
			WHERE id = ?`, newPuzzle.Rating, newPuzzle.Deviation, newPuzzle.Volatility, win, t.PuzzleID); err != nil {
			return fmt.Errorf("rating puzzle %d: %w", t.PuzzleID, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (player_id, rating, deviation, volatility, attempts, solved, streak,
			best_streak, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
			volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak,
			best_streak = excluded.best_streak, updated_at = excluded.updated_at`,
			t.PlayerID, after.Rating.Rating, after.Rating.Deviation, after.Rating.Volatility, after.Attempts, after.Solved,
			after.Streak, after.BestStreak, millis(now)); err != nil {
			return fmt.Errorf("rating a puzzle solver: %w", err)
		}
		done = true
		return nil
	})
	return after, done, err
}

// loadSolver reads a player's puzzle record, or record.ErrNotFound if
// they never finished a try.
func loadSolver(ctx context.Context, q querier, playerID string) (record.PuzzleSolver, error) {
	var v record.PuzzleSolver
	err := q.QueryRowContext(ctx, `SELECT rating, deviation, volatility, attempts, solved, streak, best_streak
		FROM puzzle_ratings WHERE player_id = ?`, playerID).Scan(&v.Rating.Rating, &v.Rating.Deviation, &v.Rating.Volatility,
		&v.Attempts, &v.Solved, &v.Streak, &v.BestStreak)
	if errors.Is(err, sql.ErrNoRows) {
		return v, record.ErrNotFound
	}
	if err != nil {
		return v, fmt.Errorf("loading a puzzle rating: %w", err)
	}
	return v, nil
}

// Solver is a player's puzzle record, or record.ErrNotFound before their
// first finished try.
func (s *Store) Solver(ctx context.Context, playerID string) (record.PuzzleSolver, error) {
	return loadSolver(ctx, s.db, playerID)
}

// PuzzleLeaderboard ranks the players who have finished a puzzle in a
// server by their puzzle rating, with how many they solved there.
func (s *Store) PuzzleLeaderboard(ctx context.Context, guildID string, limit int) ([]record.PuzzleStanding, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.player_id, pl.name, r.rating, r.deviation, r.best_streak,
		(SELECT count(*) FROM puzzle_attempts a WHERE a.guild_id = ? AND a.player_id = r.player_id AND a.status = 'solved'),
		(SELECT count(*) FROM puzzle_attempts a WHERE a.guild_id = ? AND a.player_id = r.player_id AND a.status <> 'open')
		FROM puzzle_ratings r JOIN players pl ON pl.id = r.player_id
		WHERE EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.guild_id = ? AND a.player_id = r.player_id AND a.status <> 'open')
		ORDER BY r.rating DESC, r.player_id LIMIT ?`, guildID, guildID, guildID, limit)
	if err != nil {
		return nil, fmt.Errorf("loading the puzzle leaderboard: %w", err)
	}
	defer rows.Close()
	var out []record.PuzzleStanding
	for rows.Next() {
		var st record.PuzzleStanding
		if err := rows.Scan(&st.Player.ID, &st.Player.Name, &st.Rating, &st.Deviation, &st.BestStreak, &st.Solved, &st.Tried); err != nil {
			return nil, err
		}
		st.Rating = math.Round(st.Rating)
		out = append(out, st)
	}
	return out, rows.Err()
}

// PuzzlesSolved counts, per server and player, the puzzles solved in
// servers over [from, to) (for the month's puzzle leader).
func (s *Store) PuzzlesSolved(ctx context.Context, from, to time.Time) ([]record.SolvedCount, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT guild_id, player_id, count(*) FROM puzzle_attempts
		WHERE status = 'solved' AND guild_id <> '' AND finished_at >= ? AND finished_at < ?
		GROUP BY guild_id, player_id ORDER BY guild_id, player_id`, millis(from), millis(to))
	if err != nil {
		return nil, fmt.Errorf("counting the puzzles solved from %s: %w", from.Format(time.DateOnly), err)
	}
	defer rows.Close()
	var out []record.SolvedCount
	for rows.Next() {
		var c record.SolvedCount
		if err := rows.Scan(&c.GuildID, &c.PlayerID, &c.Count); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
