// Package pgtest starts a throw-away PostgreSQL server for tests: initdb
// on a temporary folder, pg_ctl start on a free port, one new database per
// test. It uses Debian's postgresql package (or any initdb on PATH). When
// the programs are missing, tests skip and say so loudly, unless
// OTHELLO_REQUIRE_POSTGRES=1 (CI) makes that a failure.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"othello-bot/internal/freeport"
)

// Server is a running PostgreSQL server of the tests.
type Server struct {
	bin  string // the folder with initdb, pg_ctl
	dir  string // data in dir/data, socket and log in dir
	port int
	cred *syscall.Credential // run the programs as this user (initdb refuses root)
	n    atomic.Int64
	opts string // the server's options (port, socket, settings)
}

// Options for Start.
type Options struct {
	// Durable keeps fsync and synchronous commits on, as in production
	// (for benchmarks); tests run without them, for speed.
	Durable bool
}

// ErrNotInstalled is returned by Start when no initdb is found.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin; Debian: apt-get install postgresql)")

// findBin finds the folder of initdb and pg_ctl.
func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// Start starts a new server; Stop stops it and removes its files.
func Start(opts Options) (*Server, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "othello-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		// initdb refuses to run as root: use the package's postgres user.
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and there is no postgres user to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := s.run("initdb", "-D", s.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	settings := "-c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB"
	if !opts.Durable {
		settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	for attempt := 0; ; attempt++ {
		if s.port, err = freeport.Port(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.opts = fmt.Sprintf("-p %d -k %s %s", s.port, dir, settings)
		if err = s.Up(); err == nil {
			break
		}
		if attempt == 2 {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			os.RemoveAll(dir)
			return nil, fmt.Errorf("%w\n%s", err, log)
		}
	}
	return s, nil
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

func (s *Server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", name, err, out)
	}
	return nil
}

// URL returns the URL of a database on the server.
func (s *Server) URL(database string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, database)
}

// NewDatabase creates an empty database and returns its URL.
func (s *Server) NewDatabase() (string, error) {
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), s.n.Add(1))
	admin, err := sql.Open("pgx", s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("creating test database: %w", err)
	}
	return s.URL(name), nil
}

// Down stops the server as a crash would, keeping its files: an outage
// until Up.
func (s *Server) Down() error {
	return s.run("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop")
}

// Up starts the server (again), on the same port, and waits until it
// takes connections.
func (s *Server) Up() error {
	return s.run("pg_ctl", "-D", s.data(), "-l", filepath.Join(s.dir, "server.log"), "-w", "-t", "60", "-o", s.opts, "start")
}

// Stop stops the server and removes its files.
func (s *Server) Stop() error {
	return errors.Join(s.Down(), os.RemoveAll(s.dir))
}

var (
	shared     *Server
	sharedErr  error
	sharedOnce sync.Once
	skipNoted  sync.Once
)

// Required reports whether CI asked for the PostgreSQL tests to run.
func Required() bool { return os.Getenv("OTHELLO_REQUIRE_POSTGRES") == "1" }

// Database returns the URL of a new database on the test binary's shared
// server (started on first use, stopped by Main). Without PostgreSQL the
// test is skipped, loudly, or fails when Required.
func Database(t testing.TB) string {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Start(Options{}) })
	if sharedErr != nil {
		if Required() || !errors.Is(sharedErr, ErrNotInstalled) {
			t.Fatalf("PostgreSQL test server: %v", sharedErr)
		}
		skipNoted.Do(func() {
			fmt.Fprintf(os.Stderr, "\n*** SKIPPING THE POSTGRESQL TESTS: %v ***\n\n", sharedErr)
		})
		t.Skipf("SKIPPED (PostgreSQL): %v", sharedErr)
	}
	url, err := shared.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Main runs a package's tests and then stops the shared server, if one
// was started. Use it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the PostgreSQL test server:", err)
		}
	}
	os.Exit(code)
}
