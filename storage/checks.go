package storage

// This file is the checks at start: the paths, the connection settings,
// writability and integrity, and errors that name the database.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mattn/go-sqlite3"
)

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

func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// checkWritable makes a write that is rolled back: a database opened
// read-only (the file's mode, a read-only mount) fails here, at start,
// rather than at every move.
func (s *Store) checkWritable(ctx context.Context) error {
	tx, err := s.wdb.BeginTx(ctx, false)
	if err != nil {
		return err
	}
	defer tx.Tx.Rollback()
	if s.dialect == postgresDB {
		_, err = tx.ExecContext(ctx, "UPDATE schema_version SET version = version")
		return err
	}
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
	conn, err := s.wdb.DB.Conn(ctx)
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
