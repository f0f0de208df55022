package storage

// This file is leases: a duty that one process at a time does among those
// sharing a database (the timers), taken over when its holder stops
// renewing it.

import (
	"context"
	"fmt"
	"time"
)

// HoldLease takes or renews the lease called name for holder until now+ttl.
// It reports whether holder has it: true while it keeps renewing in time,
// and for another holder only once the lease has run out.
func (s *Store) HoldLease(ctx context.Context, name, holder string, ttl time.Duration, now time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE leases.holder = excluded.holder OR leases.expires_at < ?`, name, holder, millis(now.Add(ttl)), millis(now))
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", name, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Instance is the name this process goes by in the database.
func (s *Store) Instance() string { return s.instance }

// Shared reports whether other processes may use the database too
// (PostgreSQL).
func (s *Store) Shared() bool { return s.dialect == postgresDB }

// Now is the database's clock (PostgreSQL) or this host's (SQLite): the
// one clock all processes sharing a database agree on, for leases.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	if s.dialect != postgresDB {
		return time.Now(), nil
	}
	var ms int64
	if err := s.db.QueryRowContext(ctx, `SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)`).Scan(&ms); err != nil {
		return time.Time{}, fmt.Errorf("reading the database's clock: %w", err)
	}
	return fromMillis(ms), nil
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	return nil
}

// CountLeases counts the leases named prefix… (a constant without LIKE's
// % or _) that some holder keeps renewing: the processes doing a duty
// together (sharing Discord's global rate limit, say).
func (s *Store) CountLeases(ctx context.Context, prefix string, now time.Time) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM leases WHERE name LIKE ? AND expires_at >= ?`,
		prefix+"%", millis(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting leases %s…: %w", prefix, err)
	}
	return n, nil
}

// ReleaseLease gives up holder's lease called name at once.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM leases WHERE name = ? AND holder = ?`, name, holder); err != nil {
		return fmt.Errorf("releasing lease %s: %w", name, err)
	}
	return nil
}
