package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"othello-bot/record"
)

// A results log pointed at the database, through any name for it, is
// refused and the database is left whole.
func TestResultsLogRefusesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	s := openAt(t, dbPath, "")
	g := newGame(t, s, "c", record.Human(alice), record.Bot(1), 6)
	playRandom(t, s, g, 5, rand.New(rand.NewPCG(1, 1)))
	s.Close()
	before := must(os.ReadFile(dbPath))

	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(dbPath, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.db")
	if err := os.Link(dbPath, hard); err != nil {
		t.Fatal(err)
	}
	for _, logPath := range []string{dbPath, link, hard, dbPath + "-wal"} {
		if _, err := os.Stat(logPath); err != nil {
			continue // no WAL file left after a clean close
		}
		_, err := Open(context.Background(), dbPath, Options{ResultsLog: logPath, Logger: quiet})
		if err == nil || !strings.Contains(err.Error(), "is the database file") || !strings.Contains(err.Error(), logPath) {
			t.Errorf("log %s: %v, want a refusal naming it", logPath, err)
		}
	}
	if after := must(os.ReadFile(dbPath)); string(after) != string(before) {
		t.Fatal("the database file changed")
	}
	s = openAt(t, dbPath, "")
	var check string
	s.db.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&check)
	if check != "ok" {
		t.Fatalf("integrity_check: %s", check)
	}
}

