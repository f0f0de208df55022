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

// A hint the deadline cut short (a machine far slower than its node
// budget planned for) says so, and that asking again may change it; one
// that spent its budget says nothing of the kind.
func TestHintSaysWhenCutShort(t *testing.T) {
	ann, ben := record.Player{ID: "1", Name: "ann"}, record.Player{ID: "2", Name: "ben"}
	start, _ := game.NewPosition(8)
	g := &record.Game{ID: 1, Black: record.Human(ann), White: record.Human(ben), State: game.NewGame(start), Status: record.Active}
	for _, m := range []string{"f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"} {
		sq, _ := game.ParseSquare(m, 8)
		if _, err := g.State.Play(sq); err != nil {
			t.Fatal(err)
		}
	}
	ask := func(eng *engine.Engine, moveTime time.Duration) string {
		t.Helper()
		r, err := New(core{g}, eng, moveTime).Routes()["hint"](context.Background(), bot.Request{User: ann})
		if err != nil {
			t.Fatal(err)
		}
		return r.Message.Content
	}
	// An endless budget and 10 ms (a 40 ms safety net): cut short.
	if got := ask(engine.New(engine.Options{Searches: 1, AnalyzeNodes: 1 << 40}), 10*time.Millisecond); !strings.Contains(got, "The machine was busy") {
		t.Errorf("a hint cut short does not say so: %q", got)
	}
	if got := ask(engine.New(engine.Options{Searches: 1, AnalyzeNodes: 50_000}), time.Minute); strings.Contains(got, "The machine was busy") {
		t.Errorf("a hint within its budget says it was cut short: %q", got)
	}
}
