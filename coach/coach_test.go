package coach

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
)

// board builds an 8x8 position from rows a1..h1 first, as BOARD64 reads.
func board(t *testing.T, toMove game.Color, rows ...string) game.Position {
	t.Helper()
	p, err := game.ParseBoard64(strings.Join(rows, ""), toMove)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sq(t *testing.T, s string) game.Square {
	t.Helper()
	q, err := game.ParseSquare(s, 8)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func has(rs []Reason, want Reason) bool { return slices.Contains(rs, want) }

// Black's b2 (an X-square by the empty a1) lets White take a1 along the
// diagonal; f6 does neither.
func TestXSquareGivesTheCorner(t *testing.T) {
	p := board(t, game.Black,
		"--------",
		"--------",
		"--O-----",
		"---X----",
		"----O---",
		"--------",
		"--------",
		"--------")
	for _, m := range []string{"b2", "f6"} {
		if p.Check(sq(t, m)) != nil {
			t.Fatalf("%s is not legal here", m)
		}
	}
	rs := Reasons(p, sq(t, "b2"), sq(t, "f6"), 9.6)
	for _, want := range []Reason{{Kind: GivesCorner, Square: sq(t, "a1")}, {Kind: XSquare, Square: sq(t, "b2")}, {Kind: Discs, Before: 10}} {
		if !has(rs, want) {
			t.Errorf("reasons %v lack %v", rs, want)
		}
	}
	if rs[len(rs)-1].Kind != Discs {
		t.Errorf("the discs come last: %v", rs)
	}
	// The other way round, f6 gives no corner and is no X-square.
	for _, r := range Reasons(p, sq(t, "f6"), sq(t, "b2"), 1) {
		if r.Kind == GivesCorner || r.Kind == XSquare {
			t.Errorf("f6 over b2: %v", r)
		}
	}
}

// Near the end, a1 alone is an odd region and h7-h8 an even one: playing
// into the even region gives the opponent the last move there.
func TestParity(t *testing.T) {
	full := strings.Repeat("X", 8)
	p := board(t, game.Black,
		"-OXXXXXX",
		full, full, full, full, full,
		"XXXXXXX-",
		"XXXXXXO-")
	if p.Check(sq(t, "a1")) != nil || p.Check(sq(t, "h8")) != nil {
		t.Fatal("a1 and h8 should be legal for Black")
	}
	rs := Reasons(p, sq(t, "h8"), sq(t, "a1"), 2)
	if !has(rs, Reason{Kind: Parity, Before: 1, After: 2}) {
		t.Errorf("reasons %v lack parity 1 → 2", rs)
	}
	if has(Reasons(p, sq(t, "a1"), sq(t, "h8"), 2), Reason{Kind: Parity, Before: 2, After: 1}) {
		t.Error("playing the odd region is not a parity mistake")
	}
}

func TestFrontierAndRegions(t *testing.T) {
	start, _ := game.NewPosition(8)
	if frontier(start, game.Black) != 2 || frontier(start, game.White) != 2 {
		t.Errorf("the start: frontier %d and %d, want 2 and 2", frontier(start, game.Black), frontier(start, game.White))
	}
	r := regionSizes(start)
	if len(r) != 60 || r[sq(t, "a1")] != 60 {
		t.Errorf("the start is one region of 60: %d squares, a1's %d", len(r), r[sq(t, "a1")])
	}
}

// A game of a weak level against a strong one: its three largest
// mistakes, in the order played, each a position of that game with the
// move played, right answers far better than it, and reasons.
func TestFindInARealGame(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	rng := rand.New(rand.NewPCG(1, 2))
	for !g.Over() {
		level := 15
		if g.Position().ToMove() == game.Black {
			level = 3
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, err := eng.Move(ctx, g.Position(), level, rng)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		g.Play(r.Move)
	}
	lessons, err := Find(context.Background(), eng, start, g.Plies(), game.Black, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(lessons) != 3 {
		t.Fatalf("%d lessons from a level-3 game", len(lessons))
	}
	for i, l := range lessons {
		if i > 0 && l.Ply <= lessons[i-1].Ply {
			t.Errorf("lessons out of order: %d after %d", l.Ply, lessons[i-1].Ply)
		}
		pos, err := before(start, g.Plies(), l.Ply+1)
		if err != nil || !pos.Equal(l.Start) || g.Plies()[l.Ply].Square != l.Played || l.Start.ToMove() != game.Black {
			t.Errorf("lesson %d is not the game's position before ply %d", i, l.Ply+1)
		}
		if l.Loss < MinLoss || len(l.Accept) == 0 || l.Accept[0] != l.Best || slices.Contains(l.Accept, l.Played) {
			t.Errorf("lesson %d: loss %.1f, accept %v, played %s", i, l.Loss, l.Accept, l.Played)
		}
		for _, m := range l.Accept {
			if l.Start.Check(m) != nil {
				t.Errorf("lesson %d accepts the illegal %s", i, m)
			}
		}
		if len(l.Why) == 0 || l.Why[len(l.Why)-1].Kind != Discs {
			t.Errorf("lesson %d: reasons %v", i, l.Why)
		}
		after, _ := l.Start.Play(l.Played)
		for _, r := range l.Why {
			if r.Kind == Reply && after.Check(r.Square) != nil {
				t.Errorf("lesson %d: the reply %s is not the opponent's move", i, r.Square)
			}
		}
		t.Logf("lesson %d: ply %d played %s best %s loss %.1f accept %v why %s", i, l.Ply, l.Played, l.Best, l.Loss, l.Accept, Encode(l.Why))
		if r := Rating(l); r < 600 || r > 2000 {
			t.Errorf("lesson %d rated %v", i, r)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	rs := []Reason{{Kind: GivesCorner, Square: game.Square{Col: 7, Row: 7}}, {Kind: XSquare, Square: game.Square{Col: 1, Row: 1}},
		{Kind: CSquare, Square: game.Square{Col: 0, Row: 1}}, {Kind: Reply, Square: game.Square{Col: 2, Row: 0}}, {Kind: Mobility, Before: 3, After: 9}, {Kind: Wall, Before: 4, After: 8},
		{Kind: Flips, Before: 1, After: 5}, {Kind: Parity, Before: 1, After: 2}, {Kind: Discs, Before: 12}}
	text := Encode(rs)
	back, err := Decode(text, 8)
	if err != nil || !slices.Equal(back, rs) {
		t.Errorf("%q came back as %v %v", text, back, err)
	}
	for _, bad := range []string{"corner", "corner:z9", "mobility:3", "mobility:-1:2", "why:1:2", "x:pass"} {
		if _, err := Decode(bad, 8); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
}

func FuzzDecodeReasons(f *testing.F) {
	f.Add("corner:a1 mobility:3:9 discs:12:0")
	f.Add("x:b2 parity:1:2")
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := Decode(s, 8)
		if err != nil {
			return
		}
		again, err := Decode(Encode(rs), 8)
		if err != nil || !slices.Equal(again, rs) {
			t.Errorf("%q: %v, then %v %v", s, rs, again, err)
		}
	})
}

// before is the position before the given ply (1-based).
func before(start game.Position, plies []game.Ply, ply int) (game.Position, error) {
	pos := start
	for _, p := range plies[:ply-1] {
		if p.Square.IsPass() {
			pos = pos.Pass()
			continue
		}
		next, err := pos.Play(p.Square)
		if err != nil {
			return pos, err
		}
		pos = next
	}
	return pos, nil
}
