package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/engine/book"
	"othello-bot/game"
)

// Levels 7-10 play from the book, at random among the moves within
// BookMargin of its best; lower levels and NoBook search; Analyze marks
// the book's moves.
func TestLevelsPlayTheBook(t *testing.T) {
	start, _ := game.NewPosition(8)
	p := start
	for _, m := range []string{"f5", "d6"} {
		sq, _ := game.ParseSquare(m, 8)
		p, _ = p.Play(sq)
	}
	mine, theirs := own(p)
	legal := p.LegalMoves()
	bk := book.New()
	var moves []book.Move
	for i, m := range legal {
		moves = append(moves, book.Move{Square: m.Row*8 + m.Col, Value: []int{50, 0, -40, -300, -900}[i]})
	}
	bk.Add(mine, theirs, moves)
	inBook := map[game.Square]bool{legal[0]: true, legal[1]: true, legal[2]: true}

	e := New(Options{Searches: 1, Book: bk})
	rng := rand.New(rand.NewPCG(7, 7))
	played := map[game.Square]int{}
	for level := bookLevel; level <= MaxLevel; level++ {
		for range 20 {
			r, err := e.Move(context.Background(), p, level, rng)
			if err != nil || !r.Book || !inBook[r.Move] {
				t.Fatalf("level %d: %+v %v, want a book move of %v", level, r, err, inBook)
			}
			played[r.Move]++
		}
	}
	if len(played) != 3 {
		t.Errorf("book moves played: %v, want each of the three within the margin", played)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if r, err := e.Move(ctx, p, bookLevel-1, rng); err != nil || r.Book {
		t.Errorf("level %d played from the book: %+v %v", bookLevel-1, r, err)
	}
	noBook := New(Options{Searches: 1, Book: bk, NoBook: true})
	if r, err := noBook.Move(ctx, p, MaxLevel, rng); err != nil || r.Book {
		t.Errorf("NoBook played from the book: %+v %v", r, err)
	}
	evals, err := e.Analyze(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range evals {
		if m.Book != inBook[m.Move] {
			t.Errorf("Analyze: %s marked %v as a book move", m.Move, m.Book)
		}
	}
	// Outside the book, the search plays.
	if r, err := e.Move(ctx, start, MaxLevel, rng); err != nil || r.Book {
		t.Errorf("the start, not in this book: %+v %v", r, err)
	}
}

// Every level has a rating, stronger levels higher.
func TestLevelRatings(t *testing.T) {
	prev := 0
	for l := MinLevel; l <= MaxLevel; l++ {
		r, ok := LevelRating(l)
		if !ok || r <= prev {
			t.Errorf("level %d: rating %d (%v), level below %d", l, r, ok, prev)
		}
		prev = r
	}
	if _, err := parseLevels("3 x\n"); err == nil {
		t.Error("a bad line was read")
	}
}
