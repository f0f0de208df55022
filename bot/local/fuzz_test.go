package local_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer collects output from concurrent writers (handlers, the
// background analyses) that tests read meanwhile.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// FuzzLine feeds arbitrary input lines to the terminal bot: none may crash
// it, and none may reach the handlers' last-resort recover (which would
// mean a panic inside the command logic).
func FuzzLine(f *testing.F) {
	for _, s := range []string{"/start level:1 size:4", "/move d3", "bob: /move a1", "select c4", "click Resign",
		"wait 11m", "/start size:-4", "/move ", ": :", "/start level:99999999999999999999", "x: y: /board"} {
		f.Add(s)
	}
	e := open(f, f.TempDir())
	logs := &lockedBuffer{}
	e.adapter.SetService(rebuild(e, slog.New(slog.NewTextHandler(logs, nil))))
	e.say("/start level:1 size:4")
	f.Fuzz(func(t *testing.T, line string) {
		e.adapter.Line(context.Background(), line)
		// The recover's own log line; a user named "panic" in an ordinary
		// line's attributes is not one.
		if strings.Contains(logs.String(), `msg="handler panic"`) {
			t.Fatalf("a handler panicked on %q:\n%s", line, logs.String())
		}
	})
}
