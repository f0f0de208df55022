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

// A 10 MB line is refused on its own; the lines after it are answered.
func TestLongLineIsRefusedAndTheSessionGoesOn(t *testing.T) {
	e := open(t, t.TempDir())
	in := "/help\n" + strings.Repeat("x", 10<<20) + "\n/start level:1 size:4 color:black\n"
	if err := e.adapter.Run(context.Background(), strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	out := e.out.String()
	if !strings.Contains(out, "that line is longer than") || !strings.Contains(out, "alice started a game") {
		t.Fatalf("output:\n%s", out)
	}
}

// Message ids differ between runs on one database: a timer that edits a
// message from an earlier run posts a new one instead of overwriting this
// run's message with the same number (here a private help reply).
func TestMessageIDsAreUniqueAcrossRuns(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob")
	e = reopen(e)
	e.say("/help")
	out := e.say("wait 11m")
	if strings.Contains(out, "(edited)") || !strings.Contains(out, "The challenge expired without an answer.") {
		t.Fatalf("expiry after a restart:\n%s", out)
	}
}

// The terminal greets, explains itself on help, and stops at quit.
func TestBannerHelpAndQuit(t *testing.T) {
	e := open(t, t.TempDir())
	if err := e.adapter.Run(context.Background(), strings.NewReader("help\nquit\n/start level:1 size:4\n")); err != nil {
		t.Fatal(err)
	}
	out := e.out.String()
	if !strings.HasPrefix(out, "othello-bot local: type /help") || !strings.Contains(out, "click Resign") ||
		strings.Contains(out, "started a game") {
		t.Fatalf("output:\n%s", out)
	}
}
