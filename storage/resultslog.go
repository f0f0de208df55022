package storage

// This file is the results log file: appended a line per finished game,
// repaired and caught up at start, retried while the disk is full.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// ResultsLog is the append-only text file with one line per finished game.
// Each line is flushed to disk before the database notes it as logged; a
// line cut short by a crash or a failed write is cut off again, and only a
// whole line counts as logged.
type ResultsLog struct {
	mu   sync.Mutex
	f    logFile
	path string
	// torn is set when a failed write could not be cut back: the next
	// append repairs the tail first.
	torn bool
}

// logFile is what the log needs of its file; tests put faults in it.
type logFile interface {
	io.ReaderAt
	io.Writer
	io.Seeker
	Truncate(size int64) error
	Sync() error
	Close() error
}

// openLogFile opens the log's file; tests replace it to inject faults.
var openLogFile = func(path string) (logFile, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}

// OpenResultsLog opens (creating if needed) the results log for appending.
// It refuses a file that is not a results log, and cuts off at most one
// torn last line that a crash left without its newline.
func OpenResultsLog(path string) (*ResultsLog, error) {
	f, err := openLogFile(path)
	if err != nil {
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	if err := checkAndRepair(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	return &ResultsLog{f: f, path: path}, nil
}

// maxTornLine bounds what repair may cut: a result line of the largest
// game is a few kilobytes.
const maxTornLine = 64 << 10

// checkAndRepair refuses a file whose first line is not a result line (a
// database, a config file someone pointed the log at), then cuts a torn
// last line if it starts like a result line, and refuses any other tail.
// It leaves the offset at the end.
func checkAndRepair(f logFile) error {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return err
	}
	head := make([]byte, min(size, 256))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if line, _, _ := bytes.Cut(head, []byte{'\n'}); !startsLikeResult(line) {
		return errors.New("the file is not a results log (its first line is not a game result); give the log a file of its own")
	}
	tailStart := max(0, size-maxTornLine)
	tail := make([]byte, size-tailStart)
	if _, err := f.ReadAt(tail, tailStart); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if tail[len(tail)-1] == '\n' {
		return nil
	}
	i := bytes.LastIndexByte(tail, '\n')
	if i < 0 && tailStart > 0 {
		return fmt.Errorf("its last line is over %d bytes and not a result line; not touching it", maxTornLine)
	}
	torn := tail[i+1:]
	if !startsLikeResult(torn) {
		return errors.New("its last line is not a game result; not touching it (move the file aside or fix its end)")
	}
	return truncate(f, tailStart+int64(i)+1)
}

func truncate(f logFile, n int64) error {
	if err := f.Truncate(n); err != nil {
		return err
	}
	if _, err := f.Seek(n, io.SeekStart); err != nil {
		return err
	}
	return f.Sync()
}

// Path returns the file's path.
func (l *ResultsLog) Path() string { return l.path }

// Append writes lines and flushes them to disk, in one write. If the
// write or the flush fails (a full disk), the file is cut back to where
// the lines began, so no half line stays for the next one to be glued
// onto.
func (l *ResultsLog) Append(lines ...string) error {
	return l.write(true, lines...)
}

// write puts lines at the end of the file in one write (readers see them
// at once), flushed to disk too when sync is set; what fails is cut back.
func (l *ResultsLog) write(sync bool, lines ...string) error {
	var buf strings.Builder
	for _, line := range lines {
		if strings.ContainsAny(line, "\n\r") {
			return fmt.Errorf("results log %s: a line may not contain a newline", l.path)
		}
		buf.WriteString(line + "\n")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.torn {
		if err := checkAndRepair(l.f); err != nil {
			return fmt.Errorf("results log %s: repairing after a failed write: %w", l.path, err)
		}
		l.torn = false
	}
	start, err := l.f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	_, err = l.f.Write([]byte(buf.String()))
	if err == nil && sync {
		err = l.f.Sync()
	}
	if err != nil {
		if terr := truncate(l.f, start); terr != nil {
			l.torn = true
			err = errors.Join(err, fmt.Errorf("cutting back the partial line: %w", terr))
		}
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	return nil
}

// sync flushes to disk everything written so far.
func (l *ResultsLog) sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	return nil
}

// loggedGames returns which of the given game ids already have a whole,
// well-formed line ending in a newline.
func (l *ResultsLog) loggedGames(ids map[int64]bool) (map[int64]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	size, err := l.f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	found := map[int64]bool{}
	r := bufio.NewReader(io.NewSectionReader(l.f, 0, size))
	for {
		line, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) {
			break // a last line without its newline is not whole
		}
		if err != nil {
			return nil, err
		}
		if id, ok := parseResultLine(strings.TrimSuffix(line, "\n")); ok && ids[id] {
			found[id] = true
		}
	}
	return found, nil
}

// Close closes the file.
func (l *ResultsLog) Close() error { return l.f.Close() }

// logResult appends a finished game's line and then notes it as logged,
// unless a background catch-up got there first.
func (s *Store) logResult(ctx context.Context, gameID int64) error {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	var logged bool
	if err := s.wdb.QueryRowContext(ctx, `SELECT logged_at IS NOT NULL FROM results WHERE game_id = ?`, gameID).Scan(&logged); err != nil {
		return fmt.Errorf("reading result of game %d: %w", gameID, err)
	}
	if logged {
		return nil
	}
	return s.appendResult(ctx, gameID)
}

func (s *Store) appendResult(ctx context.Context, gameID int64) error {
	if err := s.appendResults(ctx, []int64{gameID}); err != nil {
		return err
	}
	return s.markLoggedAll(ctx, s.wdb, []int64{gameID})
}

// appendResults writes games' lines in one append, flushed to disk;
// s.logMu is held.
func (s *Store) appendResults(ctx context.Context, ids []int64) error {
	return s.writeResults(ctx, ids, true)
}

// writeResults writes games' lines in one write, flushed to disk when
// sync is set; s.logMu is held.
func (s *Store) writeResults(ctx context.Context, ids []int64, sync bool) error {
	lines, err := s.resultLines(ctx, ids)
	if err != nil {
		return err
	}
	return s.results.write(sync, lines...)
}

// logOwner is the process whose results log gets the lines of the games
// this one finishes: itself, or nobody when it keeps no log (then the
// first process with a log to catch up takes them).
func (s *Store) logOwner() sql.NullString {
	if s.results == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: s.instance, Valid: true}
}

