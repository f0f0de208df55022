package habit

import (
	"testing"

	"othello-bot/game"
	"othello-bot/opening"
)

func line(t *testing.T, s string) []game.Square {
	t.Helper()
	m, err := game.ParseTranscript(s, 8)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func everyone(int, game.Color) bool { return true }

// Counts follow a position in any orientation: a line and its mirror image
// count as the same position, each move mapped back to the board asked about.
func TestCountsUnderSymmetry(t *testing.T) {
	tb := New()
	tb.Add(line(t, "f5d6c3"), everyone, 1)
	tb.Add(line(t, "f5d6c3"), everyone, 1)
	tb.Add(line(t, "f5f6e6"), everyone, 1)
	start, _ := game.NewPosition(8)
	first := tb.Moves(start)
	total := 0
	for m, n := range first {
		if start.Check(m) != nil {
			t.Errorf("%s is not a first move", m)
		}
		total += n
	}
	if total != 3 {
		t.Errorf("first moves counted %d times, want 3: %v", total, first)
	}
	// After d3 (f5's image), White's replies are c5 (d6's image) twice
	// and c3 (f6's image) once.
	after, _ := start.Play(game.Square{Col: 3, Row: 2})
	got := tb.Moves(after)
	c5, c3 := game.Square{Col: 2, Row: 4}, game.Square{Col: 2, Row: 2}
	if got[c5] != 2 || got[c3] != 1 || len(got) != 2 {
		t.Errorf("after d3: %v, want c5 twice and c3 once", got)
	}
	if tb.Games() != 3 || tb.Positions() < 3 {
		t.Errorf("games %d, positions %d", tb.Games(), tb.Positions())
	}
}

// Only the people's moves count; a game from another start stops at its
// first move that does not fit.
func TestPeopleOnlyAndOtherStarts(t *testing.T) {
	tb := New()
	tb.Add(line(t, "f5d6c3d3c4"), func(_ int, c game.Color) bool { return c == game.Black }, 1)
	start, _ := game.NewPosition(8)
	after, _ := start.Play(game.Square{Col: 5, Row: 4})
	if m := tb.Moves(after); m != nil {
		t.Errorf("the bot's reply was counted: %v", m)
	}
	tb.Add(line(t, "a1"), everyone, 1) // not a legal first move
	if tb.Positions() != 3 {
		t.Errorf("%d positions, want Black's 3", tb.Positions())
	}
	big, _ := game.NewPosition(10)
	if tb.Moves(big) != nil {
		t.Error("counts for 10x10")
	}
}

// Every named opening line adds without a stop: each is legal from the start.
func TestNamedLines(t *testing.T) {
	tb := New()
	for _, o := range opening.Standard().All() {
		tb.Add(o.Moves, everyone, 1)
	}
	if tb.Positions() < 50 {
		t.Errorf("the named lines give %d positions", tb.Positions())
	}
}
