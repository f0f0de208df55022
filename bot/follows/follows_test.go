package follows

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
	"othello-bot/storage"
)

type core struct{}

func (core) Now() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }
func (core) Logger(context.Context) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
func (core) PublicPrinter(context.Context, string) *catalog.Printer {
	return catalog.For(catalog.English)
}
func (core) GamePage(g *record.Game) string { return "https://othello.example/g/" + g.PublicID }

var (
	ann = record.Player{ID: "1", Name: "ann"}
	ben = record.Player{ID: "2", Name: "ben"}
)

func newService(t *testing.T) *Service {
	t.Helper()
	store, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "bot.db"), storage.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return New(core{}, store)
}

func (s *Service) do(t *testing.T, who record.Player, guild, user string) string {
	t.Helper()
	req := bot.Request{Kind: bot.Command, Command: "follow", User: who, GuildID: guild, Options: map[string]string{}}
	if user != "" {
		req.Options["user"] = user
		req.UserNames = map[string]string{user: "p" + user}
	}
	resp, err := s.Routes()["follow"](context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Message.Content
}

// /follow toggles, lists, refuses oneself and a DM; a game's start pings
// each follower of its players once, never a player, at most 25, with a
// Watch link to its page.
func TestFollow(t *testing.T) {
	s := newService(t)
	if got := s.do(t, ann, "", ben.ID); !strings.Contains(got, "server") {
		t.Errorf("following in a DM: %q", got)
	}
	if got := s.do(t, ann, "g", ann.ID); !strings.Contains(got, "own games") {
		t.Errorf("following oneself: %q", got)
	}
	if got := s.do(t, ann, "g", ""); !strings.Contains(got, "nobody") {
		t.Errorf("the list before: %q", got)
	}
	s.do(t, ann, "g", ben.ID)
	if got := s.do(t, ann, "g", ""); !strings.Contains(got, "p2") {
		t.Errorf("the list: %q", got)
	}
	for i := range 30 { // 30 more followers of ben
		s.do(t, record.Player{ID: strconv.Itoa(100 + i), Name: "f"}, "g", ben.ID)
	}
	s.do(t, ben, "g", ann.ID) // ben follows ann: a player is never pinged for his own game
	g := &record.Game{ID: 9, GuildID: "g", ChannelID: "c", PublicID: "abc", Black: record.Human(ann), White: record.Human(ben)}
	msgs := s.GameStarted(context.Background(), g)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if len(m.Mentions) != maxPinged || strings.Contains(" "+strings.Join(m.Mentions, " ")+" ", " 2 ") {
		t.Fatalf("pinged %d (%v), want %d and not ben", len(m.Mentions), m.Mentions, maxPinged)
	}
	if len(m.Components) != 1 || m.Components[0].Buttons[0].URL != "https://othello.example/g/abc" {
		t.Fatalf("the Watch link: %+v", m.Components)
	}
	if got := s.do(t, ann, "g", ben.ID); !strings.Contains(got, "no longer") && !strings.Contains(got, "stop") {
		t.Errorf("following again: %q", got)
	}
	if msgs := s.GameStarted(context.Background(), &record.Game{GuildID: "", Black: record.Human(ann), White: record.Bot(1)}); msgs != nil {
		t.Errorf("a game outside a server pinged: %+v", msgs)
	}
}
