package puzzles

import (
	"context"
	"strings"
	"testing"

	"othello-bot/bot"
	"othello-bot/place"
	"othello-bot/record"
)

// The daily puzzle's setting needs the bot itself in the server; the
// refusal comes before anything is read or stored (the service here has
// no store at all).
func TestDailyPuzzleNeedsTheBotInTheServer(t *testing.T) {
	s := &Service{}
	req := bot.Request{Kind: bot.Command, Command: "settings", User: record.Player{ID: "1", Name: "ann"}, GuildID: "g2",
		ChannelID: "c", Place: place.ServerWithoutBot, MemberPermissions: bot.PermManageGuild,
		Options: map[string]string{"puzzle-channel": "here"}}
	r, ok, err := s.Settings(context.Background(), req)
	if err != nil || !ok {
		t.Fatalf("not answered: %v %v", ok, err)
	}
	if r.Message == nil || !r.Message.Ephemeral || !strings.Contains(r.Message.Content, "needs me in the server itself") {
		t.Fatalf("want a private refusal, got %+v", r.Message)
	}
	// Without its options, /settings is the core's.
	req.Options = map[string]string{"language": "ja"}
	if _, ok, _ := s.Settings(context.Background(), req); ok {
		t.Fatal("a language setting was taken by puzzles")
	}
}
