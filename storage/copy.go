package storage

// This file copies a whole database into another, empty one: how a bot
// moves from its SQLite file to a PostgreSQL database shared by several
// processes. The copy is checked by counting every table on both sides and
// by replaying every game from the copy.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// copyTables are the tables in an order that satisfies their references,
// with the column that orders their rows.
var copyTables = []struct{ name, order string }{
	{"players", "id"},
	{"tournaments", "id"},
	{"games", "id"},
	{"moves", "game_id, ply"},
	{"results", "game_id"},
	{"challenges", "id"},
	{"ratings", "player_id, scope"},
	{"settings", "key"},
	{"analyses", "game_id"},
	{"guilds", "id"},
	{"tournament_entrants", "tournament_id, player_id"},
	{"tournament_pairings", "tournament_id, round, board"},
	{"tournament_teams", "tournament_id, guild_id"},
	{"puzzles", "id"},
	{"puzzle_scans", "game_id"},
	{"lesson_scans", "game_id, owner_id"},
	{"puzzle_attempts", "id"},
	{"puzzle_ratings", "player_id"},
	{"daily_puzzles", "guild_id, day"},
	{"pool_entries", "id"},
	{"rank_roles", "guild_id, speed, step, band"},
	{"rank_holders", "guild_id, player_id, role_id"},
	{"follows", "guild_id, follower_id, followed_id"},
	{"races", "id"},
	{"storm_runs", "id"},
}

// CopyReport is what a copy moved: rows per table, and games replayed.
type CopyReport struct {
	Rows     map[string]int64
	Replayed int
}

// CopyTo copies every row of s into dst, which must be empty (no games,
// no players), then checks the copy: the same count in every table, and
// every game loads from the copy (its moves replay to its stored
// position) with the same moves and result as in s. progress, if set,
// hears of each table as it goes.
func (s *Store) CopyTo(ctx context.Context, dst *Store, progress func(table string, rows int64)) (CopyReport, error) {
	rep := CopyReport{Rows: map[string]int64{}}
	for _, table := range []string{"players", "games"} {
		n, err := dst.count(ctx, table)
		if err != nil {
			return rep, err
		}
		if n > 0 {
			return rep, fmt.Errorf("database %s is not empty (%d rows in %s): copy only into a new database", dst.path, n, table)
		}
	}
	for _, t := range copyTables {
		n, err := s.copyTable(ctx, dst, t.name, t.order, progress)
		if err != nil {
			return rep, fmt.Errorf("copying %s: %w", t.name, err)
		}
		rep.Rows[t.name] = n
		if progress != nil {
			progress(t.name, n)
		}
	}
	// Lines not yet in a results log go to the first process of the new
	// database that keeps one.
	if _, err := dst.wdb.ExecContext(ctx, `UPDATE results SET logged_by = NULL WHERE logged_at IS NULL`); err != nil {
		return rep, fmt.Errorf("copying results: %w", err)
	}
	if dst.dialect == postgresDB {
		// Rows came with their ids: new ones continue after them.
		for _, t := range []string{"games", "challenges", "tournaments", "puzzles", "puzzle_attempts", "pool_entries", "storm_runs", "races"} {
			if _, err := dst.wdb.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'),
				coalesce((SELECT max(id) FROM `+t+`), 0) + 1, false)`); err != nil {
				return rep, fmt.Errorf("continuing the ids of %s: %w", t, err)
			}
		}
	}
	for _, t := range copyTables {
		want, err := s.count(ctx, t.name)
		if err != nil {
			return rep, err
		}
		got, err := dst.count(ctx, t.name)
		if err != nil {
			return rep, err
		}
		if got != want {
			return rep, fmt.Errorf("check: %s has %d rows in the copy, %d in the original", t.name, got, want)
		}
	}
	n, err := s.compareGames(ctx, dst)
	rep.Replayed = n
	return rep, err
}

func (s *Store) count(ctx context.Context, table string) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting %s: %w", table, err)
	}
	return n, nil
}

// copyBatch is how many rows go in one INSERT.
const copyBatch = 200

func (s *Store) copyTable(ctx context.Context, dst *Store, table, order string, progress func(string, int64)) (int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY `+order)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	var total int64
	var batch [][]any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		query := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` +
			strings.TrimSuffix(strings.Repeat(one+", ", len(batch)), ", ")
		args := make([]any, 0, len(batch)*len(cols))
		for _, r := range batch {
			args = append(args, r...)
		}
		if _, err := dst.wdb.ExecContext(ctx, query, args...); err != nil {
			return err
		}
		total += int64(len(batch))
		batch = batch[:0]
		if progress != nil && total%(copyBatch*500) == 0 {
			progress(table+" (so far)", total)
		}
		return nil
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return total, err
		}
		batch = append(batch, vals)
		if len(batch) == copyBatch {
			if err := flush(); err != nil {
				return total, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return total, err
	}
	return total, flush()
}

// compareGames loads every game from both databases and compares them.
func (s *Store) compareGames(ctx context.Context, dst *Store) (int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM games ORDER BY id`)
	if err != nil {
		return 0, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for i, id := range ids {
		a, errA := s.Game(ctx, id)
		b, errB := dst.Game(ctx, id)
		switch {
		case errA != nil && errB != nil:
			continue // damaged in the original already: copied as it was
		case errB != nil:
			return i, fmt.Errorf("check: game %d does not load from the copy: %w", id, errB)
		case errA != nil:
			return i, errors.Join(fmt.Errorf("check: game %d loads from the copy but not the original", id), errA)
		}
		if !slices.Equal(a.Plies(), b.Plies()) || a.Status != b.Status || a.Version != b.Version ||
			(a.Result == nil) != (b.Result == nil) || a.Result != nil && *a.Result != *b.Result {
			return i, fmt.Errorf("check: game %d differs in the copy", id)
		}
	}
	return len(ids), nil
}
