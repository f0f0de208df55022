package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSquareRoundTrip(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				s := Square{c, r}
				for _, text := range []string{s.String(), strings.ToUpper(s.String()), " " + s.String() + "\n"} {
					got, err := ParseSquare(text, size)
					if err != nil || got != s {
						t.Fatalf("size %d: ParseSquare(%q) = %v, %v; want %v", size, text, got, err, s)
					}
				}
			}
		}
	}
	if Pass.String() != "pass" || (Square{3, 2}).String() != "d3" || (Square{25, 25}).String() != "z26" {
		t.Error("String() notation")
	}
}

func TestSquareErrors(t *testing.T) {
	cases := []struct {
		in   string
		size int
		kind error
		msg  string
	}{
		{"d9", 8, ErrOffBoard, "d9 is off the 8x8 board"},
		{"D9", 8, ErrOffBoard, "d9 is off the 8x8 board"},
		{"i1", 8, ErrOffBoard, "i1 is off the 8x8 board"},
		{"z26", 10, ErrOffBoard, "z26 is off the 10x10 board"},
		{"3d", 8, ErrNotSquare, "3d is not a square (use a letter then a number, like d3)"},
		{"d", 8, ErrNotSquare, "d is not a square (use a letter then a number, like d3)"},
		{"d0", 8, ErrNotSquare, "d0 is not a square (use a letter then a number, like d3)"},
		{"d03", 8, ErrNotSquare, "d03 is not a square (use a letter then a number, like d3)"},
		{"", 8, ErrNotSquare, `"" is not a square (use a letter then a number, like d3)`},
		{"d 3", 8, ErrNotSquare, `"d 3" is not a square (use a letter then a number, like d3)`},
		{"ä3", 8, ErrNotSquare, "ä3 is not a square (use a letter then a number, like d3)"},
		{strings.Repeat("x", 100), 8, ErrNotSquare, "xxxxxxxxxxxxxxxx… is not a square (use a letter then a number, like d3)"},
	}
	for _, c := range cases {
		_, err := ParseSquare(c.in, c.size)
		if !errors.Is(err, c.kind) || err.Error() != c.msg {
			t.Errorf("ParseSquare(%q, %d) = %v, want %q", c.in, c.size, err, c.msg)
		}
	}
}

