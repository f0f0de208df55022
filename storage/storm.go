package storage

// This file is Puzzle Storm's and Streak's runs (package storm): each run
// kept as it goes, moved by an answer only from where it stood, and the
// bests read from them.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"othello-bot/record"
	"othello-bot/storm"
)

// StormPool is every puzzle a run in a server may be dealt: the server's
// own (not lessons) and the built-in set.
func (s *Store) StormPool(ctx context.Context, guildID string) ([]storm.Candidate, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, rating, guild_id FROM puzzles
		WHERE owner_id IS NULL AND (guild_id = '' OR guild_id = ?)`, guildID)
	if err != nil {
		return nil, fmt.Errorf("reading the puzzles a run may be dealt: %w", err)
	}
	defer rows.Close()
	var out []storm.Candidate
	for rows.Next() {
		var c storm.Candidate
		var guild string
		if err := rows.Scan(&c.ID, &c.Rating, &guild); err != nil {
			return nil, fmt.Errorf("reading the puzzles a run may be dealt: %w", err)
		}
		c.Own = guild != ""
		out = append(out, c)
	}
	return out, rows.Err()
}

// StartRun keeps a new run and returns its id.
func (s *Store) StartRun(ctx context.Context, r storm.Run) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, r.Player, r.Started); err != nil {
			return err
		}
		return insertRun(ctx, tx, r, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("starting a %s run: %w", r.Mode, err)
	}
	return id, nil
}

func insertRun(ctx context.Context, tx *dbTx, r storm.Run, id *int64) error {
	var race sql.NullInt64
	if r.Race != 0 {
		race = sql.NullInt64{Int64: r.Race, Valid: true}
	}
	return tx.QueryRowContext(ctx, `INSERT INTO storm_runs (mode, race_id, player_id, guild_id, started_at, ends_at, puzzles, ended)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, int(r.Mode), race, r.Player.ID, r.GuildID, millis(r.Started), endsMillis(r),
		joinIDs(r.Puzzles), r.Over).Scan(id)
}

const runColumns = `r.id, r.mode, coalesce(r.race_id, 0), r.player_id, p.name, r.guild_id, r.started_at, r.ends_at, r.puzzles,
	r.idx, r.step, r.solved, r.misses, r.combo, r.best_combo, r.ended FROM storm_runs r JOIN players p ON p.id = r.player_id`

func scanRun(row scanner) (storm.Run, error) {
	var (
		r             storm.Run
		mode          int
		started, ends int64
		puzzles       string
	)
	err := row.Scan(&r.ID, &mode, &r.Race, &r.Player.ID, &r.Player.Name, &r.GuildID, &started, &ends, &puzzles,
		&r.Index, &r.Step, &r.Solved, &r.Misses, &r.Combo, &r.BestCombo, &r.Over)
	if errors.Is(err, sql.ErrNoRows) {
		return r, record.ErrNotFound
	}
	if err != nil {
		return r, err
	}
	r.Mode, r.Started = storm.Mode(mode), fromMillis(started)
	if ends != 0 {
		r.Ends = fromMillis(ends)
	}
	if r.Puzzles, err = splitIDs(puzzles); err != nil {
		return r, fmt.Errorf("run %d: %w", r.ID, err)
	}
	return r, nil
}

// Run loads a run, or fails with record.ErrNotFound.
func (s *Store) Run(ctx context.Context, id int64) (storm.Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` WHERE r.id = ?`, id))
	if err != nil && !errors.Is(err, record.ErrNotFound) {
		return r, fmt.Errorf("loading run %d: %w", id, err)
	}
	return r, err
}

// SaveRun writes a run moved by an answer, if it still stood at (index,
// step) and had not ended: false when another answer moved it first.
func (s *Store) SaveRun(ctx context.Context, r storm.Run, index, step int) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE storm_runs SET ends_at = ?, idx = ?, step = ?, solved = ?, misses = ?, combo = ?,
			best_combo = ?, ended = ? WHERE id = ? AND idx = ? AND step = ? AND ended = 0`,
			endsMillis(r), r.Index, r.Step, r.Solved, r.Misses, r.Combo, r.BestCombo, r.Over, r.ID, index, step)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("saving run %d: %w", r.ID, err)
	}
	return n == 1, nil
}

// RunBests are a player's best score in a mode since a time (today) and
// ever; 0 for none.
func (s *Store) RunBests(ctx context.Context, playerID string, mode storm.Mode, since time.Time) (today, ever int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT coalesce(max(CASE WHEN started_at >= ? THEN solved END), 0), coalesce(max(solved), 0)
		FROM storm_runs WHERE player_id = ? AND mode = ?`, millis(since), playerID, int(mode)).Scan(&today, &ever)
	if err != nil {
		return 0, 0, fmt.Errorf("reading %s's best %s runs: %w", playerID, mode, err)
	}
	return today, ever, nil
}

// BestRun is a server's best run of a mode started in [from, to) (the
// earliest of equal scores), or record.ErrNotFound when none scored.
func (s *Store) BestRun(ctx context.Context, guildID string, mode storm.Mode, from, to time.Time) (storm.Run, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT id FROM storm_runs WHERE guild_id = ? AND mode = ? AND started_at >= ? AND started_at < ?
		AND solved > 0 ORDER BY solved DESC, started_at, id LIMIT 1`, guildID, int(mode), millis(from), millis(to)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return storm.Run{}, record.ErrNotFound
	}
	if err != nil {
		return storm.Run{}, fmt.Errorf("reading the server's best run: %w", err)
	}
	return s.Run(ctx, id)
}

func endsMillis(r storm.Run) int64 {
	if r.Ends.IsZero() {
		return 0
	}
	return millis(r.Ends)
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

func splitIDs(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	ids := make([]int64, len(parts))
	for i, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("puzzle ids %q: %w", s, err)
		}
		ids[i] = id
	}
	return ids, nil
}
