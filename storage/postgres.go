package storage

// This file opens a PostgreSQL database (github.com/jackc/pgx/v5 through
// database/sql): for a bot whose processes run on several hosts. The
// password comes from the environment (PGPASSWORD, or a ~/.pgpass file),
// never from the URL, so it is in no config file and no log line.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// IsPostgres reports whether a database setting names a PostgreSQL
// database (a postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// CheckPostgresURL refuses a PostgreSQL URL that cannot be parsed or that
// carries a password: the password belongs in PGPASSWORD.
func CheckPostgresURL(database string) error {
	u, err := url.Parse(database)
	if err != nil {
		return fmt.Errorf("database: not a valid postgres:// URL")
	}
	if _, has := u.User.Password(); has {
		return fmt.Errorf("database %s: the URL holds a password; put it in the PGPASSWORD environment variable instead", Redact(database))
	}
	if q := u.Query(); q.Has("password") {
		return fmt.Errorf("database %s: the URL holds a password; put it in the PGPASSWORD environment variable instead", Redact(database))
	}
	if u.Host == "" && u.Query().Get("host") == "" {
		return fmt.Errorf("database %s: the URL names no host", Redact(database))
	}
	return nil
}

// Redact returns a database setting fit for a log line: a PostgreSQL URL
// without any password in it.
func Redact(database string) string {
	if !IsPostgres(database) {
		return database
	}
	u, err := url.Parse(database)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// pgConns is how many connections a process keeps to PostgreSQL.
const pgConns = 16

func openPostgres(ctx context.Context, database string, opts Options) (*Store, error) {
	if err := CheckPostgresURL(database); err != nil {
		return nil, err
	}
	name := Redact(database)
	pool, err := sql.Open("pgx", database)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", name, err)
	}
	pool.SetMaxOpenConns(pgConns)
	pool.SetMaxIdleConns(pgConns)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	p := newDB(pool, postgresDB)
	langs := newLangCache()
	langs.off.Store(true) // until this process listens (langlisten.go)
	s := &Store{db: p, wdb: p, writes: &writeCounts{}, dialect: postgresDB, states: newStateCache(), langs: langs, token: rand.Text(), path: name,
		logger: opts.Logger, logRetry: opts.LogRetry, closed: make(chan struct{})}
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := pool.PingContext(pingCtx); err != nil {
		pool.Close()
		return nil, s.describePostgres(err)
	}
	for _, step := range []func(context.Context) error{s.migrate, s.checkWritable} {
		if err := step(ctx); err != nil {
			pool.Close()
			return nil, s.describePostgres(err)
		}
	}
	s.retryDone.Add(1)
	go s.listenLanguages(database)
	return s, nil
}

// describePostgres puts a PostgreSQL failure at start in one line naming
// the database (without its password).
func (s *Store) describePostgres(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "28P01" || pe.Code == "28000":
			return fmt.Errorf("database %s: the server refused the login (%s); check the user and PGPASSWORD", s.path, pe.Message)
		case pe.Code == "3D000":
			return fmt.Errorf("database %s: %s; create it first (createdb)", s.path, pe.Message)
		case pe.Code == "42501":
			return fmt.Errorf("database %s: this user may not write there (%s)", s.path, pe.Message)
		}
	}
	if strings.HasPrefix(err.Error(), "database "+s.path) {
		return err
	}
	return fmt.Errorf("database %s: %w", s.path, err)
}

// pgMigrationLock is the advisory lock that lets one process at a time
// migrate a PostgreSQL database.
const pgMigrationLock = 0x07e110

// migratePostgres applies every migration newer than the schema_version
// row, each in a transaction holding the migration lock, so processes that
// start together on a new database apply each migration once.
func (s *Store) migratePostgres(ctx context.Context, ms []migration) error {
	for _, m := range ms {
		if err := s.applyPostgresMigration(ctx, m); err != nil {
			return fmt.Errorf("migration postgres/%s: %w", m.name, err)
		}
	}
	return nil
}

// applyPostgresMigration applies one migration unless another process did.
// The transaction is read committed: after waiting for the lock, the
// version is read afresh.
func (s *Store) applyPostgresMigration(ctx context.Context, m migration) error {
	t, err := s.wdb.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer t.Rollback()
	tx := &dbTx{binder: binder{t, postgresDB}, Tx: t}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, pgMigrationLock); err != nil {
		return err
	}
	// Under the lock: two processes creating the table at once collide
	// even with IF NOT EXISTS (a duplicate type, 42710).
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("schema version table: %w", err)
	}
	current, err := pgVersion(ctx, tx)
	if err != nil || current >= m.version {
		return err
	}
	if current != m.version-1 {
		return fmt.Errorf("schema version is %d, this migration needs %d", current, m.version-1)
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM schema_version`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, m.version); err != nil {
		return err
	}
	if err := t.Commit(); err != nil {
		return err
	}
	s.logger.Info("applied migration", "database", s.path, "migration", "postgres/"+m.name)
	return nil
}

func pgVersion(ctx context.Context, q querier) (int, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v)
	return int(v.Int64), err
}
