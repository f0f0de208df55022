package storage

// This file is the schema: the embedded migrations, applied in order, each in
// its own transaction.

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"othello-bot/migrations"
)

// foreignKeysOff starts a SQLite migration that rebuilds a table others
// reference: SQLite's ALTER TABLE page says to turn the keys off around
// it, and to check them before the commit.
const foreignKeysOff = "-- migrate: foreign keys off\n"

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads a dialect's numbered migrations.
func loadMigrations(d dialect) ([]migration, error) {
	fsys, dir := fs.FS(migrations.FS), "."
	if d == postgresDB {
		fsys, dir = migrations.Postgres, "postgres"
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a number and _", e.Name())
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{v, e.Name(), string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %d", m.name, i+1)
		}
	}
	return out, nil
}

// migrate applies every migration newer than the database's user_version,
// each in its own transaction together with the version bump.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations(s.dialect)
	if err != nil {
		return err
	}
	if s.dialect == postgresDB {
		if err := s.migratePostgres(ctx, ms); err != nil {
			return err
		}
		current, err := pgVersion(ctx, s.wdb)
		if err != nil {
			return err
		}
		if current > len(ms) {
			return fmt.Errorf("database %s: schema version %d is newer than this othello-bot knows (%d); run a newer othello-bot", s.path, current, len(ms))
		}
		s.version = len(ms)
		return nil
	}
	var current int
	if err := s.wdb.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current > len(ms) {
		return fmt.Errorf("database %s: schema version %d is newer than this othello-bot knows (%d); run a newer othello-bot", s.path, current, len(ms))
	}
	for _, m := range ms[current:] {
		if err := s.applyMigration(ctx, m); err != nil {
			return err
		}
	}
	s.version = len(ms)
	return nil
}

// applyMigration applies one migration with its version bump in one
// transaction. The version is read again inside it (BEGIN IMMEDIATE holds
// the write lock), so when two processes migrate a new database at once,
// the second finds the work done.
func (s *Store) applyMigration(ctx context.Context, m migration) (rerr error) {
	if strings.HasPrefix(m.sql, foreignKeysOff) {
		// The writer is one connection: the pragma holds for the
		// migration's transaction (it cannot change inside one).
		if _, err := s.wdb.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		defer func() {
			// Left off, no key would be checked again on this connection.
			if _, err := s.wdb.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); err != nil && rerr == nil {
				rerr = fmt.Errorf("migration %s: turning foreign keys on again: %w", m.name, err)
			}
		}()
	}
	tx, err := s.wdb.BeginTx(ctx, false)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer tx.Tx.Rollback()
	var current int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if current >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if strings.HasPrefix(m.sql, foreignKeysOff) {
		// What the keys would have refused, had they been on.
		rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		bad := rows.Next()
		rows.Close()
		if bad {
			return fmt.Errorf("migration %s: it leaves rows whose foreign keys point nowhere", m.name)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if err := tx.Tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	s.logger.Info("applied migration", "database", s.path, "migration", m.name)
	return nil
}
