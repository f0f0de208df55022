package book

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"othello-bot/game"
	"othello-bot/game/bitboard"
)

// after plays moves (bit indexes) from the start, returning the side to
// move's discs and the opponent's.
func after(t *testing.T, moves ...int) (uint64, uint64) {
	t.Helper()
	start, _ := game.NewPosition(8)
	p, o, _ := start.Bitboards()
	tb := bitboard.For(8)
	for _, x := range moves {
		f := tb.Flips(x, p, o)
		if f == 0 {
			t.Fatalf("move %d is not legal", x)
		}
		p, o = o^f, p^f|1<<x
	}
	return p, o
}

// A position stored in one orientation is found in all eight, with its
// moves turned to match: the value of each move stays with its image.
func TestLookupInEveryOrientation(t *testing.T) {
	p, o := after(t, 37, 43) // f5 d6
	legal := bitboard.Moves(p, o, bitboard.For(8).Mask)
	var stored []Move
	v := 0
	for m := legal; m != 0; m &= m - 1 {
		stored = append(stored, Move{bits.TrailingZeros64(m), v})
		v -= 100
	}
	b := New()
	b.Add(p, o, stored)
	for s := 0; s < 8; s++ {
		tp, to := bitboard.Transform(p, s), bitboard.Transform(o, s)
		got, ok := b.Lookup(tp, to)
		if !ok || len(got) != len(stored) {
			t.Fatalf("symmetry %d: %v %v", s, got, ok)
		}
		for _, want := range stored {
			img := bitboard.TransformSquare(want.Square, s)
			found := false
			for _, g := range got {
				if g.Square == img && g.Value == want.Value {
					found = true
				}
			}
			if !found {
				t.Errorf("symmetry %d: move %d (image %d) with %d missing from %v", s, want.Square, img, want.Value, got)
			}
		}
		if got[0].Value != 0 {
			t.Errorf("symmetry %d: not best first: %v", s, got)
		}
	}
	if _, ok := b.Lookup(after(t, 37)); ok {
		t.Error("a position not in the book was found")
	}
}

// Choose plays only moves within the margin, and each of them.
func TestChooseWithinMargin(t *testing.T) {
	p, o := after(t, 37, 43, 34) // f5 d6 c5: five replies
	b := New()
	legal := bitboard.Moves(p, o, bitboard.For(8).Mask)
	var moves []Move
	values := []int{300, 250, 200, 150, -400, -500}
	for m, i := legal, 0; m != 0; m, i = m&(m-1), i+1 {
		moves = append(moves, Move{bits.TrailingZeros64(m), values[i]})
	}
	b.Add(p, o, moves)
	rng := rand.New(rand.NewPCG(1, 1))
	seen := map[int]int{}
	for range 400 {
		m, ok := b.Choose(p, o, 100, rng)
		if !ok {
			t.Fatal("no book move")
		}
		seen[m.Value]++
	}
	if len(seen) != 3 || seen[300] == 0 || seen[250] == 0 || seen[200] == 0 {
		t.Errorf("moves played by value: %v, want those of 300, 250 and 200 only", seen)
	}
}

func TestRoundTripAndRefusals(t *testing.T) {
	b := New()
	p, o := after(t, 37)
	b.Add(p, o, []Move{{Square: 43, Value: -250}, {Square: 45, Value: -300}, {Square: 29, Value: -700}})
	p, o = after(t)
	b.Add(p, o, []Move{{Square: 37, Value: -250}, {Square: 44, Value: -250}, {Square: 19, Value: -250}, {Square: 26, Value: -250}})
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	data2, _ := again.MarshalBinary()
	if string(data) != string(data2) || again.Len() != 2 {
		t.Fatalf("the book changed when read back: %d positions", again.Len())
	}
	for name, bad := range map[string][]byte{
		"empty":      nil,
		"no header":  []byte("XXXX\x00\x00\x00\x00"),
		"too many":   append([]byte("OBK1"), 0xff, 0xff, 0xff, 0x00),
		"cut short":  data[:len(data)-1],
		"extra byte": append(append([]byte(nil), data...), 0),
	} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%s: read as a book", name)
		}
	}
}

// The embedded book reads, and every move in it is legal in its position.
func TestBuiltinBookIsSound(t *testing.T) {
	b, err := Decode(builtin)
	if err != nil {
		t.Fatal(err)
	}
	tb := bitboard.For(8)
	for k, moves := range b.pos {
		legal := bitboard.Moves(k[0], k[1], tb.Mask)
		for _, m := range moves {
			if legal&(1<<m.Square) == 0 {
				t.Fatalf("position %x %x: move %d is not legal", k[0], k[1], m.Square)
			}
		}
		if bits.OnesCount64(legal) != len(moves) {
			t.Fatalf("position %x %x: %d moves stored, %d legal", k[0], k[1], len(moves), bits.OnesCount64(legal))
		}
	}
	t.Logf("%d positions, %d bytes", b.Len(), len(builtin))
}

func FuzzDecode(f *testing.F) {
	f.Add(builtin)
	f.Add([]byte("OBK1\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode(data)
		if err != nil {
			return
		}
		out, _ := b.MarshalBinary()
		if _, err := Decode(out); err != nil {
			t.Fatalf("a book read back fails: %v", err)
		}
	})
}
