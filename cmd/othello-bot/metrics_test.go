package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"othello-bot/internal/freeport"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A local session with metricsAddress set serves /metrics, and a move
// counts as an interaction and fills the handling-time histogram.
func TestMetricsMoveDuringALocalSession(t *testing.T) {
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"metricsAddress": %q}`, addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	in, lines := io.Pipe()
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run([]string{"local", "--config", cfg, "--db", filepath.Join(dir, "bot.db"), "--results", filepath.Join(dir, "results.log")},
			in, out, io.Discard)
	}()
	say := func(line, want string) {
		t.Helper()
		fmt.Fprintln(lines, line)
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), want); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q after %q:\n%s", want, line, out.String())
			}
		}
	}
	scrape := func() string {
		t.Helper()
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	say("/start level:1 size:4 color:black", "Turn: you")
	before := scrape()
	say("/move b1", "you ⚫ played b1")
	after := scrape()
	if got, was := value(t, after, `othello_interactions_total{entry="move",outcome="ok"}`), value(t, before, `othello_interactions_total{entry="move",outcome="ok"}`); got != was+1 {
		t.Errorf("moves counted: %v after, %v before", got, was)
	}
	if got, was := value(t, after, `othello_interaction_handling_seconds_count`), value(t, before, `othello_interaction_handling_seconds_count`); got != was+1 {
		t.Errorf("handling times: %v after, %v before", got, was)
	}
	for _, name := range []string{"othello_live_games 0", "othello_engine_searches_running", "othello_store_transaction_seconds_count",
		`go_sql_open_connections{db_name="write"}`, "go_goroutines"} {
		if !strings.Contains(after, name) {
			t.Errorf("no %s in:\n%.2000s", name, after)
		}
	}
	lines.Close()
	if code := <-done; code != 0 {
		t.Errorf("local exited %d", code)
	}
}

// value reads one sample from Prometheus's text format (0 when absent).
func value(t *testing.T, text, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Through Discord (the fake), the metrics show each acknowledgement's time
// and every REST attempt by route, ids and tokens masked.
func TestMetricsOfTheDiscordSide(t *testing.T) {
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.MetricsAddress = addr
	r := startBot(t, srv, c)
	r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 6, "color": "black"}))
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(body)
	if n := value(t, text, "othello_interaction_ack_seconds_count"); n < 1 {
		t.Errorf("%v acknowledgements timed", n)
	}
	if n := value(t, text, `othello_interactions_total{entry="start",outcome="ok"}`); n != 1 {
		t.Errorf("%v starts counted", n)
	}
	if !regexp.MustCompile(`othello_discord_requests_total\{route="PATCH /api/v10/webhooks/\{id\}/\{token\}/messages/@original",status="200"\} [1-9]`).MatchString(text) {
		t.Errorf("the reply's edit is not counted by its masked route:\n%s", grepLines(text, "othello_discord_requests_total"))
	}
}

func grepLines(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
