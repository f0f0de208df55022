package opening

import (
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/game"
)

func mustMoves(t *testing.T, s string) []game.Square {
	t.Helper()
	m, err := game.ParseTranscript(s, 8)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func finalPosition(t *testing.T, moves []game.Square) game.Position {
	t.Helper()
	g, err := game.Replay(start(), moves)
	if err != nil {
		t.Fatal(err)
	}
	return g.Position()
}

// image turns a whole position by symmetry s, square by square: a second
// path to the bitboard transforms the book uses.
func image(t *testing.T, p game.Position, s int) game.Position {
	t.Helper()
	cells := make([]game.Color, 64)
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			to := squareImage(game.Square{Col: c, Row: r}, s)
			cells[to.Row*8+to.Col] = p.At(game.Square{Col: c, Row: r})
		}
	}
	q, err := game.FromCells(8, cells, p.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestTheListIsWhole(t *testing.T) {
	all := Standard().All()
	if len(all) != 78 { // Gatliff's 77 and Rabbit
		t.Fatalf("%d openings, want 78", len(all))
	}
	for _, want := range []struct{ key, moves string }{
		{"tiger", "f5d6c3d3c4"}, {"rose", "f5d6c5f4e3c6d3f6e6d7"}, {"cow", "f5f6e6f4e3"},
		{"buffalo", "f5f6e6f4c3"}, {"rabbit", "f5d6c5f4e3"}, {"perpendicular", "f5d6"},
	} {
		o, ok := Standard().ByKey(want.key)
		if !ok || o.Transcript() != want.moves {
			t.Errorf("%s = %q, %v; want %s", want.key, o.Transcript(), ok, want.moves)
		}
	}
}

// TestEveryOpeningInEveryOrientation: each named position, turned every
// one of the board's eight ways, is named; the four ways that keep the
// starting position also give playable games, which Recognise names.
func TestEveryOpeningInEveryOrientation(t *testing.T) {
	b := Standard()
	for _, o := range b.All() {
		p := finalPosition(t, o.Moves)
		for s := 0; s < 8; s++ {
			got, ok := b.At(image(t, p, s))
			if !ok || got.Key != o.Key {
				t.Errorf("%s turned %d: named %q, %v", o.Key, s, got.Key, ok)
			}
		}
		for _, s := range startSymmetries {
			moves := make([]game.Square, len(o.Moves))
			for i, m := range o.Moves {
				moves[i] = squareImage(m, s)
			}
			m := b.Recognise(moves)
			if !m.Named || m.Opening.Key != o.Key || m.Ply != len(o.Moves) || m.LeftTheory != 0 {
				t.Errorf("%s as %s: %+v", o.Key, game.FormatTranscript(moves, 8), m)
			}
			if got := game.FormatTranscript(FromF5(moves), 8); got != o.Transcript() {
				t.Errorf("FromF5(%s) = %s, want %s", game.FormatTranscript(moves, 8), got, o.Transcript())
			}
		}
	}
}

// TestTransposition finds, by brute force, the same named position reached
// by another order of the same moves, and checks the name follows the
// position, not the order.
func TestTransposition(t *testing.T) {
	b := Standard()
	found := 0
	for _, o := range b.All() {
		if len(o.Moves) < 4 || len(o.Moves) > 9 {
			continue
		}
		want := finalPosition(t, o.Moves)
		var blacks, whites []game.Square
		for i, m := range o.Moves {
			if i%2 == 0 {
				blacks = append(blacks, m)
			} else {
				whites = append(whites, m)
			}
		}
		for _, bo := range permutations(blacks) {
			for _, wo := range permutations(whites) {
				moves := interleave(bo, wo)
				if game.FormatTranscript(moves, 8) == o.Transcript() {
					continue
				}
				g, err := game.Replay(start(), moves)
				if err != nil || !g.Position().Equal(want) {
					continue
				}
				found++
				if got, ok := b.Name(moves); !ok || got.Key != o.Key {
					t.Errorf("%s transposed as %s: named %q", o.Key, game.FormatTranscript(moves, 8), got.Key)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no transposition found among the named lines")
	}
	t.Logf("%d transpositions of named lines recognised", found)
}

func permutations(s []game.Square) [][]game.Square {
	if len(s) <= 1 {
		return [][]game.Square{append([]game.Square(nil), s...)}
	}
	var out [][]game.Square
	for i := range s {
		rest := append(append([]game.Square(nil), s[:i]...), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]game.Square{s[i]}, p...))
		}
	}
	return out
}

func interleave(a, b []game.Square) []game.Square {
	var out []game.Square
	for i := range a {
		out = append(out, a[i])
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func TestLongestMatchAndLeavingTheory(t *testing.T) {
	b := Standard()
	// Rose-Bill, then a move on no named line.
	moves := mustMoves(t, "f5d6c3d3c4f4c5b3c2e3d2c6b4a4")
	m := b.Recognise(moves)
	if !m.Named || m.Opening.Key != "rose_bill" || m.Ply != 9 {
		t.Fatalf("got %+v, want Rose-Bill at move 9", m)
	}
	// e3 at move 10 is Nicolet elsewhere, but not on this list.
	if m.LeftTheory != 10 {
		t.Errorf("left theory at %d, want 10", m.LeftTheory)
	}
	// A game from d3 is the same opening turned.
	m = b.Recognise(mustMoves(t, "d3c5f6f5e6"))
	if m.Opening.Key != "tiger" {
		t.Errorf("d3c5f6f5e6: %+v, want Tiger", m)
	}
	if m := b.Recognise(mustMoves(t, "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3h5h7")); m.Opening.Key != "f_a_t_draw" || m.LeftTheory != 0 {
		t.Errorf("FAT draw: %+v", m)
	}
	if m := b.Recognise(mustMoves(t, "f5")); m.Named || m.LeftTheory != 0 {
		t.Errorf("f5 alone: %+v", m)
	}
	if m := b.Recognise(nil); m.Named {
		t.Errorf("no moves: %+v", m)
	}
	// An illegal move stops the reading there.
	if m := b.Recognise(mustMoves(t, "f5d6a1")); m.Opening.Key != "perpendicular" {
		t.Errorf("illegal third move: %+v", m)
	}
}

func TestTransformsAgreeWithSquares(t *testing.T) {
	for s := 0; s < 8; s++ {
		for i := 0; i < 64; i++ {
			sq := game.Square{Col: i % 8, Row: i / 8}
			to := squareImage(sq, s)
			if got := transform(1<<i, s); got != 1<<(to.Row*8+to.Col) {
				t.Fatalf("symmetry %d moves %s to bit %x, want %s", s, sq, got, to)
			}
		}
	}
}

func TestParseRefusesBadLines(t *testing.T) {
	for _, text := range []string{"f5d6", "f5d6 a b", "d3c3 x", "f5f5 x", "f5d6 a\nf5f6 a", "zz a"} {
		if _, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) took it", text)
		}
	}
}

func TestEveryOpeningHasANameInEveryLanguage(t *testing.T) {
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		for _, o := range Standard().All() {
			if n := o.Name(p); n == "" || strings.Contains(n, "⟦") {
				t.Errorf("%s in %s: %q", o.Key, l, n)
			}
		}
	}
	if got := mustName(t, "tiger", catalog.Japanese); got != "虎" {
		t.Errorf("Tiger in Japanese: %q", got)
	}
	if got := mustName(t, "tiger", catalog.English); got != "Tiger" {
		t.Errorf("Tiger in English: %q", got)
	}
}

