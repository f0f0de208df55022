package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"othello-bot/internal/freeport"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// local with webAddress and publicURL links each game message to its page,
// and the page is served while the terminal runs.
func TestLocalServesGamePages(t *testing.T) {
	l := startLocalGame(t)
	url, pw, done := l.url, l.in, l.done
	if !strings.HasPrefix(url, "http://"+l.addr+"/g/") {
		t.Fatalf("no page link in:\n%s", l.out.String())
	}
	if !strings.Contains(l.out.String(), "[Watch ↗ "+url+"]") {
		t.Errorf("no Watch button to the page in:\n%s", l.out.String())
	}
	l.in.Write([]byte("/games\n"))
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(l.out.String(), "[Watch #1 ↗ "+url+"]"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("/games has no Watch button to the game's page:\n%s", l.out.String())
		}
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Game #1 · you vs Bot (level 1)") {
		t.Fatalf("page %d:\n%.300s", resp.StatusCode, body)
	}
	pw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("local exited %d", code)
	}
}

// results prints the same lines as the results log, from the database,
// for a period.
func TestResultsFromTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "bot.db"), filepath.Join(dir, "results.log")
	session := "/start level:1 color:black size:4\n/resign\nclick Resign\n/start level:1 color:black size:4\n/resign\nclick Resign\n"
	if code := run([]string{"local", "--db", db, "--results", log}, strings.NewReader(session), io.Discard, io.Discard); code != 0 {
		t.Fatalf("local exited %d", code)
	}
	want, _ := os.ReadFile(log)
	out := &syncBuffer{}
	if code := run([]string{"results", "--db", db}, nil, out, io.Discard); code != 0 {
		t.Fatalf("results exited %d", code)
	}
	if out.String() != string(want) || strings.Count(out.String(), "\n") != 2 {
		t.Fatalf("results:\n%s\nthe log:\n%s", out.String(), want)
	}
	out = &syncBuffer{}
	run([]string{"results", "--db", db, "--since", "2999-01-01"}, nil, out, io.Discard)
	if out.String() != "" {
		t.Errorf("results since the future: %q", out.String())
	}
	errOut := &syncBuffer{}
	if code := run([]string{"results", "--db", db, "--since", "yesterday"}, nil, io.Discard, errOut); code != 2 || !strings.Contains(errOut.String(), "--since must be") {
		t.Errorf("a bad --since: %d %q", code, errOut.String())
	}
}

// A page follows a game played in `local` (whose clock stands still: no
// `wait`) for over ten seconds, a move a second: each move reaches the
// page's event stream within a second. Pages follow the versions the
// database assigns; comparing the writer's timestamps froze them after
// two seconds.
func TestLocalGamePageFollowsForTwelveSeconds(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for 12 s")
	}
	l := startLocalGame(t)
	url, pw, out, done := l.url, l.in, l.out, l.done
	resp, err := http.Get(url + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	plies := make(chan int, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var d struct{ Plies []json.RawMessage }
				if json.Unmarshal([]byte(data), &d) == nil {
					plies <- len(d.Plies)
				}
			}
		}
		close(plies)
	}()
	seen := <-plies
	start := time.Now()
	for time.Since(start) < 12*time.Second {
		s := out.String()
		i := strings.LastIndex(s, "<select: ")
		if i < 0 || strings.Contains(s[i:], "Result") {
			break // the game ended
		}
		move, _, _ := strings.Cut(s[i+len("<select: "):], " ")
		pw.Write([]byte("select " + strings.TrimSuffix(move, ">") + "\n"))
		t0 := time.Now()
		for before := seen; seen == before; {
			select {
			case got := <-plies:
				seen = max(seen, got)
			case <-time.After(time.Second):
				t.Fatalf("%v into the game, move %d did not reach the page within a second; output:\n%s", time.Since(start).Round(time.Second), seen+1, out.String())
			}
		}
		time.Sleep(time.Second - time.Since(t0))
	}
	if time.Since(start) < 10*time.Second {
		t.Fatalf("the game ended after %v; it should last over 10 s", time.Since(start))
	}
	t.Logf("followed %d plies over %v", seen, time.Since(start).Round(time.Second))
	pw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("local exited %d", code)
	}
}

