package storage

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"othello-bot/game"
	"othello-bot/record"
)

const (
	childEnv   = "OTHELLO_STORAGE_CRASH_CHILD"
	childDBEnv = "OTHELLO_STORAGE_CRASH_DB" // the database, a file or a URL
)

// TestCrashChild is the child process of TestKill9LosesNothing: it plays
// random games into the database given in its environment, printing
// "ack GAME PLIES" after each committed turn and "done GAME" after each
// finished game, until it is killed.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("only runs as the child of TestKill9LosesNothing")
	}
	s, err := Open(context.Background(), os.Getenv(childDBEnv), Options{ResultsLog: filepath.Join(dir, "results.log"), Logger: quiet})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 1))
	for n := 0; ; n++ {
		g := newGame(t, s, fmt.Sprintf("crash-%d-%d", os.Getpid(), n), record.Human(alice), record.Bot(5), 6)
		rules := g.State
		for !rules.Over() {
			rules = playRandom(t, s, g, 1, rng)
			fmt.Printf("ack %d %d\n", g.ID, len(g.Plies()))
		}
		finish(t, s, g, record.EndNormal)
		fmt.Printf("done %d\n", g.ID)
	}
}

// A process killed with SIGKILL in the middle of a stream of moves loses
// none it acknowledged, the database opens cleanly, and the results log has
// every finished game exactly once.
func TestKill9LosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	eachBackend(t, kill9LosesNothing)
}

func kill9LosesNothing(t *testing.T, database string) {
	dir := t.TempDir()
	acked := map[int64]int{}
	var finished []int64
	for round := 0; round < 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+dir, childDBEnv+"="+database)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a varying number of acknowledgements.
		killAfter := 40 + round*37
		sc := bufio.NewScanner(out)
		n := 0
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 3 && f[0] == "ack":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				plies, _ := strconv.Atoi(f[2])
				acked[id] = plies
				n++
			case len(f) == 2 && f[0] == "done":
				id, _ := strconv.ParseInt(f[1], 10, 64)
				finished = append(finished, id)
			case len(f) > 0 && f[0] == "error":
				t.Fatal(sc.Text())
			}
			if n >= killAfter {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if n < killAfter {
			t.Fatalf("round %d: child stopped after %d acks", round, n)
		}
	}

	s := openAt(t, database, filepath.Join(dir, "results.log"))
	ctx := context.Background()
	if s.dialect == sqliteDB {
		var check string
		if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Fatalf("integrity_check: %q %v", check, err)
		}
	}
	for id, plies := range acked {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %d: %v", id, err)
		}
		if len(g.Plies()) < plies {
			t.Errorf("game %d: %d plies stored, %d acknowledged", id, len(g.Plies()), plies)
		}
		rules, err := game.ReplayPlies(g.State.Start(), g.Plies())
		if err != nil || !rules.Position().Equal(g.Position()) {
			t.Errorf("game %d does not replay to its stored position: %v", id, err)
		}
	}
	lines := logLines(t, filepath.Join(dir, "results.log"))
	var results []int64
	rows, _ := s.db.QueryContext(ctx, `SELECT game_id FROM results`)
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		results = append(results, id)
	}
	rows.Close()
	if len(results) < len(finished) {
		t.Errorf("%d results stored, %d games reported finished", len(results), len(finished))
	}
	for _, id := range results {
		if n := countGame(lines, id); n != 1 {
			t.Errorf("game %d has %d lines in the results log", id, n)
		}
	}
	if len(lines) != len(results) {
		t.Errorf("%d log lines for %d results", len(lines), len(results))
	}
	t.Logf("%d games, %d acknowledged turns, %d finished", len(acked), sumValues(acked), len(results))
}

func sumValues(m map[int64]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
