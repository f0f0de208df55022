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
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
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

	// A results log that could not be written (a full disk) is caught up
	// in the background until it works; Close stops that.
	logRetry  time.Duration
	logMu     sync.Mutex // one writer of results lines at a time
	retryMu   sync.Mutex
	retrying  bool
	closed    chan struct{}
	retryDone sync.WaitGroup
}

// Options for Open.
type Options struct {
	// ResultsLog is the path of the results log file; "" keeps none.
	ResultsLog string
	Logger     *slog.Logger
	// LogRetry is how often a results log that could not be written is
	// tried again (default 30s).
	LogRetry time.Duration
}

// Open opens (creating if needed) the database at path, checks its
// settings, applies pending migrations and brings the results log up to
// date with the finished games the database knows.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.LogRetry <= 0 {
		opts.LogRetry = 30 * time.Second
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if opts.ResultsLog != "" {
		if err := checkLogPath(opts.ResultsLog, path); err != nil {
			return nil, err
		}
	}
	wdb, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	wdb.SetMaxOpenConns(1)
	s := &Store{wdb: wdb, path: path, logger: opts.Logger, logRetry: opts.LogRetry, closed: make(chan struct{})}
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
			// The games are safe in the database; the log follows when it
			// can be written again.
			s.logger.Error("RESULTS LOG CANNOT BE WRITTEN: the bot runs on and tries again", "path", opts.ResultsLog,
				"every", s.logRetry, "err", err)
			s.retryResultsLog()
		}
	}
	return s, nil
}

// checkLogPath refuses a results log that is the database or one of its
// companion files (also through links): repairing a log's torn tail would
// cut the database.
func checkLogPath(logPath, dbPath string) error {
	li, err := os.Stat(logPath)
	if err != nil {
		return nil // a new file
	}
	if li.IsDir() {
		return fmt.Errorf("results log %s is a folder, not a file", logPath)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if di, err := os.Stat(dbPath + suffix); err == nil && os.SameFile(li, di) {
			return fmt.Errorf("results log %s is the database file %s; give the log a file of its own", logPath, dbPath+suffix)
		}
	}
	return nil
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
	// Another process opening a new database at the same moment holds
	// locks SQLite does not wait for (switching to WAL, its first
	// migration): try again for a while before calling it locked.
	deadline := time.Now().Add(busyTimeout)
	for {
		err := s.initOnce(ctx)
		if err == nil || !isBusy(err) {
			return err
		}
		if time.Now().After(deadline) {
			return s.describe(err)
		}
		s.wdb.SetMaxOpenConns(0) // drop the connection that saw the lock
		s.wdb.SetMaxOpenConns(1)
		select {
		case <-ctx.Done():
			return s.describe(err)
		case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
		}
	}
}

func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

func (s *Store) initOnce(ctx context.Context) error {
	// The first statement touches the file: map SQLite's errors to what
	// went wrong with the path.
	steps := []func(context.Context) error{s.checkPragmas, s.migrate, s.checkWritable, s.quickCheck}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			if isBusy(err) {
				return err
			}
			return s.describe(err)
		}
	}
	return nil
}

// checkWritable makes a write that is rolled back: a database opened
// read-only (the file's mode, a read-only mount) fails here, at start,
// rather than at every move.
func (s *Store) checkWritable(ctx context.Context) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(s.version))
	return err
}

// quickCheck runs SQLite's quick integrity check: a damaged file is
// refused at start instead of answering some commands and failing others.
func (s *Store) quickCheck(ctx context.Context) error {
	rows, err := s.wdb.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			problems = append(problems, strings.Join(strings.Fields(line), " "))
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("database %s is damaged (integrity check: %s); restore it from a backup", s.path,
			strings.Join(problems[:min(3, len(problems))], "; "))
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
		case sqlite3.ErrCorrupt:
			return fmt.Errorf("database %s is damaged (%v); restore it from a backup", s.path, se.Code)
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return fmt.Errorf("database %s is locked by another program (%v); is another othello-bot running on it?", s.path, se.Code)
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("database %s: cannot write there", s.path)
	}
	if strings.HasPrefix(err.Error(), "database "+s.path) {
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
func (s *Store) applyMigration(ctx context.Context, m migration) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer tx.Rollback()
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
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	s.logger.Info("applied migration", "database", s.path, "migration", m.name)
	return nil
}

// Version returns the schema version of the open database.
func (s *Store) Version() int { return s.version }

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database and the results log.
func (s *Store) Close() error {
	s.retryMu.Lock()
	select {
	case <-s.closed:
	default:
		close(s.closed)
	}
	s.retryMu.Unlock()
	s.retryDone.Wait()
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