// catchUpResultsLog writes the lines of finished games the log is missing:
// those whose process stopped between the database commit and the append.
// A line that made it to the file before the stop is not written again.
func (s *Store) catchUpResultsLog(ctx context.Context) error {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	query, args := `SELECT game_id FROM results WHERE logged_at IS NULL ORDER BY game_id`, []any(nil)
	if s.dialect == postgresDB {
		// Shared by processes: each logs the games it finished. Games
		// nobody owns (copied in from SQLite) go to the first who asks.
		if _, err := s.wdb.ExecContext(ctx, `UPDATE results SET logged_by = ? WHERE logged_at IS NULL AND logged_by IS NULL`,
			s.instance); err != nil {
			return fmt.Errorf("results log catch-up: %w", err)
		}
		query, args = `SELECT game_id FROM results WHERE logged_at IS NULL AND logged_by = ? ORDER BY game_id`, []any{s.instance}
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("results log catch-up: %w", err)
	}
	pending := map[int64]bool{}
	var order []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		pending[id] = true
		order = append(order, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(order) == 0 {
		return err
	}
	present, err := s.results.loggedGames(pending)
	if err != nil {
		return fmt.Errorf("results log %s: %w", s.results.Path(), err)
	}
	for _, id := range order {
		if present[id] {
			err = s.markLoggedAll(ctx, s.wdb, []int64{id})
		} else {
			err = s.appendResult(ctx, id)
		}
		if err != nil {
			return err
		}
	}
	s.logger.Info("results log caught up", "path", s.results.Path(), "games", len(order), "already_there", len(present))
	return nil
}

// retryResultsLog starts, unless one is running, a background catch-up
// that tries every logRetry until the log has every finished game or the
// store is closed.
func (s *Store) retryResultsLog() {
	s.retryMu.Lock()
	defer s.retryMu.Unlock()
	select {
	case <-s.closed:
		return
	default:
	}
	if s.retrying {
		return
	}
	s.retrying = true
	s.retryDone.Add(1)
	go func() {
		defer s.retryDone.Done()
		t := time.NewTicker(s.logRetry)
		defer t.Stop()
		for {
			select {
			case <-s.closed:
				return
			case <-t.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			err := s.catchUpResultsLog(ctx)
			cancel()
			if err == nil {
				s.retryMu.Lock()
				s.retrying = false
				s.retryMu.Unlock()
				s.logger.Warn("results log can be written again and is up to date", "path", s.results.Path())
				return
			}
			s.logger.Error("RESULTS LOG STILL CANNOT BE WRITTEN", "path", s.results.Path(), "err", err)
		}
	}()
}
