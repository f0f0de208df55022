package storage

// This file is openings' statistics and puzzles: the finished games a
// server has played, the puzzles found in them (and the built-in set),
// each player's tries, puzzle ratings, and the daily puzzle. Whatever must
// happen once (a game searched, a try finished, a day's post) is a
// conditional write, whoever tries.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
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
	_, err := tx.ExecContext(ctx, `INSERT INTO puzzles (guild_id, game_id, builtin, ply, position, to_move, line, result, cost,
		played, rating, deviation, volatility, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		guildID, gameID, builtin, p.Ply, encodePosition(p.Start), colorCode(p.Start.ToMove()), game.FormatTranscript(p.Line, 8),
		p.Result, p.Cost, p.Played.String(), r.Rating, r.Deviation, r.Volatility, millis(now))
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
	p.result, p.cost, p.played, p.rating, p.deviation, p.volatility, p.plays, p.wins`

func scanPuzzle(row scanner) (record.PuzzleRecord, error) {
	var (
		r                      record.PuzzleRecord
		position, toMove, line string
		played                 string
	)
	if err := row.Scan(&r.ID, &r.GuildID, &r.GameID, &r.Builtin, &r.Ply, &position, &toMove, &line, &r.Result, &r.Cost,
		&played, &r.Rating.Rating, &r.Rating.Deviation, &r.Rating.Volatility, &r.Plays, &r.Wins); err != nil {
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
			WHERE p.guild_id = ? AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = ?)
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
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM puzzles WHERE guild_id = ?`, guildID).Scan(&n)
	return n, err
}

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
		`WHERE p.guild_id = ? AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.guild_id = ? AND d.puzzle_id = p.id)
			ORDER BY p.created_at DESC, p.id DESC LIMIT 1`,
		`WHERE p.guild_id = '' AND ? <> '' AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.guild_id = ? AND d.puzzle_id = p.id)
			ORDER BY p.id LIMIT 1`,
	} {
		r, err := scanPuzzle(s.db.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p `+q, guildID, guildID))
		if !errors.Is(err, record.ErrNotFound) {
			return r, err
		}
	}
	return record.PuzzleRecord{}, record.ErrNotFound
}

// GuildPuzzles lists the puzzles found in a server's games, in order.
func (s *Store) GuildPuzzles(ctx context.Context, guildID string) ([]record.PuzzleRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.guild_id = ? ORDER BY p.id`, guildID)
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
