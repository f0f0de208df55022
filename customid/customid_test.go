package customid

import (
	"strings"
	"testing"
)

// What Make writes, Parse reads back; what it cannot read says so.
func TestRoundTrip(t *testing.T) {
	s := Make("move", int64(123456789012345678), 7)
	if s != "move:123456789012345678:7" {
		t.Fatalf("made %q", s)
	}
	id := Parse(s)
	if g, ok := id.Int(0); !ok || g != 123456789012345678 || id.Action != "move" {
		t.Fatalf("game %d %v, action %q", g, ok, id.Action)
	}
	if p, ok := id.Int(1); !ok || p != 7 {
		t.Fatalf("ply %d %v", p, ok)
	}
	if _, ok := id.Int(2); ok {
		t.Fatal("a third argument out of nowhere")
	}
	if w, ok := Parse(Make("daily", 5, "2026-11-27")).Word(1); !ok || w != "2026-11-27" {
		t.Fatalf("the day %q", w)
	}
	if w, _ := Parse(Make("watchhere", "a:b")).Word(0); w != "ab" {
		t.Fatalf("a word with a colon: %q", w)
	}
	if _, ok := Parse("accept:x").Int(0); ok {
		t.Fatal("a word read as a number")
	}
	if id := Parse("board"); id.Action != "board" {
		t.Fatalf("no arguments: %+v", id)
	}
}

// No input makes the reader panic, and what it reads it reads from the
// input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"move:1:2", "", ":", "a::", "daily:5:2026-11-27"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := Parse(s)
		if !strings.HasPrefix(s, id.Action) {
			t.Fatalf("action %q not from %q", id.Action, s)
		}
		for i := -1; i < 4; i++ {
			if w, ok := id.Word(i); ok && !strings.Contains(s, w) {
				t.Fatalf("argument %q not from %q", w, s)
			}
			id.Int(i)
		}
	})
}
