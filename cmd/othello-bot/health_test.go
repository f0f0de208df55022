package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"othello-bot/app"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/web"
)

// health is what the image's HEALTHCHECK runs: it passes while run beats
// (once at start, again each tick) and fails once the beats stop.
func TestRunBeatsForTheHealthCheck(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	c.Heartbeat = filepath.Join(dir, "alive")
	health := func(args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := run(append([]string{"health", "--heartbeat", c.Heartbeat}, args...), nil, &out, &errs)
		return code, out.String() + errs.String()
	}
	if code, out := health(); code != 1 || !strings.Contains(out, "no heartbeat") {
		t.Fatalf("before the bot starts: exit %d, %q", code, out)
	}
	b := startBot(t, srv, c)
	first := waitForFile(t, c.Heartbeat, "")
	if code, out := health(); code != 0 || out != "healthy\n" {
		t.Fatalf("while running: exit %d, %q", code, out)
	}
	waitForFile(t, c.Heartbeat, first) // the next tick beats again
	b.stop()
	time.Sleep(1100 * time.Millisecond)
	if code, out := health("--max-age", "1s"); code != 1 || !strings.Contains(out, "ago") {
		t.Fatalf("after the bot stopped: exit %d, %q", code, out)
	}
}

// waitForFile waits until the file exists and holds something other than
// old, and returns what it holds.
func waitForFile(t *testing.T, path, old string) string {
	t.Helper()
	deadline := time.Now().Add(3 * app.TickEvery)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && string(b) != old {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s still holds %q", path, old)
	return ""
}

func TestHealthAsksAURL(t *testing.T) {
	pages := httptest.NewServer(web.New(nil, nil))
	defer pages.Close()
	var out, errs bytes.Buffer
	if code := run([]string{"health", "--url", pages.URL + "/healthz"}, nil, &out, &errs); code != 0 {
		t.Fatalf("web /healthz: exit %d, %s", code, errs.String())
	}
	errs.Reset()
	if code := run([]string{"health", "--url", pages.URL + "/nowhere"}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "404") {
		t.Fatalf("a 404: exit %d, %q", code, errs.String())
	}
	errs.Reset()
	t.Setenv(heartbeatEnv, "")
	if code := run([]string{"health"}, nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "nothing to check") {
		t.Fatalf("nothing to check: exit %d, %q", code, errs.String())
	}
}
