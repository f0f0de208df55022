// Package storage is the bot's memory: games, moves, results, challenges and
// ratings in SQLite (github.com/mattn/go-sqlite3), and the results log file.
// No SQL lives outside this package; callers see the record types.
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"

	"othello-bot/migrations"
)

// busyTimeout is how long a writer waits for another to finish.
const busyTimeout = 5 * time.Second

// Store is an open database. It is safe for concurrent use.
type Store struct {
	// db serves reads from several connections; wdb has one connection and
	// takes every write, so writers queue in Go instead of sleeping in
	// SQLite's busy handler.
	db      *sql.DB
	wdb     *sql.DB
	path    string
	log     *ResultsLog
	logger  *slog.Logger
	version int
}

// Options for Open.
type Options struct {
	// ResultsLog is the path of the results log file; "" keeps none.
	ResultsLog string
	Logger     *slog.Logger
}

// Open opens (creating if needed) the database at path, checks its
// settings, applies pending migrations and brings the results log up to
// date with the finished games the database knows.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	wdb, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	wdb.SetMaxOpenConns(1)
	s := &Store{wdb: wdb, path: path, logger: opts.Logger}
	if err := s.init(ctx); err != nil { // creates the file and schema first
		wdb.Close()
		return nil, err
	}
	if s.db, err = sql.Open("sqlite3", dsn(path)); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	s.db.SetMaxOpenConns(8)
	if opts.ResultsLog != "" {
		if s.log, err = OpenResultsLog(opts.ResultsLog); err != nil {
			s.Close()
			return nil, err
		}
		if err := s.catchUpResultsLog(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// dsn asks go-sqlite3 for WAL, foreign keys, a busy timeout, full syncs and
// BEGIN IMMEDIATE for every transaction (all of ours write, and taking the
// write lock up front avoids deadlocked upgrades).
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return fmt.Sprintf("file:%s?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=%d&_synchronous=FULL&_txlock=immediate",
		esc, busyTimeout.Milliseconds())
}

// checkPath gives the common mistakes a clear message before SQLite's own.
func checkPath(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("database %s: folder %s does not exist", path, dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("database %s: %s is not a folder", path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("database %s is a folder, not a file", path)
	}
	return nil
}

func (s *Store) init(ctx context.Context) error {
	// The first statement touches the file: map SQLite's errors to what
	// went wrong with the path.
	if err := s.checkPragmas(ctx); err != nil {
		return s.describe(err)
	}
	if err := s.migrate(ctx); err != nil {
		return s.describe(err)
	}
	return nil
}

// describe turns SQLite's open errors into one line naming the path.
func (s *Store) describe(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB:
			return fmt.Errorf("database %s: the file is not a SQLite database", s.path)
		case sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrAuth:
			return fmt.Errorf("database %s: cannot write there (%v)", s.path, se.Code)
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("database %s: cannot write there", s.path)
	}
	if strings.HasPrefix(err.Error(), "database ") {
		return err
	}
	return fmt.Errorf("database %s: %w", s.path, err)
}

// checkPragmas reads the connection settings back: a driver that silently
// ignored one would leave the store unsafe.
func (s *Store) checkPragmas(ctx context.Context) error {
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	want := map[string]string{
		"journal_mode": "wal",
		"foreign_keys": "1",
		"busy_timeout": strconv.FormatInt(busyTimeout.Milliseconds(), 10),
		"synchronous":  "2", // FULL
	}
	names := make([]string, 0, len(want))
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		var got string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+name).Scan(&got); err != nil {
			return err
		}
		if strings.ToLower(got) != want[name] {
			return fmt.Errorf("database %s: PRAGMA %s is %q, want %q", s.path, name, got, want[name])
		}
	}
	return nil
}

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrations.FS, ".")
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
		body, err := fs.ReadFile(migrations.FS, e.Name())
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

// LatestVersion is the schema version this binary brings.
func LatestVersion() int {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate applies every migration newer than the database's user_version,
// each in its own transaction together with the version bump.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	var current int
	if err := s.wdb.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current > len(ms) {
		return fmt.Errorf("database %s: schema version %d is newer than this othello-bot knows (%d); run a newer othello-bot", s.path, current, len(ms))
	}
	for _, m := range ms[current:] {
		tx, err := s.wdb.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		s.logger.Info("applied migration", "database", s.path, "migration", m.name)
	}
	s.version = len(ms)
	return nil
}

// Version returns the schema version of the open database.
func (s *Store) Version() int { return s.version }

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database and the results log.
func (s *Store) Close() error {
	err := s.wdb.Close()
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
	}
	if s.log != nil {
		err = errors.Join(err, s.log.Close())
	}
	return err
}

// inTx runs fn in a transaction (BEGIN IMMEDIATE), committing if it returns
// nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func nullMillis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func fromNullMillis(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromMillis(n.Int64)
}
