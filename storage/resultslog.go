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

// resultShape is the start every result line has: "dddd-dd-ddTdd:dd:ddZ game=".
const resultShape = "0000-00-00T00:00:00Z game="

// startsLikeResult reports whether b starts as a result line does, or is
// a beginning of that start (a line torn very early).
func startsLikeResult(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i := 0; i < len(b) && i < len(resultShape); i++ {
		want := resultShape[i]
		if want == '0' && (b[i] < '0' || b[i] > '9') || want != '0' && b[i] != want {
			return false
		}
	}
	return true
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

// Append writes one line and flushes it to disk. If the write or the
// flush fails (a full disk), the file is cut back to where the line began,
// so no half line stays for the next one to be glued onto.
func (l *ResultsLog) Append(line string) error {
	if strings.ContainsAny(line, "\n\r") {
		return fmt.Errorf("results log %s: a line may not contain a newline", l.path)
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
	_, err = l.f.Write([]byte(line + "\n"))
	if err == nil {
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

// parseResultLine checks a line field by field, in the order resultLine
// writes them, and returns its game id. Two lines glued together by a torn
// write do not pass.
func parseResultLine(line string) (int64, bool) {
	var gameID int64
	rest := line
	field := func(key string, check func(v string) bool) bool {
		if !strings.HasPrefix(rest, key+"=") {
			return false
		}
		rest = rest[len(key)+1:]
		var v string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return false
			}
			v, rest = q, rest[len(q):]
		} else {
			v, rest, _ = strings.Cut(rest, " ")
			rest = " " + rest
		}
		if check != nil && !check(v) {
			return false
		}
		if rest == "" {
			return true
		}
		if rest[0] != ' ' {
			return false
		}
		rest = rest[1:]
		return true
	}
	quoted := func(v string) bool { _, err := strconv.Unquote(v); return err == nil && strings.HasPrefix(v, `"`) }
	number := func(v string) bool { _, err := strconv.Atoi(v); return err == nil }
	stamp, after, ok := strings.Cut(rest, " ")
	if _, err := time.Parse(time.RFC3339, stamp); !ok || err != nil {
		return 0, false
	}
	rest = after
	ok = field("game", func(v string) bool {
		id, err := strconv.ParseInt(v, 10, 64)
		gameID = id
		return err == nil && id > 0
	}) && field("server", quoted) && field("size", number)
	for _, color := range []string{"black", "white"} {
		ok = ok && field(color, quoted)
		if strings.HasPrefix(rest, color+"_id=") {
			ok = ok && field(color+"_id", quoted)
		} else {
			ok = ok && field(color+"_level", number)
		}
	}
	ok = ok && field("score", func(v string) bool {
		a, b, found := strings.Cut(v, "-")
		return found && number(a) && number(b)
	}) && field("winner", func(v string) bool {
		return v == "black" || v == "white" || v == "draw" || v == "none"
	}) && field("end", func(v string) bool { return v != "" && !strings.ContainsAny(v, `"=`) })
	if !ok || !strings.HasPrefix(rest, "transcript=") || !field("transcript", quoted) || rest != "" {
		return 0, false
	}
	return gameID, true
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
	s.logMu.Lock()
	defer s.logMu.Unlock()
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
			err = s.appendResult(ctx, id)
		}
		if err != nil {
			return err
		}
	}
	s.logger.Info("results log caught up", "path", s.log.Path(), "games", len(order), "already_there", len(present))
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
				s.logger.Warn("results log can be written again and is up to date", "path", s.log.Path())
				return
			}
			s.logger.Error("RESULTS LOG STILL CANNOT BE WRITTEN", "path", s.log.Path(), "err", err)
		}
	}()
}
