package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestStartPosition(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		p, err := NewPosition(size)
		if err != nil {
			t.Fatal(err)
		}
		h := size / 2
		checks := map[Square]Color{
			{h - 1, h - 1}: White, {h, h}: White,
			{h, h - 1}: Black, {h - 1, h}: Black,
		}
		for s, want := range checks {
			if got := p.At(s); got != want {
				t.Errorf("size %d: %s is %s, want %s", size, s, got, want)
			}
		}
		if b, w := p.Count(); b != 2 || w != 2 {
			t.Errorf("size %d: count %d/%d", size, b, w)
		}
		if p.ToMove() != Black || len(p.LegalMoves()) != 4 {
			t.Errorf("size %d: %s to move with %d moves", size, p.ToMove(), len(p.LegalMoves()))
		}
	}
	p, _ := NewPosition(8)
	if got := squaresString(p.LegalMoves()); got != "d3 c4 f5 e6" {
		t.Errorf("8x8 opening moves %q", got)
	}
	for _, bad := range []int{0, 2, 3, 5, 27, 28, -4} {
		if _, err := NewPosition(bad); err == nil {
			t.Errorf("size %d accepted", bad)
		}
	}
}

// A move in the middle of the board that flips along all 8 directions, and
// one that flips along several lines at once, in both representations.
func TestFlipsAllDirections(t *testing.T) {
	p := rows(t, Black,
		"X..X..X.",
		".O.O.O..",
		"..OOO...",
		"XOO.OOX.",
		"..OOO...",
		".O.O.O..",
		"X..X..X.",
		"........",
	)
	for _, pos := range []Position{p, p.toGrid()} {
		got := squaresString(pos.Flips(sq(t, "d4", 8)))
		want := "b2 d2 f2 c3 d3 e3 b4 c4 e4 f4 c5 d5 e5 b6 d6 f6"
		if got != want {
			t.Errorf("flips %q, want %q", got, want)
		}
		q, err := pos.Play(sq(t, "d4", 8))
		if err != nil {
			t.Fatal(err)
		}
		if b, w := q.Count(); b != 8+16+1 || w != 0 {
			t.Errorf("after d4: %d black, %d white", b, w)
		}
	}
}

// Runs that are blocked by an empty square or the edge flip nothing, and the
// bitboard must not wrap from one row's end to the next row's start.
func TestFlipsStopAtEdgesAndGaps(t *testing.T) {
	p := rows(t, Black,
		"......OO",
		"X.....OO",
		"XO.O....",
		"........",
		"........",
		"........",
		"........",
		"O.......",
	)
	for _, pos := range []Position{p, p.toGrid()} {
		for _, s := range []string{"f1", "f2", "h3", "a5"} {
			if err := pos.Check(sq(t, s, 8)); !errors.Is(err, ErrNoFlips) {
				t.Errorf("%s: %v, want flips nothing", s, err)
			}
		}
	}
	// Edge moves along the edge itself.
	e := rows(t, White,
		"XXXO",
		"....",
		"....",
		"....",
	)
	for _, pos := range []Position{e, e.toGrid()} {
		// The run of black reaches the edge, so white cannot flank it.
		if pos.HasMoves() {
			t.Errorf("moves %s on a full first row", squaresString(pos.LegalMoves()))
		}
	}
	e = rows(t, White,
		".XXO",
		"X...",
		"O...",
		"....",
	)
	for _, pos := range []Position{e, e.toGrid()} {
		if got := squaresString(pos.Flips(Square{0, 0})); got != "b1 c1 a2" {
			t.Errorf("corner flips %q", got)
		}
	}
}

func TestMoveErrors(t *testing.T) {
	p, _ := NewPosition(8)
	cases := []struct {
		sq   Square
		kind error
		msg  string
	}{
		{Square{4, 3}, ErrTaken, "e4 is taken"},
		{Square{2, 2}, ErrNoFlips, "c3 flips nothing"},
		{Square{3, 8}, ErrOffBoard, "d9 is off the 8x8 board"},
	}
	for _, pos := range []Position{p, p.toGrid()} {
		for _, c := range cases {
			_, err := pos.Play(c.sq)
			if !errors.Is(err, c.kind) || err.Error() != c.msg {
				t.Errorf("play %s: %v, want %q", c.sq, err, c.msg)
			}
		}
	}
}

