package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/internal/freeport"
	"othello-bot/internal/pgtest"
)

// A small run end to end, against the bot and between members: the real
// binary behind the balancer, every game started, moves answered and
// measured, none failed, each figure of a move's cost read.
func TestSmallRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bot")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "othello-bot")
	if out, err := exec.Command("go", "build", "-o", bin, "othello-bot/cmd/othello-bot").CombinedOutput(); err != nil {
		t.Fatalf("building the bot: %v\n%s", err, out)
	}
	for _, opponent := range []string{"bot", "human"} {
		t.Run(opponent, func(t *testing.T) {
			rep, err := run(context.Background(), options{bin: bin, database: filepath.Join(dir, opponent+".db"), processes: 1, games: 12,
				live: 0.25, duration: 3 * time.Second, liveThink: 100 * time.Millisecond, corrThink: 300 * time.Millisecond, ramp: 4,
				opponent: opponent, profile: dir}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`: (\d+) human moves \([0-9.]+/s\), (\d+) failed`).FindStringSubmatch(rep)
			if m == nil {
				t.Fatalf("report:\n%s", rep)
			}
			moves, _ := strconv.Atoi(m[1])
			if moves < 10 || m[2] != "0" {
				t.Errorf("%d moves, %s failed:\n%s", moves, m[2], rep)
			}
			for _, want := range []string{`acknowledgement p50 `, `process 0: store transactions `, `process 0: its own acknowledgements over the whole run [0-9]+, mean`, `CPU per human move [0-9.]+[µm]s`, `CPU per human move without the engine.s searches [0-9.]+[µm]s`,
				`per human move: [0-9.]+ store writes, [0-9.]+ KiB written \(the processes' writes to disk\), [1-9][0-9]* allocations`,
				`memory per open game -?[0-9.]+ KiB .*; live heap -?[0-9.]+ KiB .*; engine tables made in the run [0-9]+ MiB`} {
				if !regexp.MustCompile(want).MatchString(rep) {
					t.Errorf("no %q in:\n%s", want, rep)
				}
			}
			if strings.Contains(rep, "not measured") {
				t.Errorf("a figure was not read:\n%s", rep)
			}
			// The engine's share is read (level 1 and members do not search;
			// a finished game's puzzle search may fall in the run).
			if !regexp.MustCompile(`engine searches [0-9.]+[µmn]?s of it`).MatchString(rep) {
				t.Errorf("no engine figure:\n%s", rep)
			}
			for _, f := range []string{"cpu-0.pprof", "heap-0.pprof"} {
				if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
					t.Errorf("profile %s: %v", f, err)
				}
			}
			t.Log("\n" + rep)
		})
	}
	// Two processes on PostgreSQL: the server's own figures are read.
	t.Run("postgres", func(t *testing.T) {
		rep, err := run(context.Background(), options{bin: bin, database: pgtest.Database(t), processes: 2, games: 12,
			live: 0.25, duration: 3 * time.Second, liveThink: 100 * time.Millisecond, corrThink: 300 * time.Millisecond, ramp: 4,
			opponent: "bot"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`process 1: store transactions `, `[0-9.]+ KiB written \(PostgreSQL's WAL\)`,
			`per human move: [0-9]+\.[0-9]+ PostgreSQL transactions`} {
			if !regexp.MustCompile(want).MatchString(rep) {
				t.Errorf("no %q in:\n%s", want, rep)
			}
		}
		if strings.Contains(rep, "not measured") || regexp.MustCompile(`: 0 human moves`).MatchString(rep) {
			t.Errorf("a figure was not read:\n%s", rep)
		}
	})
	// A bot killed once it listens (in the ramp or the run, as the machine
	// goes) ends the run with an error that says so, long before the ten
	// minutes asked for, instead of leaving its players retrying.
	t.Run("killed", func(t *testing.T) {
		wrapper := filepath.Join(dir, "dies.sh")
		script := `#!/bin/bash
"` + bin + `" "$@" & p=$!
addr=$(grep -o '"interactionsAddress":"[^"]*"' "$3" | cut -d'"' -f4)
until (exec 3<>"/dev/tcp/${addr%:*}/${addr##*:}") 2>/dev/null; do sleep 0.1; done
sleep 1; kill -9 $p; wait $p
`
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := run(context.Background(), options{bin: wrapper, database: filepath.Join(dir, "killed.db"), processes: 1, games: 12,
			live: 0.25, duration: 10 * time.Minute, liveThink: 100 * time.Millisecond, corrThink: 300 * time.Millisecond, ramp: 4,
			opponent: "bot"}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "stopped during the run") {
			t.Fatalf("got %v, want that the bot stopped during the run", err)
		}
	})
}

// Options that cannot make a run are refused with what is wrong, and an
// existing database file is never filled (nor removed).
func TestOptionsRefused(t *testing.T) {
	existing := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := options{bin: "othello-bot", database: filepath.Join(t.TempDir(), "new.db"), processes: 1, games: 10, live: 0.1,
		duration: time.Second, liveThink: time.Second, corrThink: time.Second, ramp: 5, opponent: "bot"}
	if err := good.check(); err != nil {
		t.Fatalf("good options: %v", err)
	}
	for want, change := range map[string]func(*options){
		"-bin and -db are required":            func(o *options) { o.bin = "" },
		"must be at least 1":                   func(o *options) { o.games = 0 },
		"-live is a share":                     func(o *options) { o.live = 2 },
		"must be positive":                     func(o *options) { o.duration = 0 },
		"several processes need a postgres://": func(o *options) { o.processes = 3 },
		"-opponent is bot or human":            func(o *options) { o.opponent = "cat" },
		"exists: give a new file":              func(o *options) { o.database = existing },
	} {
		o := good
		change(&o)
		if err := o.check(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep" {
		t.Error("the existing database was touched")
	}
}

// A bot that stops before it listens is reported at once, not after the
// minute a slow start is given.
func TestWaitListeningSeesAStoppedBot(t *testing.T) {
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "exit 3")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &worker{cmd: cmd, listen: addr}
	w.watch()
	err = waitListening(w, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("got %v, want that the bot stopped", err)
	}
}

// A searcher's tables made during the run are not a move's allocations,
// and a run in which the engine searched says so.
func TestPerMoveLeavesTheEngineTablesOut(t *testing.T) {
	before := sample{cpu: time.Second, mallocs: 1000, alloced: 1 << 20}
	after := sample{cpu: 3 * time.Second, mallocs: 3000, alloced: 1<<20 + 30<<20 + 100*10<<10, tables: 30 << 20, engine: 0.5}
	var b strings.Builder
	perMove(&b, options{opponent: "bot"}, before, after, 100, time.Minute)
	out := b.String()
	if !strings.Contains(out, "20 allocations (10.0 KiB, the engine's tables made in the run left out)") {
		t.Errorf("allocations not as expected:\n%s", out)
	}
	if !strings.Contains(out, "without the engine's searches 15ms") || !strings.Contains(out, "note: the engine searched") {
		t.Errorf("the engine's share not told apart:\n%s", out)
	}
	b.Reset()
	after.engine, after.tables, after.alloced = 0, 0, 1<<20+100*10<<10
	perMove(&b, options{opponent: "bot"}, before, after, 100, time.Minute)
	if out := b.String(); strings.Contains(out, "note:") || !strings.Contains(out, "(10.0 KiB,") {
		t.Errorf("a run without searches:\n%s", out)
	}
}
