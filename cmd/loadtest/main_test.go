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
)

// A small run end to end: the real binary behind the balancer, every game
// started, moves answered and measured, none failed.
func TestSmallRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bot")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "othello-bot")
	if out, err := exec.Command("go", "build", "-o", bin, "othello-bot/cmd/othello-bot").CombinedOutput(); err != nil {
		t.Fatalf("building the bot: %v\n%s", err, out)
	}
	rep, err := run(context.Background(), options{bin: bin, database: filepath.Join(dir, "load.db"), processes: 1, games: 12,
		live: 0.25, duration: 3 * time.Second, liveThink: 100 * time.Millisecond, corrThink: 300 * time.Millisecond, ramp: 4}, io.Discard)
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
	for _, want := range []string{"acknowledgement p50 ", "process 0: store transactions ", "CPU per human move ", "memory per open game "} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(rep) {
			t.Errorf("no %q in:\n%s", want, rep)
		}
	}
	t.Log("\n" + rep)
}

// Options that cannot make a run are refused with what is wrong, and an
// existing database file is never filled (nor removed).
func TestOptionsRefused(t *testing.T) {
	existing := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := options{bin: "othello-bot", database: filepath.Join(t.TempDir(), "new.db"), processes: 1, games: 10, live: 0.1,
		duration: time.Second, liveThink: time.Second, corrThink: time.Second, ramp: 5}
	if err := good.check(); err != nil {
		t.Fatalf("good options: %v", err)
	}
	for want, change := range map[string]func(*options){
		"-bin and -db are required":            func(o *options) { o.bin = "" },
		"must be at least 1":                   func(o *options) { o.games = 0 },
		"-live is a share":                     func(o *options) { o.live = 2 },
		"must be positive":                     func(o *options) { o.duration = 0 },
		"several processes need a postgres://": func(o *options) { o.processes = 3 },
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
