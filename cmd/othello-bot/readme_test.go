package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeSession returns the example terminal session from README.md: the
// first plain code block after the `local` command.
func readmeSession(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	const command = "othello-bot local --user alice --db $d/bot.db --results $d/results.log\n```"
	i := strings.Index(text, command)
	if i < 0 {
		t.Fatal("README has no `local --user alice` example")
	}
	rest := text[i+len(command):]
	start := strings.Index(rest, "\n```\n")
	if start < 0 {
		t.Fatal("README has no session block after the local command")
	}
	block := rest[start+5:]
	end := strings.Index(block, "```")
	if end < 0 {
		t.Fatal("README's session block is not closed")
	}
	return block[:end]
}

// The README's example session runs as written: every line is understood,
// every click and select finds its target, every move is legal, and it
// ends as the README says.
func TestReadmeSessionRuns(t *testing.T) {
	session := readmeSession(t)
	if strings.Contains(session, "#") {
		t.Fatalf("the session has comments, which local would take as input:\n%s", session)
	}
	dir := t.TempDir()
	t.Chdir(dir) // pictures and defaults land here
	code, out, errOut := runCLI(t, session, "local", "--db", filepath.Join(dir, "bot.db"),
		"--results", filepath.Join(dir, "results.log"), "--user", "alice")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, bad := range []string{"(not understood", "(no button", "(no menu", "Sorry", "is not a square",
		"flips nothing", "is taken", "It's not your turn", "level=ERROR", "level=WARN"} {
		if strings.Contains(out, bad) || strings.Contains(errOut, bad) {
			t.Errorf("%q in the output:\n%s\nstderr:\n%s", bad, out, errOut)
		}
	}
	for _, want := range []string{
		"alice started a game against Bot (level 3).",
		"My suggestion: ",
		"aborted before both sides had moved twice",
		"bob accepted alice's challenge.",
		"(only visible to carol)",
		"alice ⚫ played f6.",
		"bob ⚪ ran out of time. **alice ⚫ wins** on time",
		"== Stats · alice ==",
		"provisional: 1 rated game so far",
		"1. alice",
	} {
		if !strings.Contains(strings.ReplaceAll(out, "**", ""), strings.ReplaceAll(want, "**", "")) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "results.log"))
	if err != nil || strings.Count(string(log), "\n") != 2 || !strings.Contains(string(log), "end=timeout") {
		t.Errorf("results log %q %v", log, err)
	}
}