func TestTranscriptFormat(t *testing.T) {
	moves := []Square{{5, 4}, {3, 5}, Pass, {2, 2}}
	if got := FormatTranscript(moves, 8); got != "f5d6c3" {
		t.Errorf("8x8: %q", got)
	}
	if got := FormatTranscript([]Square{{5, 9}, {4, 8}}, 10); got != "f10 e9" {
		t.Errorf("10x10: %q", got)
	}
	// Spaces are optional and case is ignored on every size.
	for _, in := range []string{"F5D6C3", "f5 d6 c3", " f5,d6\tc3 "} {
		got, err := ParseTranscript(in, 8)
		if err != nil || FormatTranscript(got, 8) != "f5d6c3" {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	got, err := ParseTranscript("f10e9A1", 10)
	if err != nil || FormatTranscript(got, 10) != "f10 e9 a1" {
		t.Errorf("10x10 unspaced: %v %v", got, err)
	}
	if _, err := ParseTranscript("f5d6x", 8); err == nil || err.Error() != "move 3: x is not a square (use a letter then a number, like d3)" {
		t.Errorf("bad transcript: %v", err)
	}
	if _, err := ParseTranscript("f5d9", 8); !errors.Is(err, ErrOffBoard) {
		t.Errorf("off-board transcript: %v", err)
	}
	if moves, err := ParseTranscript("", 8); err != nil || len(moves) != 0 {
		t.Errorf("empty transcript: %v %v", moves, err)
	}
}

const start4x4 = `     A   B   C   D
   +---+---+---+---+
 1 |   |   |   |   |
   +---+---+---+---+
 2 |   | O | X |   |
   +---+---+---+---+
 3 |   | X | O |   |
   +---+---+---+---+
 4 |   |   |   |   |
   +---+---+---+---+
`

func TestASCII(t *testing.T) {
	p, _ := NewPosition(4)
	if got := p.ASCII(); got != start4x4 {
		t.Errorf("4x4 board:\n%s\nwant:\n%s", got, start4x4)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{4, 8, 12, 26} {
		randomGame(t, size, rng, func(g *Game, _ Square) {
			p := g.Position()
			q, err := ParseASCII(p.ASCII(), p.ToMove())
			if err != nil || !q.Equal(p) {
				t.Fatalf("size %d: ASCII round trip: %v", size, err)
			}
		})
	}
	big, _ := NewPosition(26)
	lines := strings.Split(big.ASCII(), "\n")
	if lines[0] != "     A   B   C"+lines[0][14:] || !strings.HasPrefix(lines[20], "10 |") || !strings.HasSuffix(lines[0], "Z") {
		t.Errorf("26x26 header or rows misaligned: %q / %q", lines[0], lines[20])
	}
	if _, err := ParseASCII(" 1 | X |\n 2 | O |", Black); err == nil {
		t.Error("a 2-row board was accepted")
	}
}

func TestCellList(t *testing.T) {
	p, _ := NewPosition(6)
	q, err := ParseCellList(p.CellList(), Black)
	if err != nil || !q.Equal(p) {
		t.Fatalf("round trip: %v", err)
	}
	bad := map[string][]string{
		"a board of 15 cells is not square with an even side from 4 to 26 (16, 36, 64, … cells)": make([]string, 15),
		"a board of 9 cells is not square with an even side from 4 to 26 (16, 36, 64, … cells)":  make([]string, 9),
		"a board of 0 cells is not square with an even side from 4 to 26 (16, 36, 64, … cells)":  nil,
	}
	for msg, list := range bad {
		if _, err := ParseCellList(list, Black); err == nil || err.Error() != msg {
			t.Errorf("%d cells: %v", len(list), err)
		}
	}
	list := p.CellList()
	list[7] = "x"
	if _, err := ParseCellList(list, Black); err == nil || err.Error() != `cell 8 (b2) is "x": use " ", "X" or "O"` {
		t.Errorf("bad cell: %v", err)
	}
}

func TestBoard64(t *testing.T) {
	p, _ := NewPosition(8)
	want := "---------------------------OX------XO---------------------------"
	if got := p.Board64(); got != want {
		t.Errorf("Board64 = %q", got)
	}
	q, err := ParseBoard64(want, Black)
	if err != nil || !q.Equal(p) {
		t.Errorf("round trip: %v", err)
	}
	if _, err := ParseBoard64("X", Black); err == nil {
		t.Error("short BOARD64 accepted")
	}
	if _, err := ParseBoard64(strings.Repeat("-", 63)+"Z", Black); err == nil || !strings.Contains(err.Error(), "h8") {
		t.Errorf("bad char: %v", err)
	}
	if small, _ := NewPosition(6); small.Board64() != "" {
		t.Error("Board64 of a 6x6 board")
	}
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"d3", "D3", "z26", "3d", "", "a0", "a01", "é1", "h8 "} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		size = MinSize + 2*((size%12+12)%12)
		sq, err := ParseSquare(s, size)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || err.Error() == "" {
				t.Fatalf("error %v is not an InputError", err)
			}
			return
		}
		if !sq.On(size) {
			t.Fatalf("%q parsed to %v off the %d board", s, sq, size)
		}
		if sq.String() != strings.ToLower(strings.TrimSpace(s)) {
			t.Fatalf("%q parsed to %v", s, sq)
		}
	})
}

func FuzzParseTranscript(f *testing.F) {
	f.Add("f5d6c3d3c4", 8)
	f.Add("f10 e9", 10)
	f.Add("a1a1a1", 4)
	f.Add("zz99", 26)
	f.Fuzz(func(t *testing.T, s string, size int) {
		size = MinSize + 2*((size%12+12)%12)
		moves, err := ParseTranscript(s, size)
		if err != nil {
			return
		}
		again, err := ParseTranscript(FormatTranscript(moves, size), size)
		if err != nil || !slices.Equal(again, moves) {
			t.Fatalf("%q: round trip %v, %v", s, again, err)
		}
		start, _ := NewPosition(size)
		if g, err := Replay(start, moves); err == nil && FormatTranscript(g.Moves(), size) != FormatTranscript(moves, size) {
			t.Fatalf("replay changed the moves")
		}
	})
}

// FuzzRandomGames plays random games (the fuzzer picks the seed and size)
// and checks disc counts and the two representations after every move.
func FuzzRandomGames(f *testing.F) {
	for i := uint64(0); i < 6; i++ {
		f.Add(i, uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, sizeSel uint8) {
		sizes := []int{4, 6, 8, 10, 12, 16}
		checkRandomGame(t, sizes[int(sizeSel)%len(sizes)], rand.New(rand.NewPCG(seed, seed>>1)))
	})
}

func FuzzParseASCII(f *testing.F) {
	f.Add(start4x4)
	f.Add(" 1 | X |\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseASCII(s, Black)
		if err != nil {
			return
		}
		q, err := ParseASCII(p.ASCII(), Black)
		if err != nil || !q.Equal(p) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
