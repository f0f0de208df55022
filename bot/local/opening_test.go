package local_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// Playing the Tiger and on into the Rose-Bill names each on the game
// message as it is reached; the finished game's /history entry and its
// analysis name it too, the analysis saying where the game left theory.
func TestOpeningNamesThroughTheTerminal(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("alice #lobby: /challenge @bob color:black rated:false", "bob #lobby: click Accept")
	ctx := context.Background()
	play := func(moves string) string {
		t.Helper()
		var out string
		for i := 0; i+1 < len(moves); i += 2 {
			g, err := e.store.ActiveGame(ctx, "lobby")
			if err != nil {
				t.Fatal(err)
			}
			out = e.say(g.ToMove().Player.ID + " #lobby: /move " + moves[i:i+2])
			if strings.Contains(out, "not a legal move") || strings.Contains(out, "not your turn") {
				t.Fatalf("%s refused:\n%s", moves[i:i+2], out)
			}
		}
		return out
	}
	out := play("f5d6")
	expect(t, out, "Opening: Perpendicular Opening")
	out = play("c3d3c4")
	expect(t, out, "Opening: Tiger")
	out = play("f4c5b3c2")
	expect(t, out, "Opening: Rose-Bill")
	out = play("e3")
	expect(t, out, "Opening: Rose-Bill") // left theory, still the Rose-Bill
	g, err := e.store.ActiveGame(ctx, "lobby")
	if err != nil {
		t.Fatal(err)
	}
	e.say("bob #lobby: /resign", "bob #lobby: click Resign")
	expect(t, e.say("alice #lobby: /history"), "Rose-Bill", "f5d6c3d3c4f4c5b3c2e3")
	e.say("alice #lobby: /analyze game:" + strconv.FormatInt(g.ID, 10))
	e.adapter.Service().WaitAnalyses()
	expect(t, e.out.String(), "📖 Rose-Bill: left known theory at move 10.")

	// The same line from d3, turned on the board, is the same opening; in
	// Japanese it is 虎.
	e.say("carol #den: /challenge @dave color:black rated:false", "dave #den: click Accept")
	e.adapter.Locale = "ja"
	for _, m := range []string{"d3", "c5", "f6", "f5", "e6"} {
		g, err := e.store.ActiveGame(ctx, "den")
		if err != nil {
			t.Fatal(err)
		}
		out = e.say(g.ToMove().Player.ID + " #den: /move " + m)
	}
	expect(t, out, "定石", "虎")
}
