package local_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
)

// A shutdown signal while the bot thinks lets the move finish and be
// stored: the user sees the bot's reply, not an apology.
func TestSignalLetsTheMoveInFlightFinish(t *testing.T) {
	e := open(t, t.TempDir())
	in, w := io.Pipe()
	ctx, signal := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.adapter.Run(ctx, in) }()
	// The bot plays black at level 10 and thinks for its whole move time
	// (200 ms); the signal comes in the middle of it.
	w.Write([]byte("/start level:10 color:white size:12\n"))
	time.Sleep(50 * time.Millisecond)
	signal()
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := e.out.String()
	if strings.Contains(out, "Sorry") || !strings.Contains(out, "⚫ played ") {
		t.Fatalf("after the signal:\n%s", out)
	}
	g := e.game()
	if len(game.MovesOf(g.Plies)) != 1 {
		t.Fatalf("stored moves: %v", g.Plies)
	}
}
