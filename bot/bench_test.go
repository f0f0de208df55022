package bot_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// benchStore opens a real SQLite store in a new folder for a benchmark,
// with the service's configuration.
func benchStore(b *testing.B) (*storage.Store, bot.Config) {
	dir := b.TempDir()
	store, err := storage.Open(context.Background(), filepath.Join(dir, "bot.db"),
		storage.Options{ResultsLog: filepath.Join(dir, "results.log"), Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	return store, bot.Config{DefaultLevel: 3, DefaultSize: 8, EngineMoveTime: time.Second, MoveTimeout: 24 * time.Hour,
		ReminderBefore: time.Hour, ChallengeExpiry: 10 * time.Minute, MaxEmojiSize: 10}
}

type nopNotifier struct{}

func (nopNotifier) Send(context.Context, string, bot.Message) (string, error) { return "1", nil }
func (nopNotifier) Edit(context.Context, string, string, bot.Message) error   { return nil }
func (nopNotifier) RemoveComponents(context.Context, string, string) error    { return nil }
func (nopNotifier) CreateThread(context.Context, string, string) (string, error) {
	return "", bot.ErrThreadsNotAllowed
}
func (nopNotifier) ArchiveThread(context.Context, string) error { return nil }
func (nopNotifier) EditReply(context.Context, string, bot.Message) (string, error) {
	return "1", nil
}

// BenchmarkHumanMove handles one human move end to end (load the game,
// check it, apply it, commit it, build the reply) with 1,000 active games in
// a real SQLite file. The games are between two people, so no engine time
// is included. It reports the 50th and 99th percentile latency.
func BenchmarkHumanMove(b *testing.B) {
	ctx := context.Background()
	store, cfg := benchStore(b)
	svc := bot.New(bot.StoresOf(store), engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, nopNotifier{}, cfg, quiet)

	const games = 1000
	newGame := func(i int) {
		start, _ := game.NewPosition(8)
		now := time.Now()
		g := &record.Game{GuildID: "g", ChannelID: fmt.Sprintf("c%d", i), State: game.NewGame(start),
			Black:     record.Human(record.Player{ID: fmt.Sprintf("a%d", i), Name: "a"}),
			White:     record.Human(record.Player{ID: fmt.Sprintf("b%d", i), Name: "b"}),
			CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		if err := store.CreateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < games; i++ {
		newGame(i)
	}
	var lat []time.Duration
	b.ResetTimer()
	for n := 0; b.Loop(); n++ {
		i := n % games
		b.StopTimer()
		g, err := store.ActiveGame(ctx, fmt.Sprintf("c%d", i))
		if err != nil { // finished last time round: a fresh game
			newGame(i)
			g, _ = store.ActiveGame(ctx, fmt.Sprintf("c%d", i))
		}
		moves := g.Position().LegalMoves()
		mover := g.ToMove().Player
		b.StartTimer()
		t0 := time.Now()
		resp := svc.Handle(ctx, bot.Request{Kind: bot.Command, Command: "move", User: mover, GuildID: "g",
			ChannelID: g.ChannelID, Options: map[string]string{"square": moves[len(moves)/2].String()}})
		lat = append(lat, time.Since(t0))
		if resp.Message == nil || resp.Message.Ephemeral {
			b.Fatalf("move refused: %+v", resp.Message)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
