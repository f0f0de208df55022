package app

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"othello-bot/bot"
	"othello-bot/storage"
)

type nopNotifier struct{ bot.Notifier }

// Every entry point the command table names is answered once the
// capabilities are mounted: none is left to "unknown command".
func TestEveryEntryPointIsRouted(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "bot.db"), storage.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	core := bot.New(bot.StoresOf(s), nil, bot.SystemClock{}, nopNotifier{}, bot.Config{}, quiet)
	if len(core.Unrouted()) == 0 {
		t.Fatal("the core alone answers everything: the test cannot tell mounting from not")
	}
	svc := New(s, nil, bot.SystemClock{}, nopNotifier{}, Config{}, quiet)
	if missing := svc.Unrouted(); len(missing) > 0 {
		t.Fatalf("entry points nobody answers: %v", missing)
	}
}
