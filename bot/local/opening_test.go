package local_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
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

// playLine plays moves in a channel's game, each by the side to move.
func (e *env) playLine(channel, moves string) string {
	e.t.Helper()
	var out string
	for i := 0; i+1 < len(moves); i += 2 {
		g, err := e.store.ActiveGame(context.Background(), channel)
		if err != nil {
			e.t.Fatal(err)
		}
		out = e.say(g.ToMove().Player.ID + " #" + channel + ": /move " + moves[i:i+2])
	}
	return out
}

// /openings over a fixture of games played here: each opening's count and
// how each side scored, the continuations of a line (a game from d3
// counted as the same line from f5), the refusals of bad lines, and the
// favourite openings on /stats.
func TestOpeningsCountsTheServersGames(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("alice #lobby: /openings"), "No finished 8x8 game here has reached a named opening yet.")
	fixture := []struct{ moves, loser string }{
		{"f5d6c3d3c4", "bob"},   // Tiger, Black wins
		{"f5d6c3d3c4", "alice"}, // Tiger, White wins
		{"f5f6e6f4e3", "bob"},   // Cow, Black wins
		{"d3c5f6f5e6", "alice"}, // Tiger from d3, White wins
	}
	for _, f := range fixture {
		e.say("alice #lobby: /challenge @bob color:black rated:false", "bob #lobby: click Accept")
		e.playLine("lobby", f.moves)
		e.say(f.loser+" #lobby: /resign", f.loser+" #lobby: click Resign")
		e.clock.Advance(time.Minute)
	}
	if lines := e.results(); len(lines) != len(fixture) {
		t.Fatalf("%d results lines, want %d", len(lines), len(fixture))
	}
	out := e.say("carol #lobby: /openings")
	expect(t, out, "Openings played here", "Tiger `f5d6c3d3c4` · 3 games · ⚫ 33% · ⚪ 67%",
		"Cow `f5f6e6f4e3` · 1 game · ⚫ 100% · ⚪ 0%", "From the last 4 finished 8x8 games here.")
	if strings.Index(out, "Tiger") > strings.Index(out, "Cow") {
		t.Error("the most played opening is not first")
	}
	expect(t, e.say("carol #lobby: /openings moves:f5d6"), "After f5d6 (Perpendicular Opening)",
		"3 games here went this way · ⚫ 33% · ⚪ 67%", "c3 · 3 games")
	expect(t, e.say("carol #lobby: /openings moves:e6f4c3c4"), "After f5d6c3d3 (Perpendicular Opening)", "c4 → Tiger · 3 games")
	// A line nobody here played is still named, with the book's lines
	// from it, as the bot names them in play (#59's seam).
	expect(t, e.say("carol #lobby: /openings moves:f5f4"), "After f5f4 (Parallel Opening)", "No game here has gone this way yet.")
	out = e.say("carol #lobby: /openings moves:f5d6c4")
	expect(t, out, "After f5d6c4 (Perpendicular Opening)", "No game here has gone this way yet.", "Named lines from here:",
		"Ganglion, No-Cat `f5d6c4g5`", "Cat `f5d6c4d3c5`")
	if strings.Index(out, "Ganglion") > strings.Index(out, "Cat") {
		t.Error("the book's shorter line is not first")
	}
	// Turned (the first move e6), the line is read as theory writes it.
	expect(t, e.say("carol #lobby: /openings moves:e6f4d3"), "After f5d6c4 (Perpendicular Opening)", "Ganglion, No-Cat `f5d6c4g5`")
	expect(t, e.say("carol #lobby: /openings moves:f5d6a1"), "Move 3, a1, is not legal there.")
	expect(t, e.say("carol #lobby: /openings moves:hello"), "I can't read that as moves from the start")
	expect(t, e.say("carol #lobby: /openings moves:"+strings.Repeat("f5d6", 16)), "That line is too long: give at most 30 moves.")
	expect(t, e.say("alice #lobby: /stats"), "Favourite openings", "Tiger ×3 (1-2-0) · Cow ×1 (1-0-0)")
}