// Files that are not results logs are refused untouched; only a torn last
// line that starts like a result is cut.
func TestResultsLogRepairCutsOnlyATornResult(t *testing.T) {
	whole := `2026-11-22T04:20:00Z game=1 server="g" size=4 black="alice" black_id="1" white="bot" white_level=1 score=10-6 winner=black end=normal transcript="c1"` + "\n"
	cases := []struct {
		name, content string
		ok            bool
		after         string
	}{
		{"json", `{"database":"x"}` + "\n", false, ""},
		{"json no newline", `{"database":"xyz"}`, false, ""},
		{"notes", "remember the milk\nand eggs\n", false, ""},
		{"log with foreign tail", whole + "some other text", false, ""},
		{"log with torn result", whole + whole[:40], true, whole},
		{"torn very early", whole + "2026-1", true, whole},
		{"only a torn result", whole[:30], true, ""},
		{"whole log", whole + whole, true, whole + whole},
		{"empty", "", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.log")
			os.WriteFile(path, []byte(c.content), 0o644)
			l, err := OpenResultsLog(path)
			got := string(must(os.ReadFile(path)))
			if !c.ok {
				if err == nil {
					l.Close()
					t.Fatal("opened")
				}
				if !strings.Contains(err.Error(), path) || got != c.content {
					t.Fatalf("%v; file now %q", err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
			if got != c.after {
				t.Fatalf("file now %q, want %q", got, c.after)
			}
		})
	}
}

// faultyFile fails writes once the disk is "full": a write gets as many
// bytes as fit, then ENOSPC, as a real file system does.
type faultyFile struct {
	*os.File
	mu   sync.Mutex
	room int // bytes that still fit; <0 means unlimited
}

func (f *faultyFile) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.room < 0 || len(b) <= f.room {
		if f.room >= 0 {
			f.room -= len(b)
		}
		return f.File.Write(b)
	}
	n, _ := f.File.Write(b[:f.room])
	f.room = 0
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (f *faultyFile) setRoom(n int) {
	f.mu.Lock()
	f.room = n
	f.mu.Unlock()
}

// faultyLog is the faultyFile the next opened results log gets.
type faultyLog struct {
	mu sync.Mutex
	f  *faultyFile
}

func (h *faultyLog) setRoom(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.f.setRoom(n)
}

// withFaultyLog makes results log files faultyFiles with the given room
// until the test ends.
func withFaultyLog(t *testing.T, room int) *faultyLog {
	h := &faultyLog{}
	orig := openLogFile
	openLogFile = func(path string) (logFile, error) {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.f = &faultyFile{File: f, room: room}
		return h.f, nil
	}
	t.Cleanup(func() { openLogFile = orig })
	return h
}

type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func finishedGame(t *testing.T, s *Store, channel string, rng *rand.Rand) *record.Game {
	g := newGame(t, s, channel, record.Human(alice), record.Bot(2), 4)
	playRandom(t, s, g, 40, rng)
	finish(t, s, g, record.EndNormal)
	return g
}

// A line half-written to a full disk is cut back, so the next game's line
// is not glued onto it, and the lost line is written once there is room.
func TestResultsLogShortWriteLosesNothing(t *testing.T) {
	dir := t.TempDir()
	dbPath, logPath := filepath.Join(dir, "bot.db"), filepath.Join(dir, "results.log")
	orig := openLogFile
	ff := withFaultyLog(t, 60)
	s, err := Open(context.Background(), dbPath, Options{ResultsLog: logPath, Logger: quiet, LogRetry: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	g1 := finishedGame(t, s, "c1", rng) // 60 bytes fit, then the disk is full
	if got := string(must(os.ReadFile(logPath))); got != "" {
		t.Fatalf("after the failed write the log holds %q", got)
	}
	ff.setRoom(-1) // space freed
	g2 := finishedGame(t, s, "c2", rng)
	s.Close()

	openLogFile = orig
	for restart := 0; restart < 2; restart++ {
		s = openAt(t, dbPath, logPath)
		lines := logLines(t, logPath)
		if len(lines) != 2 || countGame(lines, g1.ID) != 1 || countGame(lines, g2.ID) != 1 {
			t.Fatalf("restart %d: lines %q", restart, lines)
		}
		s.Close()
	}
}

// A full disk under the log does not stop the bot from starting; the
// missing lines follow in the background once there is room.
func TestResultsLogFullDiskAtStart(t *testing.T) {
	dir := t.TempDir()
	dbPath, logPath := filepath.Join(dir, "bot.db"), filepath.Join(dir, "results.log")
	s := openAt(t, dbPath, "") // games finished while the log was elsewhere
	rng := rand.New(rand.NewPCG(8, 8))
	g1 := finishedGame(t, s, "c1", rng)
	g2 := finishedGame(t, s, "c2", rng)
	s.Close()

	ff := withFaultyLog(t, 0)
	logs := &syncWriter{}
	s, err := Open(context.Background(), dbPath, Options{ResultsLog: logPath, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		LogRetry: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("a full disk under the log stopped the start: %v", err)
	}
	defer s.Close()
	said := logs.String()
	if !strings.Contains(said, "RESULTS LOG CANNOT BE WRITTEN") || !strings.Contains(said, "no space left") {
		t.Fatalf("the log does not say so loudly: %s", said)
	}
	// The bot works meanwhile.
	g3 := finishedGame(t, s, "c3", rng)
	ff.setRoom(-1)
	deadline := time.Now().Add(10 * time.Second)
	for {
		lines := logLines(t, logPath)
		if len(lines) == 3 {
			for _, g := range []*record.Game{g1, g2, g3} {
				if countGame(lines, g.ID) != 1 {
					t.Fatalf("game %d: lines %q", g.ID, lines)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the disk got room: %q", lines)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The line check sees a whole line only: glued or cut lines do not count.
func TestParseResultLine(t *testing.T) {
	a := `2026-11-22T04:20:00Z game=12 server="g" size=8 black="al ice" black_id="1" white="bot" white_level=5 score=36-28 winner=black end=normal transcript="f5d6"`
	b := `2026-11-22T04:21:00Z game=13 server="g" size=8 black="bot" black_level=3 white="bob" white_id="2" score=0-0 winner=none end=abort transcript=""`
	if id, ok := parseResultLine(a); !ok || id != 12 {
		t.Fatalf("whole line: %d %v", id, ok)
	}
	if id, ok := parseResultLine(b); !ok || id != 13 {
		t.Fatalf("whole line: %d %v", id, ok)
	}
	c := `2026-11-22T04:22:00Z game=14 server="g" size=8 black="x" black_id="1" white="y" white_id="2" score=9-7 winner=none end=aborted-by-moderator note="said \"hi\" = rude" transcript="f5d6"`
	if id, ok := parseResultLine(c); !ok || id != 14 {
		t.Fatalf("line with a note: %d %v", id, ok)
	}
	for _, a := range []string{a, c} {
		for i := 1; i < len(a); i++ {
			if _, ok := parseResultLine(a[:i]); ok {
				t.Errorf("cut at %d accepted: %s", i, a[:i])
			}
			if _, ok := parseResultLine(a[:i] + b); ok {
				t.Errorf("glued at %d accepted: %s", i, a[:i]+b)
			}
		}
	}
}

// Two processes that migrate one new database at the same moment both
// start.
func TestConcurrentMigrationOfANewDatabase(t *testing.T) {
	for round := 0; round < 5; round++ {
		path := filepath.Join(t.TempDir(), "new.db")
		const n = 4
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				s, err := Open(context.Background(), path, Options{Logger: quiet})
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			}(i)
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, opener %d: %v", round, i, err)
			}
		}
	}
}

// A damaged database is refused at start with one line naming it.
func TestDamagedDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	s := openAt(t, dbPath, "")
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 60; i++ {
		finishedGame(t, s, fmt.Sprintf("c%d", i), rng)
	}
	s.Close()
	data := must(os.ReadFile(dbPath))
	if len(data) < 40000 {
		t.Fatalf("database only %d bytes", len(data))
	}

	garbage := filepath.Join(dir, "garbage.db")
	bad := append([]byte{}, data...)
	for i := len(bad) / 2; i < len(bad)/2+4096; i++ {
		bad[i] = byte(rng.IntN(256))
	}
	os.WriteFile(garbage, bad, 0o644)
	truncated := filepath.Join(dir, "truncated.db")
	os.WriteFile(truncated, data[:len(data)/2], 0o644)

	for _, path := range []string{garbage, truncated} {
		_, err := Open(context.Background(), path, Options{Logger: quiet})
		if err == nil {
			t.Errorf("%s opened", path)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "damaged") || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one line naming the path and saying it is damaged", path, msg)
		}
	}
}

// A database held by another program past the busy timeout is named.
func TestLockedDatabaseIsNamed(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the busy timeout")
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	s := openAt(t, dbPath, "")
	conn, err := s.wdb.DB.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "PRAGMA locking_mode = EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE; UPDATE players SET name = name; COMMIT"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), dbPath, Options{Logger: quiet})
	if err == nil || !strings.Contains(err.Error(), dbPath) || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("%v, want the path and that it is locked", err)
	}
}

const readOnlyChildEnv = "OTHELLO_STORAGE_READONLY_CHILD"

// TestReadOnlyChild opens the database named in its environment and prints
// the error: the child of TestReadOnlyDatabaseIsRefused, run as an
// unprivileged user when the tests run as root (for whom file modes do not
// apply).
func TestReadOnlyChild(t *testing.T) {
	path := os.Getenv(readOnlyChildEnv)
	if path == "" {
		t.Skip("only runs as the child of TestReadOnlyDatabaseIsRefused")
	}
	s, err := Open(context.Background(), path, Options{Logger: quiet})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	s.Close()
	fmt.Println("opened")
}

// A database file that cannot be written is refused at start with one
// line naming it, instead of failing every move later.
func TestReadOnlyDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "bot.db")
	s := openAt(t, dbPath, "")
	finishedGame(t, s, "c", rand.New(rand.NewPCG(1, 2)))
	s.Close()
	if err := os.Chmod(dbPath, 0o444); err != nil {
		t.Fatal(err)
	}
	var out string
	if os.Geteuid() != 0 {
		_, err := Open(context.Background(), dbPath, Options{Logger: quiet})
		out = fmt.Sprint("error: ", err)
		if err == nil {
			out = "opened"
		}
	} else {
		out = runAsNobody(t, dir, readOnlyChildEnv+"="+dbPath, "^TestReadOnlyChild$")
	}
	out = strings.TrimSpace(out)
	if !strings.HasPrefix(out, "error:") || !strings.Contains(out, dbPath) || !strings.Contains(out, "cannot write") {
		t.Fatalf("read-only database: %q", out)
	}
}

// runAsNobody runs this test binary as the unprivileged user nobody, with
// env and -test.run=run, and returns its first output line. The binary is
// copied where nobody may run it, and dir is opened up to nobody.
func runAsNobody(t *testing.T, dir, env, run string) string {
	t.Helper()
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "child.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	src.Close()
	dst.Close()
	cmd := exec.Command(bin, "-test.run="+run, "-test.count=1")
	cmd.Env = append(os.Environ(), env)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Skipf("cannot run a child as nobody here (%v): SKIPPING the read-only check", err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}
