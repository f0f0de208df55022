package hints

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

type core struct{ g *record.Game }

func (c core) ChannelGame(context.Context, bot.Request) (*record.Game, bot.Response, error) {
	if c.g == nil {
		return nil, bot.Refuse("no game"), nil
	}
	return c.g, bot.Response{}, nil
}

// /hint is the real engine's best moves for the player to move, only for
// them, in a game that is not rated; exact near the end.
func TestHint(t *testing.T) {
	ann, ben := record.Player{ID: "1", Name: "ann"}, record.Player{ID: "2", Name: "ben"}
	start, _ := game.NewPosition(8)
	g := &record.Game{ID: 1, Black: record.Human(ann), White: record.Human(ben), State: game.NewGame(start), Status: record.Active}
	s := New(core{g}, engine.New(engine.Options{Searches: 1}), 2*time.Second)
	ask := func(who record.Player) string {
		t.Helper()
		r, err := s.Routes()["hint"](context.Background(), bot.Request{User: who})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Message.Ephemeral {
			t.Fatalf("a hint everyone sees: %q", r.Message.Content)
		}
		return r.Message.Content
	}
	if got := ask(record.Player{ID: "3"}); strings.Contains(got, "**") {
		t.Errorf("a hint for a stranger: %q", got)
	}
	if got := ask(ben); strings.Contains(got, "**") {
		t.Errorf("a hint out of turn: %q", got)
	}
	got := ask(ann)
	// The four first moves are equal by symmetry: the best three of them.
	if n := strings.Count(got, "**") / 2; n != 3 {
		t.Fatalf("%d moves suggested: %q", n, got)
	}
	for _, sq := range []string{"d3", "c4", "f5", "e6"} {
		got = strings.Replace(got, "**"+sq+"**", "", 1)
	}
	if strings.Contains(got, "**") {
		t.Fatalf("a move that is not an opening move: %q", got)
	}
	g.Rated = true
	if got := ask(ann); strings.Contains(got, "**") {
		t.Errorf("a hint in a rated game: %q", got)
	}
	// A small board is solved: the values are exact, each move's final
	// margin with perfect play.
	small, _ := game.NewPosition(4)
	g.Rated, g.State = false, game.NewGame(small)
	if got := ask(ann); !strings.Contains(got, "Solved exactly") || !strings.Contains(got, "perfect play)") {
		t.Errorf("a solved 4x4 position: %q", got)
	}
}