func TestPassAndGameOver(t *testing.T) {
	// White to move has nothing; black does: white passes automatically.
	p := rows(t, White,
		"XXXX",
		"XXXX",
		"XXOX",
		"X...",
	)
	for _, pos := range []Position{p, p.toGrid()} {
		if !pos.MustPass() || pos.GameOver() {
			t.Fatalf("must pass %v, over %v", pos.MustPass(), pos.GameOver())
		}
		g := NewGame(pos)
		if g.Position().ToMove() != Black || len(g.Plies()) != 1 || !g.Plies()[0].Square.IsPass() {
			t.Fatalf("no automatic pass: %v", g.Plies())
		}
		// Black plays c4 flipping c3; now white has no discs: game over with
		// empties left.
		plies, err := g.Play(Square{2, 3})
		if err != nil || len(plies) != 1 {
			t.Fatalf("c3: %v %v", plies, err)
		}
		if !g.Over() || g.Position().Winner() != Black || g.Position().Empties() != 2 {
			t.Fatalf("over %v winner %s empties %d", g.Over(), g.Position().Winner(), g.Position().Empties())
		}
		if _, err := g.Play(Square{0, 3}); !errors.Is(err, ErrGameOver) {
			t.Errorf("move after the end: %v", err)
		}
	}

	// Full board: over, and a draw on equal counts.
	full := rows(t, Black,
		"XXXX",
		"XXXX",
		"OOOO",
		"OOOO",
	)
	if !full.GameOver() || full.Winner() != Empty {
		t.Errorf("full board: over %v winner %s", full.GameOver(), full.Winner())
	}

	// A move that leaves the opponent without a reply but the mover with
	// one: the Game records the opponent's pass after the move.
	q := rows(t, Black,
		".OX.",
		"OO..",
		"X...",
		"....",
	)
	g := NewGame(q)
	plies, err := g.Play(Square{0, 0}) // flips b1 and a2; white's b2 is then stuck
	if err != nil {
		t.Fatal(err)
	}
	if len(plies) != 2 || !plies[1].Square.IsPass() || plies[1].Color != White {
		t.Errorf("plies after a1: %v", plies)
	}
}

func TestGameAndReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{4, 6, 8, 10, 14} {
		for i := 0; i < 20; i++ {
			g := randomGame(t, size, rng, nil)
			moves := g.Moves()
			tr := g.Transcript()
			parsed, err := ParseTranscript(tr, size)
			if err != nil {
				t.Fatalf("size %d: parse %q: %v", size, tr, err)
			}
			if !slices.Equal(parsed, moves) {
				t.Fatalf("size %d: transcript round trip lost moves", size)
			}
			r, err := Replay(g.Start(), parsed)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Position().Equal(g.Position()) || !slices.Equal(r.Plies(), g.Plies()) {
				t.Fatalf("size %d: replay differs", size)
			}
			if g.PlyCount() != len(g.Plies()) {
				t.Fatalf("size %d: PlyCount %d, %d plies", size, g.PlyCount(), len(g.Plies()))
			}
			rp, err := ReplayPlies(g.Start(), g.Plies())
			if err != nil || !rp.Position().Equal(g.Position()) {
				t.Fatalf("size %d: replay of plies: %v", size, err)
			}
		}
	}
}

func TestReplayErrors(t *testing.T) {
	start, _ := NewPosition(8)
	moves, err := ParseTranscript("f5d6c3c3", 8)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Replay(start, moves)
	if err == nil || err.Error() != "move 4 (c3): c3 is taken" {
		t.Errorf("got %v", err)
	}
	_, err = ReplayPlies(start, []Ply{{White, Square{5, 4}}})
	if err == nil {
		t.Error("white moved first without complaint")
	}
	_, err = ReplayPlies(start, []Ply{{Black, Pass}})
	if err == nil {
		t.Error("a pass with legal moves was accepted")
	}
}

