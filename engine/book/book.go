// Package book is the engine's opening book: 8x8 positions our own engine
// has searched deeply, each with the value of its moves after minimaxing
// the book's lines (built by `go run ./cmd/train book`). A position is
// stored once, under the least of its eight symmetric images, so every
// orientation and every move order that reaches it finds it.
package book

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"

	"othello-bot/game/bitboard"
)

// Move is one move of a book position and its value for the side to move,
// in hundredths of a disc (the final margin expected under good play).
type Move struct {
	Square int // bit index, row*8+col
	Value  int
}

// Book maps positions (side to move's discs, the opponent's, canonical)
// to their moves.
type Book struct {
	pos map[[2]uint64][]Move
}

// New returns an empty book.
func New() *Book { return &Book{pos: map[[2]uint64][]Move{}} }

// Len is the number of positions.
func (b *Book) Len() int { return len(b.pos) }

// Add stores the moves of a position given in its own orientation.
func (b *Book) Add(p, o uint64, moves []Move) {
	cp, co, s := bitboard.Canonical(p, o)
	out := make([]Move, len(moves))
	for i, m := range moves {
		out[i] = Move{bitboard.TransformSquare(m.Square, s), m.Value}
	}
	sortMoves(out)
	b.pos[[2]uint64{cp, co}] = out
}

// Lookup returns a position's book moves, best first, in the position's
// own orientation.
func (b *Book) Lookup(p, o uint64) ([]Move, bool) {
	if b == nil {
		return nil, false
	}
	cp, co, s := bitboard.Canonical(p, o)
	stored, ok := b.pos[[2]uint64{cp, co}]
	if !ok {
		return nil, false
	}
	// A move's image under s is how it is stored; a symmetric position
	// has several moves with one image, and each gets that value.
	legal := bitboard.Moves(p, o, bitboard.For(8).Mask)
	var out []Move
	for m := legal; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		img := bitboard.TransformSquare(x, s)
		for _, sm := range stored {
			if sm.Square == img {
				out = append(out, Move{x, sm.Value})
				break
			}
		}
	}
	sortMoves(out)
	return out, len(out) > 0
}

// Candidates are the book moves within margin (in hundredths of a disc)
// of the best, best first: those Choose draws from.
func (b *Book) Candidates(p, o uint64, margin int) []Move {
	moves, ok := b.Lookup(p, o)
	if !ok {
		return nil
	}
	n := 1
	for n < len(moves) && moves[n].Value >= moves[0].Value-margin {
		n++
	}
	return moves[:n]
}

// Choose picks a book move at random among those within margin (in
// hundredths of a disc) of the best, so that games differ.
func (b *Book) Choose(p, o uint64, margin int, rng *rand.Rand) (Move, bool) {
	moves := b.Candidates(p, o, margin)
	if len(moves) == 0 {
		return Move{}, false
	}
	return moves[rng.IntN(len(moves))], true
}

func sortMoves(m []Move) {
	slices.SortStableFunc(m, func(a, b Move) int {
		if a.Value != b.Value {
			return b.Value - a.Value
		}
		return a.Square - b.Square
	})
}

// The file: "OBK1", the number of positions (uint32), then per position,
// sorted by key: its two bitboards (uint64 each), the number of moves
// (uint8) and each move's square (uint8) and value in hundredths of a
// disc (int16); little-endian.
var magic = []byte("OBK1")

// MarshalBinary writes the book, positions in key order so that the same
// book gives the same bytes.
func (b *Book) MarshalBinary() ([]byte, error) {
	keys := make([][2]uint64, 0, len(b.pos))
	for k := range b.pos {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]uint64) int {
		if x[0] != y[0] {
			if x[0] < y[0] {
				return -1
			}
			return 1
		}
		switch {
		case x[1] < y[1]:
			return -1
		case x[1] > y[1]:
			return 1
		}
		return 0
	})
	var w bytes.Buffer
	w.Write(magic)
	binary.Write(&w, binary.LittleEndian, uint32(len(keys)))
	for _, k := range keys {
		moves := b.pos[k]
		binary.Write(&w, binary.LittleEndian, k)
		w.WriteByte(byte(len(moves)))
		for _, m := range moves {
			w.WriteByte(byte(m.Square))
			binary.Write(&w, binary.LittleEndian, int16(m.Value))
		}
	}
	return w.Bytes(), nil
}

// Decode reads a book written by MarshalBinary.
func Decode(data []byte) (*Book, error) {
	r := bytes.NewReader(data)
	head := make([]byte, 4)
	if _, err := io.ReadFull(r, head); err != nil || !bytes.Equal(head, magic) {
		return nil, errors.New("book: not an opening book (no OBK1 header)")
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, fmt.Errorf("book: reading the count: %w", err)
	}
	if int64(n)*19 > int64(len(data)) { // a position takes at least 19 bytes
		return nil, fmt.Errorf("book: %d positions do not fit in %d bytes", n, len(data))
	}
	b := &Book{pos: make(map[[2]uint64][]Move, n)}
	for i := uint32(0); i < n; i++ {
		var k [2]uint64
		if err := binary.Read(r, binary.LittleEndian, &k); err != nil {
			return nil, fmt.Errorf("book: position %d: %w", i, err)
		}
		if k[0]&k[1] != 0 {
			return nil, fmt.Errorf("book: position %d has a square of both colours", i)
		}
		c, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("book: position %d: %w", i, err)
		}
		moves := make([]Move, c)
		for j := range moves {
			sq, err := r.ReadByte()
			var v int16
			if err == nil {
				err = binary.Read(r, binary.LittleEndian, &v)
			}
			if err != nil {
				return nil, fmt.Errorf("book: position %d, move %d: %w", i, j, err)
			}
			if sq >= 64 || (k[0]|k[1])&(1<<sq) != 0 {
				return nil, fmt.Errorf("book: position %d: move %d is not on an empty square", i, sq)
			}
			moves[j] = Move{int(sq), int(v)}
		}
		b.pos[k] = moves
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("book: %d bytes after the last position", r.Len())
	}
	return b, nil
}

// book.bin is the engine's book, made by `go run ./cmd/train book` (see
// the README for the command and what it measured).
//
//go:embed book.bin
var builtin []byte

// Builtin is the embedded book; an unreadable one is a build error that
// the package's test catches, so here it is just empty.
var Builtin = func() *Book {
	b, err := Decode(builtin)
	if err != nil {
		return New()
	}
	return b
}()
