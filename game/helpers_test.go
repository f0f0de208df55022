package game

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// rows builds a position from one string per row: '.' empty, 'X' black,
// 'O' white.
func rows(t testing.TB, toMove Color, lines ...string) Position {
	t.Helper()
	var cells []Color
	for _, l := range lines {
		if len(l) != len(lines) {
			t.Fatalf("row %q has %d cells, want %d", l, len(l), len(lines))
		}
		for _, ch := range l {
			switch ch {
			case '.':
				cells = append(cells, Empty)
			case 'X':
				cells = append(cells, Black)
			case 'O':
				cells = append(cells, White)
			default:
				t.Fatalf("bad cell %q", ch)
			}
		}
	}
	p, err := FromCells(len(lines), cells, toMove)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sq(t testing.TB, s string, size int) Square {
	t.Helper()
	q, err := ParseSquare(s, size)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func squaresString(sqs []Square) string {
	var s []string
	for _, q := range sqs {
		s = append(s, q.String())
	}
	return strings.Join(s, " ")
}

// randomGame plays uniformly random legal moves from the start position of
// the given size until the game ends, calling visit before every move.
func randomGame(t testing.TB, size int, rng *rand.Rand, visit func(g *Game, move Square)) *Game {
	t.Helper()
	start, err := NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start)
	for !g.Over() {
		moves := g.Position().LegalMoves()
		m := moves[rng.IntN(len(moves))]
		if visit != nil {
			visit(g, m)
		}
		if _, err := g.Play(m); err != nil {
			t.Fatalf("legal move %s refused: %v", m, err)
		}
	}
	return g
}
