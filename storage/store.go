// Package storage is the bot's memory: games and their moves, results,
// challenges, ratings, preferences, tournaments, puzzles and the daily
// puzzle, analyses, leases and seen interactions, in SQLite
// (github.com/mattn/go-sqlite3, the default) or PostgreSQL
// (github.com/jackc/pgx, for several processes) through one set of queries;
// and the results log file. No SQL lives outside this package; callers see
// the record types. It stores what it is told: rules that compute (ratings,
// puzzles) are handed to it, never imported. storetest is its contract.
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// busyTimeout is how long a writer waits for another to finish.
const busyTimeout = 5 * time.Second

// Store is an open database. It is safe for concurrent use.
type Store struct {
	// db serves reads from several connections; wdb has one connection and
	// takes every write, so writers queue in Go instead of sleeping in
	// SQLite's busy handler.
	db      *db
	wdb     *db
	dialect dialect
	path    string // the file, or the PostgreSQL URL without its password
	// instance names this process in results.logged_by: its catch-up
	// writes only the games it finished.
	instance string
	results  *ResultsLog
	logger   *slog.Logger
	version  int

	// A results log that could not be written (a full disk) is caught up
	// in the background until it works; Close stops that.
	logRetry time.Duration
	logMu    sync.Mutex  // one writer of results lines at a time
	group    groupCommit // SQLite's writes (see groupcommit.go)
	states   stateCache  // games' replayed moves (statecache.go)
	langs    *langCache  // language choices (langcache.go, langlisten.go)
	token    string      // this store's among the processes of a PostgreSQL database (langlisten.go)
	// seenUntil is the latest note of an interaction in the table when
	// this store opened (seen.go): what processes before this one took.
	seenUntil time.Time
	// noteDelay is how long an interaction's note waits for a write to
	// ride with (seen.go); 0: the package's.
	noteDelay time.Duration
	retryMu   sync.Mutex
	retrying  bool
	closed    chan struct{}
	retryDone sync.WaitGroup
	observeTx atomic.Pointer[TxObserver]
	// writes counts the writes of games and names (filekept.go): on
	// SQLite shared, with langs, by every store of the file in this
	// process, keptKey their key there ("" on PostgreSQL: the store's own).
	writes  *writeCounts
	keptKey string
	rows    rowCache // SQLite's games as their last writes left them (rowcache.go)
}

// Options for Open.
type Options struct {
	// ResultsLog is the path of the results log file; "" keeps none.
	ResultsLog string
	Logger     *slog.Logger
	// LogRetry is how often a results log that could not be written is
	// tried again (default 30s).
	LogRetry time.Duration
	// Instance names this process among those sharing a PostgreSQL
	// database: each writes to its own results log the games it finished.
	// The default is the host name and the results log's path.
	Instance string
}

// Open opens (creating if needed) the database at path, checks its
// settings, applies pending migrations and brings the results log up to
// date with the finished games the database knows.
func Open(ctx context.Context, database string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.LogRetry <= 0 {
		opts.LogRetry = 30 * time.Second
	}
	var s *Store
	var err error
	if IsPostgres(database) {
		s, err = openPostgres(ctx, database, opts)
	} else {
		s, err = openSQLite(ctx, database, opts)
	}
	if err != nil {
		return nil, err
	}
	s.instance = opts.Instance
	if s.instance == "" {
		s.instance = defaultInstance(opts.ResultsLog)
	}
	if opts.ResultsLog != "" {
		if s.results, err = OpenResultsLog(opts.ResultsLog); err != nil {
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

// defaultInstance names this process by its host and its results log, so
// that processes on one host with logs of their own are told apart.
func defaultInstance(resultsLog string) string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown-host"
	}
	if resultsLog == "" {
		return host
	}
	if abs, err := filepath.Abs(resultsLog); err == nil {
		resultsLog = abs
	}
	return host + ":" + resultsLog
}

func openSQLite(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if opts.ResultsLog != "" {
		if err := checkLogPath(opts.ResultsLog, path); err != nil {
			return nil, err
		}
	}
	w, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	s := &Store{wdb: newDB(w, sqliteDB), dialect: sqliteDB, states: newStateCache(), path: path, logger: opts.Logger, logRetry: opts.LogRetry,
		closed: make(chan struct{})}
	kept, key := openKept(path)
	s.writes, s.langs, s.keptKey = &kept.writes, kept.langs, key
	s.rows.init()
	if err := s.init(ctx); err != nil { // creates the file and schema first
		w.Close()
		closeKept(s.keptKey)
		return nil, err
	}
	r, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		w.Close()
		closeKept(s.keptKey)
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	r.SetMaxOpenConns(8)
	s.db = newDB(r, sqliteDB)
	if s.seenUntil, err = latestNote(ctx, s.wdb); err != nil {
		s.Close()
		return nil, s.describe(err)
	}
	return s, nil
}

// dsn asks go-sqlite3 for WAL, foreign keys, a busy timeout, full syncs,
// BEGIN IMMEDIATE for every transaction (all of ours write, and taking the
// write lock up front avoids deadlocked upgrades), and a cache of prepared
// statements on each connection (our queries are a fixed set, and
// preparing each anew was a fifth of the CPU of a burst of flags).
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return fmt.Sprintf("file:%s?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=%d&_synchronous=FULL&_txlock=immediate&_stmt_cache_size=%d",
		esc, busyTimeout.Milliseconds(), stmtCacheSize)
}

// stmtCacheSize is how many prepared statements each connection keeps:
// more than the statements of one write (a finish with its ratings) or one
// read (a game with its moves), so a burst of either prepares nothing.
const stmtCacheSize = 64

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
		select {
		case <-ctx.Done():
			return s.describe(err)
		case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
		}
	}
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

// Version returns the schema version of the open database.
func (s *Store) Version() int { return s.version }

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database and the results log.
func (s *Store) Close() error {
	if s.db == s.wdb {
		s.db = nil // one pool (PostgreSQL): closed once
	}
	s.retryMu.Lock()
	select {
	case <-s.closed:
	default:
		close(s.closed)
	}
	s.retryMu.Unlock()
	s.retryDone.Wait()
	s.flushNotes()
	s.group.running.Wait() // the last notes of results logged and of interactions
	err := s.wdb.DB.Close()
	if s.keptKey != "" {
		closeKept(s.keptKey)
		s.keptKey = ""
	}
	if s.db != nil {
		err = errors.Join(err, s.db.DB.Close())
	}
	if s.results != nil {
		err = errors.Join(err, s.results.Close())
	}
	return err
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// nullID stores an optional reference: 0 is NULL.
func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

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
