package storage

// This file is what differs between the two databases the store keeps its
// data in: SQLite (one process, the default) and PostgreSQL (many
// processes on many hosts). The queries are written once, in SQLite's
// style with ? placeholders, :name parameters and LEAST/GREATEST, and
// bound here for the database at hand.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// dialect is the database a Store talks to.
type dialect int

const (
	sqliteDB dialect = iota
	postgresDB
)

func (d dialect) String() string {
	if d == postgresDB {
		return "postgres"
	}
	return "sqlite"
}

// bound is a query rewritten for a dialect: its text and, for PostgreSQL,
// the order of its named parameters.
type bound struct {
	text  string
	names []string // $1, $2, ... stand for these :names (nil: positional)
}

var boundCache sync.Map // [2]any{dialect, query} -> bound

// bind rewrites query and args for d.
func (d dialect) bind(query string, args []any) (string, []any, error) {
	key := [2]any{d, query}
	b, ok := boundCache.Load(key)
	if !ok {
		b, _ = boundCache.LoadOrStore(key, d.rewrite(query))
	}
	q := b.(bound)
	if d == sqliteDB {
		return q.text, args, nil // go-sqlite3 takes ? and :name as they are
	}
	if q.names != nil {
		named := map[string]any{}
		for _, a := range args {
			na, ok := a.(sql.NamedArg)
			if !ok {
				return "", nil, fmt.Errorf("query mixes named and positional parameters")
			}
			named[na.Name] = na.Value
		}
		args = make([]any, len(q.names))
		for i, n := range q.names {
			v, ok := named[n]
			if !ok {
				return "", nil, fmt.Errorf("query parameter :%s has no value", n)
			}
			args[i] = v
		}
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = pgValue(a)
	}
	return q.text, out, nil
}

// pgValue turns the values SQLite takes for its loosely typed columns into
// the ones PostgreSQL's columns are declared with: flags are integers 0/1
// in both schemas, and reports are text.
func pgValue(v any) any {
	switch x := v.(type) {
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case []byte:
		return string(x)
	}
	return v
}

// rewrite turns ?-placeholders and :names into $n for PostgreSQL, and
// LEAST/GREATEST into SQLite's two-argument min/max. Quoted text is left
// alone.
func (d dialect) rewrite(query string) bound {
	if d == sqliteDB {
		r := strings.NewReplacer("LEAST(", "min(", "GREATEST(", "max(")
		return bound{text: r.Replace(query)}
	}
	var b strings.Builder
	var names []string
	index := map[string]int{}
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(query[i+1:], '\'')
			if j < 0 {
				b.WriteString(query[i:])
				i = len(query)
				continue
			}
			b.WriteString(query[i : i+j+2])
			i += j + 1
		case c == '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
		case c == ':' && i+1 < len(query) && isNameStart(query[i+1]) && (i == 0 || query[i-1] != ':'):
			j := i + 1
			for j < len(query) && isNameByte(query[j]) {
				j++
			}
			name := query[i+1 : j]
			k, ok := index[name]
			if !ok {
				names = append(names, name)
				k = len(names)
				index[name] = k
			}
			b.WriteString("$" + strconv.Itoa(k))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return bound{text: b.String(), names: names}
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameByte(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// rawQuerier is what *sql.DB and *sql.Tx both do.
type rawQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// binder binds each query for its dialect before handing it on.
type binder struct {
	raw rawQuerier
	d   dialect
}

func (x binder) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q, a, err := x.d.bind(query, args)
	if err != nil {
		return nil, err
	}
	return x.raw.ExecContext(ctx, q, a...)
}

func (x binder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q, a, err := x.d.bind(query, args)
	if err != nil {
		return nil, err
	}
	return x.raw.QueryContext(ctx, q, a...)
}

func (x binder) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	q, a, err := x.d.bind(query, args)
	if err != nil {
		// A *sql.Row cannot be made with an error; a query that cannot be
		// bound is a programming error the tests catch.
		panic(fmt.Sprintf("storage: %v", err))
	}
	return x.raw.QueryRowContext(ctx, q, a...)
}

// db is a connection pool that binds each query for its dialect.
type db struct {
	binder
	DB *sql.DB
}

func newDB(pool *sql.DB, d dialect) *db { return &db{binder{pool, d}, pool} }

// BeginTx starts a transaction. SQLite's are all BEGIN IMMEDIATE (the
// dsn): one writer at a time. PostgreSQL's are read committed, which is
// enough for the writes guarded by a condition (a version, a status) that
// PostgreSQL re-checks on the row it locks; serializable is for those that
// read and then write what they read (see inSerialTx).
func (x *db) BeginTx(ctx context.Context, serializable bool) (*dbTx, error) {
	var opts *sql.TxOptions
	if x.d == postgresDB && serializable {
		opts = &sql.TxOptions{Isolation: sql.LevelSerializable}
	}
	t, err := x.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &dbTx{binder: binder{t, x.d}, Tx: t}, nil
}

// dbTx is a transaction that binds each query for its dialect.
type dbTx struct {
	binder
	Tx *sql.Tx
	// renamed says a player's name was written (upsertPlayer): kept game
	// rows carry names (rowcache.go).
	renamed bool
}

// inTx runs fn in a transaction, committing if it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *dbTx) error) error {
	return s.retryTx(ctx, false, fn)
}

// inSerialTx runs fn in a transaction that reads and then writes what it
// read (a rating, the live message): serializable in PostgreSQL, so that
// what it read is still true when it commits, as with SQLite's single
// writer.
func (s *Store) inSerialTx(ctx context.Context, fn func(tx *dbTx) error) error {
	return s.retryTx(ctx, true, fn)
}

// retryTx runs fn in a transaction. A PostgreSQL transaction that lost a
// race with another process (a serialization failure, a deadlock) is run
// again from the start, so fn must set everything it reports afresh on
// each run.
func (s *Store) retryTx(ctx context.Context, serializable bool, fn func(tx *dbTx) error) (err error) {
	if s.dialect != postgresDB {
		err, _ = s.inGroupTx(ctx, 0, fn)
		return err
	}
	start := time.Now()
	defer func() { s.observe(start, err) }()
	for attempt := 0; ; attempt++ {
		err = s.runTx(ctx, serializable, fn)
		if err == nil || !isRetryable(err) || attempt >= 50 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(1+rand.IntN(2<<min(attempt, 6))) * time.Millisecond):
		}
	}
}

func (s *Store) runTx(ctx context.Context, serializable bool, fn func(tx *dbTx) error) error {
	t, err := s.wdb.BeginTx(ctx, serializable)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if t.renamed { // once it is over, committed or not
			s.writes.renames.Add(1)
		}
	}()
	if err := s.guarded(fn)(t); err != nil { // a panic too: the transaction must end
		t.Tx.Rollback()
		return err
	}
	if err := t.Tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// isRetryable reports a PostgreSQL transaction that may succeed if run
// again: a serialization failure or a deadlock.
func isRetryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// isUnique reports a unique constraint's refusal (a primary key's too),
// in either database.
func isUnique(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
