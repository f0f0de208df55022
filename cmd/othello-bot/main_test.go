package main

import (
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"othello-bot/config"
	"othello-bot/migrations"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPerftLine(t *testing.T) {
	code, out, _ := runCLI(t, "", "perft", "-size", "8", "-depth", "5")
	if code != 0 || !regexp.MustCompile(`^perft size=8 depth=5 nodes=1396 seconds=\d+\.\d\d\n$`).MatchString(out) {
		t.Errorf("code %d, output %q", code, out)
	}
	code, out, _ = runCLI(t, "", "perft", "--size=10", "--depth=3")
	if code != 0 || !strings.HasPrefix(out, "perft size=10 depth=3 nodes=56 ") {
		t.Errorf("code %d, output %q", code, out)
	}
}

func TestBadInputExitsNonZero(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nosuch"},
		{"perft", "-size", "7"},
		{"perft", "-size", "x"},
		{"perft", "-depth", "-1"},
		{"perft", "extra"},
		{"play", "--config", filepath.Join(t.TempDir(), "missing.json")},
	} {
		code, out, errOut := runCLI(t, "", args...)
		if code == 0 || out != "" || errOut == "" {
			t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if len(args) > 0 && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: reason is more than one line: %q", args, errOut)
		}
	}
}

func TestPlayPiped(t *testing.T) {
	code, out, _ := runCLI(t, "blah\n3\n-12\n4\nx\nX\n", "play")
	if code != 0 || !strings.Contains(out, "Player is X\n     A   B   C   D\n") {
		t.Errorf("code %d:\n%s", code, out)
	}
}

func TestPlayPresetFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preset.json")
	cells := strings.Repeat(`" ",`, 5) + `"O","X",` + strings.Repeat(`" ",`, 2) + `"X","O",` + strings.Repeat(`" ",`, 4) + `" "`
	err := os.WriteFile(path, []byte(`{"boardPreset": {"playerLetter": "O", "board": [`+cells+`]}, "scriptedMoves": {"player": [], "computer": ["b1"]}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "\n", "play", "--config", path)
	if code != 0 || !strings.Contains(out, "Player is O\n") || !strings.Contains(out, "Computer plays b1 (scripted).") {
		t.Errorf("code %d, stderr %q:\n%s", code, errOut, out)
	}
}

func TestMigrate(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bot.db")
	for i := 0; i < 2; i++ {
		code, out, errOut := runCLI(t, "", "migrate", "--db", db, "--results", filepath.Join(dir, "results.log"))
		if code != 0 || out != fmt.Sprintf("database %s is at schema version %d\n", db, migrationCount(t)) {
			t.Fatalf("run %d: code %d, %q, %q", i, code, out, errOut)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"moveTimeout": "soon"}`), 0o600)
	code, _, errOut := runCLI(t, "", "migrate", "--config", bad)
	if code != 2 || !strings.Contains(errOut, `key "moveTimeout"`) || !strings.Contains(errOut, bad) {
		t.Errorf("bad config: code %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "migrate", "--db", filepath.Join(dir, "no", "such", "x.db"))
	if code == 0 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("bad db path: code %d, %q", code, errOut)
	}
}

// The bot in the terminal, fed a script on standard input: a game started,
// a refusal, an early resignation (an abort), its line in the results log.
func TestLocalPiped(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.log")
	script := "/start level:1 color:black size:4\nbob: /move a1\n/resign\nclick Resign\n"
	code, out, errOut := runCLI(t, script, "local", "--db", filepath.Join(dir, "bot.db"), "--results", results, "--user", "carol")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{"carol started a game against Bot (level 1).", "(only visible to bob)",
		"You are not playing in this game.", "You resigned game #1.", "aborted before both sides had moved twice"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	log, _ := os.ReadFile(results)
	if strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), `black="carol"`) || !strings.Contains(string(log), "end=abort") {
		t.Errorf("results log %q", log)
	}
}

// A position too deep to solve in time gets an estimate, marked as one.
func TestSolveTimeLimit(t *testing.T) {
	start := "---------------------------OX------XO---------------------------"
	code, out, errOut := runCLI(t, "", "solve", "-board", start, "-side", "X", "-time", "200ms")
	if code != 0 || !regexp.MustCompile(`^best=[c-f][3-6] score=[+-]\d+ exact=false seconds=\d+\.\d\d\nnot exact: `).MatchString(out) {
		t.Fatalf("code %d, output %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "", "solve", "-board", start, "-side", "X", "-time", "0s")
	if code != 2 || !strings.Contains(errOut, "-time must be positive") {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
}

// migrationCount is how many migrations the binary embeds.
func migrationCount(t *testing.T) int {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) < 3 {
		t.Fatalf("migrations %v %v", names, err)
	}
	return len(names)
}

// version names the Go release that built the binary: the one running the
// test, which is what go.mod asks for.
func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "othello-bot ") || !strings.Contains(out, "\nbuilt with "+runtime.Version()+"\n") {
		t.Errorf("code %d, output %q", code, out)
	}
	text := versionText(&debug.BuildInfo{GoVersion: "go1.27.3", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}})
	if text != "othello-bot v1.2.3\nrevision abc (modified)\nbuilt with go1.27.3\n" {
		t.Errorf("version text %q", text)
	}
}

// The profiler is served only when configured, on its own address.
func TestPprofOnlyWhenConfigured(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	if addr, stop, err := startPprof(config.Default(), quiet); err != nil || addr != "" {
		t.Fatalf("by default: %q %v", addr, err)
	} else {
		stop()
	}
	c := config.Default()
	c.PprofAddress = "127.0.0.1:0"
	addr, stop, err := startPprof(c, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile:") {
		t.Errorf("%d %.200s", resp.StatusCode, body)
	}
}
