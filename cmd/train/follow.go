package main

// This file is `train follow`: how far the top level follows the opening book
// from the start position, over games of the top level against itself through
// the engine (its own draw among the book's moves within BookMargin).

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/book"
	"othello-bot/game"
)

type followOptions struct {
	book  string // "" for the built-in book
	games int
	seed  uint64
}

// followBook plays each game until the top level's first move out of the book
// and reports at which move that came.
func followBook(ctx context.Context, o followOptions, log io.Writer) error {
	opts := engine.Options{Searches: 1, QuickSearches: -1}
	if o.book != "" {
		data, err := os.ReadFile(o.book)
		if err != nil {
			return fmt.Errorf("reading the book: %w", err)
		}
		if opts.Book, err = book.Decode(data); err != nil {
			return fmt.Errorf("reading the book %s: %w", o.book, err)
		}
	}
	eng := engine.New(opts)
	rng := rand.New(rand.NewPCG(o.seed, o.seed))
	var left []int // the move (from 1) each game first left the book at
	lines := map[string]bool{}
	for range o.games {
		start, _ := game.NewPosition(8)
		g := game.NewGame(start)
		for !g.Over() {
			// A move out of the book is a search: a short one will do,
			// as only whether it came from the book is read.
			mctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
			r, err := eng.Move(mctx, g.Position(), engine.MaxLevel, rng)
			cancel()
			if err != nil {
				return err
			}
			if !r.Book {
				break
			}
			if _, err := g.Play(r.Move); err != nil {
				return err
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		left = append(left, len(g.Moves())+1)
		lines[game.FormatTranscript(g.Moves(), 8)] = true
	}
	slices.Sort(left)
	n := len(left)
	at := func(move int) float64 { // share of games still in the book at that move
		i, _ := slices.BinarySearch(left, move+1)
		return 100 * float64(n-i) / float64(n)
	}
	sum := 0
	for _, v := range left {
		sum += v
	}
	fmt.Fprintf(log, "follow: %d games of the top level against itself from the start: the first move out of the book is move %d at the median (mean %.1f, from %d to %d); %d different book lines\n",
		n, left[n/2], float64(sum)/float64(n), left[0], left[n-1], len(lines))
	fmt.Fprintf(log, "follow: still in the book at move 10: %.0f%%, at move 15: %.0f%%, at move 20: %.0f%%\n", at(10), at(15), at(20))
	return nil
}
