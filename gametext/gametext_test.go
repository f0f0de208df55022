package gametext

import (
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// Each way a game ends reads differently, names the winner where there is
// one, and in Japanese uses Othello's own words.
func TestResults(t *testing.T) {
	start, _ := game.NewPosition(8)
	g := &record.Game{Black: record.Human(record.Player{ID: "1", Name: "  alice \n smith "}), White: record.Bot(7), State: game.NewGame(start)}
	for _, lang := range catalog.Supported() {
		w := Words{T: catalog.For(lang)}
		if got := w.Side(g.Black); got != "alice smith" {
			t.Errorf("%s: side %q", lang, got)
		}
		seen := map[string]record.EndReason{}
		for _, reason := range []record.EndReason{record.EndNormal, record.EndResign, record.EndTimeout, record.EndAbort, record.EndAbandoned, record.EndModerator} {
			g.Result = &record.Result{Winner: game.White, Reason: reason}
			got := w.Result(g)
			if other, ok := seen[got]; ok {
				t.Errorf("%s: %s and %s both read %q", lang, reason, other, got)
			}
			seen[got] = reason
			if !reason.Unfinished() && !strings.Contains(got, w.Side(g.White)) {
				t.Errorf("%s: %s result %q does not name the winner", lang, reason, got)
			}
		}
	}
	g.Result = &record.Result{Winner: game.Black, Reason: record.EndTimeout}
	if got := (Words{T: catalog.For(catalog.Japanese)}).Result(g); !strings.Contains(got, "時間切れ") {
		t.Errorf("a loss on time in Japanese: %q", got)
	}
}

// A replay's captions count the plies and say a pass as a pass.
func TestFrames(t *testing.T) {
	start, _ := game.NewPosition(8)
	w := Words{T: catalog.For(catalog.English)}
	if got := w.Frame(0, nil, start); got != "Start · Black 2 · White 2" {
		t.Errorf("start %q", got)
	}
	d3, _ := game.ParseSquare("d3", 8)
	after, _ := start.Play(d3)
	if got := w.Frame(1, &game.Ply{Color: game.Black, Square: d3}, after); got != "Move 1 · Black d3 · Black 4 · White 1" {
		t.Errorf("first move %q", got)
	}
	if got := w.Frame(2, &game.Ply{Color: game.White, Square: game.Pass}, after); !strings.Contains(got, "White passes") {
		t.Errorf("a pass %q", got)
	}
}

// The replay's captions name the opening from the move that reaches it,
// the deepest so far, and keep it after the game leaves theory; a 6x6 game
// has no theory.
func TestFramerNamesTheOpening(t *testing.T) {
	w := Words{T: catalog.For(catalog.English)}
	start, _ := game.NewPosition(8)
	moves, _ := game.ParseTranscript("f5d6c3d3c4f4c5b3c2e3", 8)
	g, err := game.Replay(start, moves)
	if err != nil {
		t.Fatal(err)
	}
	frame := w.Framer(start, g.Plies())
	pos := start
	var got []string
	for i, p := range g.Plies() {
		pos, _ = pos.Play(p.Square)
		got = append(got, frame(i+1, &p, pos))
	}
	for n, want := range map[int]string{1: "", 2: "Perpendicular Opening", 4: "Perpendicular Opening", 5: "Tiger", 8: "Tiger", 9: "Rose-Bill", 10: "Rose-Bill"} {
		c := got[n-1]
		if want == "" && strings.Contains(c, "·  ") {
			t.Errorf("move %d: %q", n, c)
		}
		if want != "" && !strings.HasSuffix(c, " · "+want) {
			t.Errorf("move %d: %q, want it to end with %s", n, c, want)
		}
	}
	if strings.Contains(got[0], "Opening") {
		t.Errorf("move 1 named: %q", got[0])
	}
	six, _ := game.NewPosition(6)
	if w.Opening(six, nil) != "" || w.Opening(start, moves) != "Rose-Bill" {
		t.Error("Opening names a 6x6 game, or not the 8x8 one")
	}
}

// Width counts the columns of a monospace font: wide and full-width
// characters two, others one.
func TestWidth(t *testing.T) {
	for s, want := range map[string]int{"alice": 5, "さくら": 6, "山田 太郎": 9, "ｱｲ": 2, "ＡＢ": 4, "": 0} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}