func mustName(t *testing.T, key string, l catalog.Lang) string {
	o, ok := Standard().ByKey(key)
	if !ok {
		t.Fatalf("no %s", key)
	}
	return o.Name(catalog.For(l))
}

// Beyond lists the book's lines that go on from a line, in the line's own
// orientation, shortest first; nothing goes on from a line the book leaves.
func TestBeyondFollowsTheBook(t *testing.T) {
	book := Standard()
	tiger := mustMoves(t, "f5d6c3d3c4")
	after := book.Beyond(tiger)
	if len(after) == 0 {
		t.Fatal("nothing in the book goes on from the Tiger")
	}
	for i, o := range after {
		if len(o.Moves) <= len(tiger) || game.FormatTranscript(o.Moves[:len(tiger)], 8) != "f5d6c3d3c4" {
			t.Fatalf("%s (%s) does not go on from the Tiger", o.Key, o.Transcript())
		}
		if i > 0 && len(o.Moves) < len(after[i-1].Moves) {
			t.Fatalf("not shortest first: %s after %s", o.Transcript(), after[i-1].Transcript())
		}
	}
	keys := map[string]bool{}
	for _, o := range after {
		keys[o.Key] = true
	}
	if !keys["mainline_tiger"] || !keys["leaders_tiger"] || keys["tiger"] {
		t.Fatalf("after the Tiger: %v", keys)
	}
	// The same line turned (the first move d3 instead of f5) is answered
	// in its own orientation.
	turned := make([]game.Square, len(tiger))
	for i, m := range tiger {
		turned[i] = squareImage(m, 7)
	}
	for _, o := range book.Beyond(turned) {
		if game.FormatTranscript(o.Moves[:len(turned)], 8) != game.FormatTranscript(turned, 8) {
			t.Fatalf("the turned Tiger goes on as %s", o.Transcript())
		}
	}
	if n := len(book.Beyond(turned)); n != len(after) {
		t.Fatalf("the turned Tiger has %d lines after it, the Tiger %d", n, len(after))
	}
	// The end of the book's longest line: nothing goes on.
	if got := book.Beyond(mustMoves(t, "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3h5h7")); len(got) != 0 {
		t.Fatalf("the F.A.T. draw goes on as %v", got)
	}
}
