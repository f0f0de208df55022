package storage

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ResultsLog is the append-only text file with one line per finished game.
// Each line is flushed to disk before the database notes it as logged; a
// line cut short by a crash is cut off at the next open and written again.
type ResultsLog struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// OpenResultsLog opens (creating if needed) the results log for appending,
// first removing a last line that a crash left without its newline.
func OpenResultsLog(path string) (*ResultsLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	if err := repairTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	return &ResultsLog{f: f, path: path}, nil
}

// repairTail truncates the file after its last newline and leaves the
// offset at the end.
func repairTail(f *os.File) error {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return err
	}
	const chunk = 4096
	buf := make([]byte, chunk)
	end := size
	for end > 0 {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			cut := start + int64(i) + 1
			if cut == size {
				return nil
			}
			return truncate(f, cut)
		}
		end = start
	}
	return truncate(f, 0) // not one whole line
}

func truncate(f *os.File, n int64) error {
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

// Append writes one line and flushes it to disk.
func (l *ResultsLog) Append(line string) error {
	if strings.ContainsAny(line, "\n\r") {
		return fmt.Errorf("results log %s: a line may not contain a newline", l.path)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	if _, err := l.f.WriteString(line + "\n"); err != nil {
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("results log %s: %w", l.path, err)
	}
	return nil
}

// loggedGames returns which of the given game ids already have a line.
func (l *ResultsLog) loggedGames(ids map[int64]bool) (map[int64]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	found := map[int64]bool{}
	sc := bufio.NewScanner(l.f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if id, ok := lineGameID(sc.Text()); ok && ids[id] {
			found[id] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	_, err := l.f.Seek(0, io.SeekEnd)
	return found, err
}

// lineGameID reads the game id from a line's second field, "game=ID".
func lineGameID(line string) (int64, bool) {
	fields := strings.SplitN(line, " ", 3)
	if len(fields) < 2 || !strings.HasPrefix(fields[1], "game=") {
		return 0, false
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fields[1], "game="), 10, 64)
	return id, err == nil
}

// Close closes the file.
func (l *ResultsLog) Close() error { return l.f.Close() }

// resultLine formats the log line of a finished game:
//
//	2026-11-22T04:20:00Z game=42 server="123" size=8 black="alice" black_id="111" white="bot" white_level=5 score=36-28 winner=black end=normal transcript="f5d6c3..."
func (s *Store) resultLine(ctx context.Context, gameID int64) (string, error) {
	var (
		guild, winner, reason, transcript string
		finished                          int64
		size, bd, wd                      int
		bid, bname, wid, wname            sql.NullString
		blv, wlv                          sql.NullInt64
	)
	err := s.db.QueryRowContext(ctx, `SELECT r.guild_id, r.finished_at, r.size, r.black_id, pb.name, r.black_level,
		r.white_id, pw.name, r.white_level, r.black_discs, r.white_discs, r.winner, r.reason, r.transcript
		FROM results r LEFT JOIN players pb ON pb.id = r.black_id LEFT JOIN players pw ON pw.id = r.white_id
		WHERE r.game_id = ?`, gameID).Scan(&guild, &finished, &size, &bid, &bname, &blv, &wid, &wname, &wlv, &bd, &wd,
		&winner, &reason, &transcript)
	if err != nil {
		return "", fmt.Errorf("reading result of game %d: %w", gameID, err)
	}
	side := func(color string, id, name sql.NullString, level sql.NullInt64) string {
		if id.Valid {
			return fmt.Sprintf("%s=%s %s_id=%s", color, strconv.Quote(name.String), color, strconv.Quote(id.String))
		}
		return fmt.Sprintf("%s=\"bot\" %s_level=%d", color, color, level.Int64)
	}
	win := map[string]string{"X": "black", "O": "white", "draw": "draw", "none": "none"}[winner]
	return fmt.Sprintf("%s game=%d server=%s size=%d %s %s score=%d-%d winner=%s end=%s transcript=%s",
		time.UnixMilli(finished).UTC().Format(time.RFC3339), gameID, strconv.Quote(guild), size,
		side("black", bid, bname, blv), side("white", wid, wname, wlv), bd, wd, win, reason, strconv.Quote(transcript)), nil
}

// logResult appends a finished game's line and then notes it as logged.
func (s *Store) logResult(ctx context.Context, gameID int64) error {
	line, err := s.resultLine(ctx, gameID)
	if err != nil {
		return err
	}
	if err := s.log.Append(line); err != nil {
		return err
	}
	return s.markLogged(ctx, gameID)
}

func (s *Store) markLogged(ctx context.Context, gameID int64) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE results SET logged_at = ? WHERE game_id = ?`, millis(time.Now()), gameID)
	if err != nil {
		return fmt.Errorf("noting result of game %d as logged: %w", gameID, err)
	}
	return nil
}

// catchUpResultsLog writes the lines of finished games the log is missing:
// those whose process stopped between the database commit and the append.
// A line that made it to the file before the stop is not written again.
func (s *Store) catchUpResultsLog(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id FROM results WHERE logged_at IS NULL ORDER BY game_id`)
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
	present, err := s.log.loggedGames(pending)
	if err != nil {
		return fmt.Errorf("results log %s: %w", s.log.Path(), err)
	}
	for _, id := range order {
		if present[id] {
			err = s.markLogged(ctx, id)
		} else {
			err = s.logResult(ctx, id)
		}
		if err != nil {
			return err
		}
	}
	s.logger.Info("results log caught up", "path", s.log.Path(), "games", len(order), "already_there", len(present))
	return nil
}
