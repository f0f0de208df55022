// This file holds the training games: how self-play makes them and how they
// are stored, one record per game, so a run can stop at any time and go on.

package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"othello-bot/engine"
	"othello-bot/game"
)

// record is one self-play game: its moves from the standard start, and
// from how many empty squares on both sides played perfectly, so every
// position from there has the final margin as its exact value.
type record struct {
	index     uint32
	moves     []byte // square indices col + 8*row; passes are implied
	exactFrom uint8
	margin    int8 // Black's final margin, empties to the winner
}

// The file is a sequence of records: index (uint32), move count, moves,
// exactFrom, margin. A torn last record (a run killed mid-write) is cut.
func (r record) encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, r.index)
	b = append(b, byte(len(r.moves)))
	b = append(b, r.moves...)
	return append(b, r.exactFrom, byte(r.margin))
}

// readGames reads every whole record of a games file and returns the byte
// length they take, so a torn tail can be cut before appending.
func readGames(path string) ([]record, int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var out []record
	var good int64
	for {
		var hdr [5]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return out, good, nil
		}
		n := int(hdr[4])
		if n > 64 {
			return nil, 0, fmt.Errorf("%s: record at byte %d claims %d moves: not a games file", path, good, n)
		}
		rest := make([]byte, n+2)
		if _, err := io.ReadFull(br, rest); err != nil {
			return out, good, nil
		}
		out = append(out, record{
			index:     binary.LittleEndian.Uint32(hdr[:4]),
			moves:     rest[:n],
			exactFrom: rest[n],
			margin:    int8(rest[n+1]),
		})
		good += int64(5 + n + 2)
	}
}

// selfPlay plays game number index of a run: a random opening, then the
// engine at a fixed level with an occasional random move, then perfect
// play once exactFrom or fewer squares are empty.
func selfPlay(ctx context.Context, eng *engine.Engine, seed uint64, index uint32, level, exactFrom int, randomRate float64) (record, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(index)))
	start, err := game.NewPosition(8)
	if err != nil {
		return record{}, err
	}
	g := game.NewGame(start)
	rec := record{index: index, exactFrom: uint8(exactFrom)}
	opening := 2 + rng.IntN(9)
	for !g.Over() {
		p := g.Position()
		moves := p.LegalMoves()
		var m game.Square
		switch {
		case p.Empties() <= exactFrom:
			r, err := eng.Solve(ctx, p)
			if err != nil {
				return record{}, fmt.Errorf("game %d: solving: %w", index, err)
			}
			m = r.Move
		case len(g.Moves()) < opening || rng.Float64() < randomRate:
			m = moves[rng.IntN(len(moves))]
		default:
			// The search levels of before (-level 3..9 names them), so the
			// games, and the weights trained on them, are what they were.
			depth, solve, _ := engine.OldSearch(level)
			r, err := eng.Search(ctx, p, depth, solve)
			if err != nil {
				return record{}, fmt.Errorf("game %d: searching: %w", index, err)
			}
			m = r.Move
		}
		if _, err := g.Play(m); err != nil {
			return record{}, fmt.Errorf("game %d: the engine chose %v: %w", index, m, err)
		}
		rec.moves = append(rec.moves, byte(m.Col+8*m.Row))
	}
	b, w := g.Position().Count()
	margin := b - w
	switch e := 64 - b - w; {
	case margin > 0:
		margin += e
	case margin < 0:
		margin -= e
	}
	rec.margin = int8(margin)
	return rec, nil
}
