package pairing_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/app"
	"othello-bot/bot"
	"othello-bot/engine"
	"othello-bot/record"
	"othello-bot/storage"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// channel is what the bot posted and edited.
type channel struct {
	mu    sync.Mutex
	edits []string
}

func (c *channel) Send(context.Context, string, bot.Message) (string, error) { return "m", nil }
func (c *channel) Edit(_ context.Context, _, id string, m bot.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.edits = append(c.edits, id+": "+m.Content)
	return nil
}
func (c *channel) CreateThread(context.Context, string, string) (string, error) {
	return "", bot.ErrThreadsNotAllowed
}
func (c *channel) ArchiveThread(context.Context, string) error                    { return nil }
func (c *channel) RemoveComponents(context.Context, string, string) error         { return nil }
func (c *channel) EditReply(context.Context, string, bot.Message) (string, error) { return "", nil }

// /play: the first member waits with a message of their own; the next
// member asking for the same game takes the wait and their game opens at
// once, on the clock and size asked, through the accept a challenge takes
// (no challenge left pending); one asking for another game waits apart;
// Leave ends a wait for its owner only.
func TestPlayPairs(t *testing.T) {
	store, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "bot.db"), storage.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ch := &channel{}
	a := app.New(store, engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, ch,
		app.Config{Config: bot.Config{DefaultLevel: 1, DefaultSize: 8, MaxEmojiSize: 10, ChallengeExpiry: time.Minute}}, quiet)
	defer a.Shutdown()
	play := func(who, channelID string, opts map[string]string) bot.Response {
		t.Helper()
		return a.Handle(context.Background(), bot.Request{Kind: bot.Command, Command: "play", Options: opts,
			User: record.Player{ID: who, Name: who}, GuildID: "g", ChannelID: channelID})
	}
	r := play("ann", "lobby", map[string]string{"time": "3+2", "size": "6"})
	if r.Message == nil || !strings.Contains(r.Message.Content, "ann is looking for a game: 3+2 · 6x6") {
		t.Fatalf("ann's wait: %+v", r.Message)
	}
	cats := play("cat", "hall", map[string]string{"time": "1+0"})
	if cats.Message == nil || !strings.Contains(cats.Message.Content, "cat is looking for a game: 1+0") {
		t.Fatalf("cat's other game: %+v", cats.Message)
	}
	r = play("ben", "lobby", map[string]string{"time": "3+2", "size": "6"})
	g, err := store.ActiveGame(context.Background(), "lobby")
	if err != nil {
		t.Fatalf("no game after ben took ann's wait: %v (answer %+v)", err, r.Message)
	}
	players := map[string]bool{g.Black.Player.ID: true, g.White.Player.ID: true}
	if !players["ann"] || !players["ben"] || g.Size() != 6 || g.Control.String() != "3+2" {
		t.Fatalf("the game: %s vs %s, %dx%d, %s", g.Black.Player.ID, g.White.Player.ID, g.Size(), g.Size(), g.Control)
	}
	if pending, _ := store.PendingChallenges(context.Background()); len(pending) != 0 {
		t.Fatalf("a pairing left %d challenges pending", len(pending))
	}
	if _, err := store.ActiveGame(context.Background(), "hall"); err == nil {
		t.Fatal("cat, waiting for another game, was paired")
	}
	var leave string
	for _, row := range cats.Message.Components {
		for _, b := range row.Buttons {
			if strings.HasPrefix(b.CustomID, "pleave:") {
				leave = b.CustomID
			}
		}
	}
	press := func(who string) string {
		r := a.Handle(context.Background(), bot.Request{Kind: bot.Button, CustomID: leave, User: record.Player{ID: who, Name: who},
			GuildID: "g", ChannelID: "hall"})
		if r.Message == nil {
			t.Fatalf("%s's Leave: no answer", who)
		}
		return r.Message.Content
	}
	if leave == "" {
		t.Fatal("no Leave on cat's wait")
	}
	press("dan")
	if entries, _ := store.PoolEntries(context.Background(), "g"); len(entries) != 1 {
		t.Fatalf("dan's Leave on cat's wait: %d waits left, want cat's", len(entries))
	}
	press("cat")
	if entries, _ := store.PoolEntries(context.Background(), "g"); len(entries) != 0 {
		t.Fatalf("cat's Leave: %d waits left", len(entries))
	}
}

// A pairing tells the one who waited that they were paired — never that
// someone "accepted your challenge": nobody sent one.
func TestPairingPingSaysPaired(t *testing.T) {
	store, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "bot.db"), storage.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a := app.New(store, engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, &channel{},
		app.Config{Config: bot.Config{DefaultLevel: 1, DefaultSize: 8, MaxEmojiSize: 10, ChallengeExpiry: time.Minute}}, quiet)
	defer a.Shutdown()
	pinged := 0
	for i := range 16 { // the colours are drawn: the waiter moves first about half the time
		ch, ann, ben := fmt.Sprint("c", i), fmt.Sprint("ann", i), fmt.Sprint("ben", i)
		for _, who := range []string{ann, ben} {
			r := a.Handle(context.Background(), bot.Request{Kind: bot.Command, Command: "play", Options: map[string]string{"time": "3+2"},
				User: record.Player{ID: who, Name: who}, GuildID: "g", ChannelID: ch})
			for _, f := range r.Followups {
				if strings.Contains(f.Content, "accepted your challenge") {
					t.Fatalf("a pairing's ping: %q", f.Content)
				}
				if strings.Contains(f.Content, "paired with "+ben) {
					pinged++
				}
			}
		}
	}
	if pinged == 0 {
		t.Fatal("in 16 pairings the one who waited was never pinged to move first")
	}
}
