// Package xot holds the XOT openings: 8-move starts of 8x8 games whose
// value is close to even by a deep search of our own engine, as serious
// players use to keep games out of book. A game started from one is still
// fair, but neither side has played it a hundred times.
//
// xot.txt is written by `go run ./cmd/xot` (its header says with which
// settings); the test checks every line is legal and as close to even as
// the header says.
package xot

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strconv"

	"othello-bot/game"
	"othello-bot/internal/datafile"
)

//go:embed xot.txt
var data string

// Opening is one XOT start: its eight moves and the value the generator
// found for the side to move after them (Black), in discs.
type Opening struct {
	Moves []game.Square
	Value float64
}

// Transcript writes the moves as a transcript, like f5d6c3d3c4f4f6f3.
func (o Opening) Transcript() string { return game.FormatTranscript(o.Moves, 8) }

// Position is the board after the opening.
func (o Opening) Position() (game.Position, error) {
	start, err := game.NewPosition(8)
	if err != nil {
		return start, err
	}
	g, err := game.Replay(start, o.Moves)
	if err != nil {
		return start, err
	}
	return g.Position(), nil
}

var openings = mustParse(data)

// All returns every opening, in the file's order.
func All() []Opening { return append([]Opening(nil), openings...) }

// Pick chooses an opening at random.
func Pick(rng *rand.Rand) Opening { return openings[rng.IntN(len(openings))] }

// Parse reads the file's lines: a transcript and a value, separated by a
// space; '#' starts a comment.
func Parse(text string) ([]Opening, error) {
	var out []Opening
	for _, l := range datafile.Lines(text) {
		n, f := l.N-1, l.Fields
		if len(f) != 2 {
			return nil, fmt.Errorf("xot line %d: want a transcript and a value", n+1)
		}
		moves, err := game.ParseTranscript(f[0], 8)
		if err != nil {
			return nil, fmt.Errorf("xot line %d: %w", n+1, err)
		}
		start, _ := game.NewPosition(8)
		if _, err := game.Replay(start, moves); err != nil {
			return nil, fmt.Errorf("xot line %d: %w", n+1, err)
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("xot line %d: value %q: %w", n+1, f[1], err)
		}
		out = append(out, Opening{Moves: moves, Value: v})
	}
	return out, nil
}

func mustParse(text string) []Opening {
	o, err := Parse(text)
	if err != nil {
		panic(err)
	}
	if len(o) == 0 {
		panic("xot: no openings in xot.txt")
	}
	return o
}
