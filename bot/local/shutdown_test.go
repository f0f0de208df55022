package local_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/app"
	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

// A shutdown signal while the bot thinks lets the move finish and be
// stored: the user sees the bot's reply, not an apology.
func TestSignalLetsTheMoveInFlightFinish(t *testing.T) {
	e := open(t, t.TempDir())
	in, w := io.Pipe()
	ctx, signal := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.adapter.Run(ctx, in) }()
	// The bot plays black at level 20 and thinks for its whole move time
	// (200 ms); the signal comes in the middle of it.
	w.Write([]byte("/start level:20 color:white size:12\n"))
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
	if len(game.MovesOf(g.Plies())) != 1 {
		t.Fatalf("stored moves: %v", g.Plies())
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

// Many hints at once on large boards: those that find every searcher busy
// are told so kindly, and the log calls it a warning, not an error.
func TestSimultaneousHintsSayBusy(t *testing.T) {
	e := open(t, t.TempDir())
	logs := &lockedBuffer{}
	eng := engine.New(engine.Options{Searches: 1, QuickSearches: -1}) // the shared searcher only: the probe below is a quick search
	svc := app.New(e.store, eng, e.clock, e.adapter, app.Config{Config: testConfig()}, slog.New(slog.NewTextHandler(logs, nil)))
	ctx := context.Background()
	const n = 20
	for i := 0; i < n; i++ {
		resp := svc.Handle(ctx, bot.Request{Kind: bot.Command, Command: "start", User: record.Player{ID: "alice", Name: "alice"},
			GuildID: local.GuildID, ChannelID: fmt.Sprint("c", i), Options: map[string]string{"level": "1", "size": "26", "color": "black"}})
		if resp.Message == nil || resp.Message.Ephemeral {
			t.Fatalf("start %d: %+v", i, resp.Message)
		}
	}
	// Another game's long search holds the engine's one searcher.
	hold, release := context.WithCancel(ctx)
	held := make(chan struct{})
	go func() {
		defer close(held)
		start, _ := game.NewPosition(8)
		eng.Solve(hold, start) // runs until released
	}()
	for {
		probe, cancel := context.WithTimeout(ctx, time.Millisecond)
		start, _ := game.NewPosition(8)
		_, err := eng.Analyze(probe, start)
		cancel()
		if errors.Is(err, engine.ErrBusy) {
			break
		}
	}
	var wg sync.WaitGroup
	answers := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp := svc.Handle(ctx, bot.Request{Kind: bot.Command, Command: "hint", User: record.Player{ID: "alice", Name: "alice"},
				GuildID: local.GuildID, ChannelID: fmt.Sprint("c", i)})
			answers[i] = resp.Message.Content
		}(i)
	}
	wg.Wait()
	release()
	<-held
	// Once the searcher is free again, a hint is given.
	resp := svc.Handle(ctx, bot.Request{Kind: bot.Command, Command: "hint", User: record.Player{ID: "alice", Name: "alice"},
		GuildID: local.GuildID, ChannelID: "c0"})
	answers = append(answers, resp.Message.Content)
	busy, hints := 0, 0
	for _, a := range answers {
		switch {
		case strings.Contains(a, "I'm busy thinking about other games"):
			busy++
		case strings.HasPrefix(a, "My suggestion"):
			hints++
		default:
			t.Errorf("answer %q", a)
		}
	}
	if busy != n || hints != 1 || strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "level=WARN msg=\"engine busy\"") {
		t.Fatalf("%d busy, %d hints; log:\n%s", busy, hints, logs.String())
	}
}
