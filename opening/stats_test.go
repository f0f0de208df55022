package opening

import (
	"errors"
	"testing"

	"othello-bot/game"
)

func played(t *testing.T, moves string, w game.Color) Played {
	return Played{Moves: mustMoves(t, moves), Winner: w}
}

func TestTallyAndContinuations(t *testing.T) {
	games := []Played{
		played(t, "f5d6c3d3c4f4", game.Black),       // Tiger
		played(t, "d3c5f6f5e6e3", game.White),       // Tiger, turned
		played(t, "f5d6c3d3c4f4c5b3c2", game.Empty), // Rose-Bill, a draw
		played(t, "f5f6e6f4e3", game.Black),         // Cow
		played(t, "f5d6c3d3c4", game.White),         // Tiger, ended there
		played(t, "f5f4e3", game.Black),             // Parallel
		played(t, "c4c3", game.White),               // Diagonal, turned
	}
	b := Standard()
	got := b.Tally(games)
	want := map[string]Score{
		"tiger": {3, 1, 0, 2}, "rose_bill": {1, 0, 1, 0}, "cow": {1, 1, 0, 0}, "parallel": {1, 1, 0, 0}, "diagonal": {1, 0, 0, 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%d openings tallied: %+v", len(got), got)
	}
	if got[0].Opening.Key != "tiger" {
		t.Errorf("most played first: %s", got[0].Opening.Key)
	}
	for _, g := range got {
		if g.Score != want[g.Opening.Key] {
			t.Errorf("%s: %+v, want %+v", g.Opening.Key, g.Score, want[g.Opening.Key])
		}
	}
	if p := got[0].BlackPercent(); p != 33 {
		t.Errorf("Tiger: Black scores %d%%, want 33", p)
	}

	line, err := ParseLine("f5d6c3d3c4")
	if err != nil {
		t.Fatal(err)
	}
	next, through := Continuations(games, line)
	if through != (Score{4, 1, 1, 2}) {
		t.Errorf("through the Tiger: %+v", through)
	}
	if len(next) != 1 || next[0].Move.String() != "f4" || next[0].Score != (Score{3, 1, 1, 1}) {
		t.Errorf("after the Tiger: %+v", next)
	}
	// A line typed from d3 is the same line.
	l2, err := ParseLine("d3 c5 f6 f5 e6")
	if err != nil || game.FormatTranscript(l2, 8) != "f5d6c3d3c4" {
		t.Errorf("d3c5f6f5e6 read as %v, %v", l2, err)
	}
}

func TestParseLineRefuses(t *testing.T) {
	var illegal *IllegalMoveError
	if _, err := ParseLine("f5d6a1"); !errors.As(err, &illegal) || illegal.N != 3 || illegal.Move.String() != "a1" {
		t.Errorf("f5d6a1: %v", err)
	}
	if _, err := ParseLine("f5 zz"); !errors.Is(err, ErrLineUnreadable) {
		t.Errorf("f5 zz: %v", err)
	}
	if _, err := ParseLine(""); !errors.Is(err, ErrLineEmpty) {
		t.Errorf("empty: %v", err)
	}
	long := "f5d6c3d3c4f4c5b3c2e3d2c6b4a4b5a6a3b6c7d7e6f6g5e7c8d8b8f3e2a5g4"
	if _, err := ParseLine(long); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("%d moves: %v", len(long)/2, err)
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"f5d6c3", "d3 c5", "", "a1", "f5d6c3d3c4f4c5b3c2e3d2c6b4a4b5a6a3b6c7d7", "pass", "F5D6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, err := ParseLine(s)
		if err != nil {
			return
		}
		if len(line) == 0 || len(line) > MaxLine || line[0] != f5 {
			t.Fatalf("ParseLine(%q) = %v", s, line)
		}
		if _, err := game.Replay(start(), line); err != nil {
			t.Fatalf("ParseLine(%q) gave an illegal line: %v", s, err)
		}
	})
}