// localGame is `local` running with its game pages, a game against the
// bot started in it.
type localGame struct {
	addr, url string // the pages' address, and the game's page
	db        string // its SQLite file
	in        *io.PipeWriter
	out       *syncBuffer
	done      chan int // local's exit status
}

func startLocalGame(t *testing.T) *localGame {
	t.Helper()
	l := startLocal(t)
	l.in.Write([]byte("/start level:1 color:black\n"))
	for deadline := time.Now().Add(10 * time.Second); l.url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s := l.out.String(); strings.Contains(s, "Watch: ") {
			l.url, _, _ = strings.Cut(s[strings.Index(s, "Watch: ")+len("Watch: "):], "\n")
		}
	}
	return l
}

// --web's address is served and linked as a browser on the same machine
// reaches it.
func TestTryPagesAddress(t *testing.T) {
	for addr, want := range map[string]string{":8080": "http://localhost:8080", "0.0.0.0:80": "http://localhost:80",
		"[::]:8080": "http://localhost:8080", "127.0.0.1:9000": "http://127.0.0.1:9000", "[::1]:8080": "http://[::1]:8080"} {
		served, public, err := tryPages(addr)
		if err != nil || served != addr || public != want {
			t.Errorf("--web %s: serves %q, links %q (%v); want %q", addr, served, public, err, want)
		}
	}
	for _, bad := range []string{"8080", "localhost", "", ":"} {
		if _, _, err := tryPages(bad); err == nil {
			t.Errorf("--web %q accepted", bad)
		}
	}
}

// startLocal runs `local --web` with its game pages on a free port, as
// the README's try of the pages does.
func startLocal(t *testing.T) *localGame {
	t.Helper()
	dir := t.TempDir()
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	l := &localGame{addr: addr, db: filepath.Join(dir, "bot.db"), out: &syncBuffer{}, done: make(chan int)}
	pr, pw := io.Pipe()
	l.in = pw
	go func() {
		l.done <- run([]string{"local", "--web", l.addr, "--db", l.db, "--results", filepath.Join(dir, "r.log")},
			pr, l.out, io.Discard)
	}()
	return l
}

// The pages cannot be exhausted: 1,100 POSTs to a game's act address from
// one address that send their header and trickle their body (they used to
// stop the pages: "too many open files") cost that address its
// connections over the cap, each one kept is cut at the body's deadline,
// and the page is served to everyone else meanwhile.
func TestPagesUnderSlowBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("1,100 connections: not in -short")
	}
	l := startLocalGame(t)
	if l.url == "" {
		t.Fatalf("no page link in:\n%s", l.out.String())
	}
	defer func() { l.in.Close(); <-l.done }()
	act := strings.TrimPrefix(l.url, "http://"+l.addr) + "/act"
	kept := trickle(t, l.addr, 1100, "POST "+act+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4096\r\n\r\n")
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	resp, err := http.Get(l.url)
	if err != nil {
		t.Fatalf("the page beside the flood: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if resp.StatusCode != http.StatusOK || took > 2*time.Second {
		t.Fatalf("the page beside the flood: %d after %v", resp.StatusCode, took)
	}
	// A trickling body is cut at its deadline (5 s), not held for ever.
	open := 0
	for _, c := range kept {
		c.SetReadDeadline(time.Now().Add(8 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err != nil && strings.Contains(err.Error(), "timeout") {
			open++
		}
	}
	t.Logf("page in %v beside %d trickling connections; %d still open 8 s on", took.Round(time.Millisecond), len(kept), open)
	if open > 0 {
		t.Fatalf("%d trickling connections were not cut", open)
	}
}