// Random games on every size: after each move the mover gains flips+1
// discs and the opponent loses flips; the position agrees with a separate,
// deliberately plain implementation of the rules (below) on the legal
// moves, the flips and the board after the move; and on sizes up to 8,
// where positions live on bitboards, the grid agrees with them too.
func TestRandomGamesCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, size := range []int{4, 6, 8, 10, 26} {
		for i := 0; i < 10; i++ {
			checkRandomGame(t, size, rng)
		}
	}
}

func checkRandomGame(t *testing.T, size int, rng *rand.Rand) {
	t.Helper()
	randomGame(t, size, rng, func(g *Game, m Square) {
		p := g.Position()
		ref := newReference(p)
		if !slices.Equal(p.LegalMoves(), ref.moves()) {
			t.Fatalf("size %d: moves %s vs reference %s", size, squaresString(p.LegalMoves()), squaresString(ref.moves()))
		}
		if len(p.Flips(m)) != ref.flips(m, nil) {
			t.Fatalf("size %d: %s flips %d vs reference %d", size, m, len(p.Flips(m)), ref.flips(m, nil))
		}
		grid := p.toGrid()
		if !slices.Equal(p.LegalMoves(), grid.LegalMoves()) {
			t.Fatalf("size %d: moves %s vs grid %s", size, squaresString(p.LegalMoves()), squaresString(grid.LegalMoves()))
		}
		flips := len(p.Flips(m))
		if flips == 0 || len(grid.Flips(m)) != flips {
			t.Fatalf("size %d: %s flips %d vs grid %d", size, m, flips, len(grid.Flips(m)))
		}
		b0, w0 := p.Count()
		q, err := p.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(q.Cells(), ref.play(m)) {
			t.Fatalf("size %d: board after %s differs from the reference", size, m)
		}
		b1, w1 := q.Count()
		mine0, theirs0, mine1, theirs1 := b0, w0, b1, w1
		if p.ToMove() == White {
			mine0, theirs0, mine1, theirs1 = w0, b0, w1, b1
		}
		if mine1 != mine0+flips+1 || theirs1 != theirs0-flips {
			t.Fatalf("size %d: %s with %d flips: %d/%d -> %d/%d", size, m, flips, mine0, theirs0, mine1, theirs1)
		}
		gq, err := grid.Play(m)
		if err != nil || !gq.Equal(q) {
			t.Fatalf("size %d: bitboard and grid differ after %s", size, m)
		}
	})
}

// reference is the rules written as plainly as possible, on a slice of
// cells, sharing no code with Position: the check for boards larger than
// 8x8, which have no bitboards to compare with.
type reference struct {
	n     int
	cells []Color
	side  Color
}

func newReference(p Position) reference {
	return reference{n: p.Size(), cells: p.Cells(), side: p.ToMove()}
}

// flips counts the discs a move at sq turns; with turn set, it turns them.
func (r reference) flips(sq Square, turn []Color) int {
	if r.cells[sq.Row*r.n+sq.Col] != Empty {
		return 0
	}
	other := White
	if r.side == White {
		other = Black
	}
	total := 0
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			row, col, k := sq.Row+dr, sq.Col+dc, 0
			for row >= 0 && row < r.n && col >= 0 && col < r.n && r.cells[row*r.n+col] == other {
				row, col, k = row+dr, col+dc, k+1
			}
			if k > 0 && row >= 0 && row < r.n && col >= 0 && col < r.n && r.cells[row*r.n+col] == r.side {
				total += k
				for j := 1; turn != nil && j <= k; j++ {
					turn[(sq.Row+j*dr)*r.n+sq.Col+j*dc] = r.side
				}
			}
		}
	}
	return total
}

func (r reference) moves() []Square {
	var out []Square
	for row := 0; row < r.n; row++ {
		for col := 0; col < r.n; col++ {
			if sq := (Square{Col: col, Row: row}); r.flips(sq, nil) > 0 {
				out = append(out, sq)
			}
		}
	}
	return out
}

// play returns the cells after the side to move plays sq.
func (r reference) play(sq Square) []Color {
	out := slices.Clone(r.cells)
	r.flips(sq, out)
	out[sq.Row*r.n+sq.Col] = r.side
	return out
}
