package gtp

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/engine"
)

func session(t *testing.T, script string) []string {
	t.Helper()
	s := New(engine.New(engine.Options{Searches: 1}), Options{Level: 3, MoveTime: 200 * time.Millisecond, Version: "test", Seed: 1})
	var out strings.Builder
	if err := s.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	resp := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	return resp
}

func TestProtocol(t *testing.T) {
	got := session(t, "protocol_version\n7 name\n# a comment\n\nversion\nknown_command genmove\nknown_command fly\nnonsense\nboardsize 9\nboardsize 4\nplay black a1\nplay black a2\nplay white pass\nplay white a1\nfinal_score\nquit\nname\n")
	want := []string{"= 2", "=7 othello-bot", "= test", "= true", "= false", "? unknown command",
		"? unacceptable size", "= ", "? illegal move", "= ", "? illegal move", "= ", "= 0", "= "}
	if len(got) != len(want) {
		t.Fatalf("%d responses, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("response %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// genmove plays for whichever side is asked, passes when that side has no
// move, and keeps the board in step with play.
func TestGenmoveWholeGame(t *testing.T) {
	var script strings.Builder
	script.WriteString("boardsize 6\nclear_board\n")
	for i := 0; i < 40; i++ {
		script.WriteString("genmove black\ngenmove white\n")
	}
	script.WriteString("final_score\nshowboard\n")
	got := session(t, script.String())
	moves, passes := 0, 0
	for _, r := range got[2:82] {
		switch {
		case r == "= pass":
			passes++
		case strings.HasPrefix(r, "= ") && len(r) == 4:
			moves++
		default:
			t.Fatalf("unexpected genmove response %q", r)
		}
	}
	// A 6x6 game has at most 32 moves; the rest of the 80 asks are passes.
	if moves < 20 || moves > 32 || moves+passes != 80 {
		t.Errorf("%d moves and %d passes", moves, passes)
	}
	if !strings.HasPrefix(got[82], "= B+") && !strings.HasPrefix(got[82], "= W+") && got[82] != "= 0" {
		t.Errorf("final_score %q", got[82])
	}
	if !strings.Contains(got[83], "   +---+---+---+---+---+---+") {
		t.Errorf("showboard %q", got[83])
	}
}

func TestUndoAndSettings(t *testing.T) {
	got := session(t, "play b d3\nundo\nundo\nplay b d3\nset_level 21\nset_level 1\ntime_settings 0 5 1\ntime_settings x\ngenmove w\n")
	want := []string{"= ", "= ", "? cannot undo", "= ", "? level must be 1..20", "= ", "= ", "? syntax error"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("response %d: %q, want %q", i, got[i], want[i])
		}
	}
	if r := got[len(got)-1]; r != "= c3" && r != "= e3" && r != "= c5" {
		t.Errorf("white's reply to d3: %q", r)
	}
}

// FuzzServe sends arbitrary command text: every command gets exactly one
// well-formed response and nothing crashes.
func FuzzServe(f *testing.F) {
	f.Add("boardsize 4\nplay b a1\ngenmove w\nundo\n")
	f.Add("1 play black zz99\n2 time_settings 1 2 3\nshowboard\n")
	s := New(engine.New(engine.Options{Searches: 1}), Options{Level: 2, MoveTime: 20 * time.Millisecond, Seed: 3})
	f.Fuzz(func(t *testing.T, script string) {
		var out strings.Builder
		if err := s.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
			return // an over-long line; nothing else to check
		}
		for _, r := range strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n") {
			if r != "" && r[0] != '=' && r[0] != '?' {
				t.Fatalf("malformed response %q", r)
			}
		}
	})
}

// A 10 MB line is answered with an error and the session goes on; a
// negative number is not an id.
func TestLongLineAndNegativeID(t *testing.T) {
	got := session(t, "1 name\n"+strings.Repeat("x", 10<<20)+"\n2 name\n-5 name\n3 -5\n")
	want := []string{"=1 othello-bot", "? line too long", "=2 othello-bot", "? unknown command", "?3 unknown command"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}
