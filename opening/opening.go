// Package opening names 8x8 openings: the classic named lines of Othello
// theory (openings.txt), recognised in a game however it is turned on the
// board (its eight symmetries) and whatever order its moves came in (a
// transposition reaches the same position). It also says where a game
// left known theory, and writes any game's moves as if it began with f5,
// the way theory is written. It knows nothing of Discord or SQL; the names
// themselves are words in the catalog (opening.name.KEY).
package opening

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/game/bitboard"
	"othello-bot/internal/datafile"
)

//go:embed openings.txt
var data string

// Opening is one named line: its catalog key and its moves from the start,
// beginning with f5.
type Opening struct {
	Key   string
	Moves []game.Square
}

// Transcript writes the line, like f5d6c3d3c4.
func (o Opening) Transcript() string { return game.FormatTranscript(o.Moves, 8) }

// Name is the opening's name in t's language.
func (o Opening) Name(t *catalog.Printer) string { return t.T("opening.name." + o.Key) }

// Parse reads the file's lines: a transcript from the start and a key;
// '#' starts a comment. Every line must be legal from the start.
func Parse(text string) ([]Opening, error) {
	var out []Opening
	seen := map[string]bool{}
	for _, l := range datafile.Lines(text) {
		n, f := l.N-1, l.Fields
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want a transcript and a key, got %q", n+1, strings.Join(f, " "))
		}
		moves, err := game.ParseTranscript(f[0], 8)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if len(moves) == 0 || moves[0] != f5 {
			return nil, fmt.Errorf("line %d: %s does not begin with f5", n+1, f[0])
		}
		if _, err := game.Replay(start(), moves); err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", n+1, f[0], err)
		}
		if seen[f[1]] {
			return nil, fmt.Errorf("line %d: key %s twice", n+1, f[1])
		}
		seen[f[1]] = true
		out = append(out, Opening{Key: f[1], Moves: moves})
	}
	return out, nil
}

var f5 = game.Square{Col: 5, Row: 4}

func start() game.Position {
	p, err := game.NewPosition(8)
	if err != nil {
		panic(err) // 8 is a valid size
	}
	return p
}

// AppliesTo says whether theory speaks of games from start: 8x8 games
// from the usual starting position.
func AppliesTo(start game.Position) bool { return start.Equal(standardStart) }

var standardStart = start()

// Book recognises a set of openings.
type Book struct {
	all []Opening
	// named maps a position (in its canonical orientation) to the opening
	// that ends there; theory holds every position on every named line.
	named  map[key]int
	theory map[key]bool
	// longest is the most moves of any line: no game is looked at further.
	longest int
}

// key is a position up to symmetry, with the side to move.
type key struct {
	black, white uint64
	turn         game.Color
}

// NewBook indexes openings. Two lines ending on one position keep the
// first (the file has none).
func NewBook(openings []Opening) *Book {
	b := &Book{all: openings, named: map[key]int{}, theory: map[key]bool{}}
	for i, o := range openings {
		p := start()
		b.theory[canonical(p)] = true
		for _, m := range o.Moves {
			p, _ = p.Play(m) // Parse checked every line
			b.theory[canonical(p)] = true
		}
		if _, dup := b.named[canonical(p)]; !dup {
			b.named[canonical(p)] = i
		}
		b.longest = max(b.longest, len(o.Moves))
	}
	return b
}

var standard = NewBook(mustParse(data))

// Standard is the book of openings.txt.
func Standard() *Book { return standard }

func mustParse(text string) []Opening {
	o, err := Parse(text)
	if err != nil {
		panic(fmt.Errorf("opening: openings.txt: %w", err))
	}
	return o
}

// All returns the book's openings, in its order.
func (b *Book) All() []Opening { return append([]Opening(nil), b.all...) }

// ByKey finds an opening by its key.
func (b *Book) ByKey(k string) (Opening, bool) {
	for _, o := range b.all {
		if o.Key == k {
			return o, true
		}
	}
	return Opening{}, false
}

// Match is what the book knows of a game's start.
type Match struct {
	// Opening is the deepest named position the game reached, at move
	// Ply (1-based); Named is false when it reached none.
	Opening Opening
	Ply     int
	Named   bool
	// LeftTheory is the first move (1-based) whose position is on no
	// named line; 0 when the game has not left theory (yet).
	LeftTheory int
}

// Recognise reads a game of the standard 8x8 start, moves as played
// (passes may be given or left out). Boards of other sizes or starts are
// not Othello theory: the caller asks only for those.
func (b *Book) Recognise(moves []game.Square) Match {
	var m Match
	p := start()
	played := 0
	for _, sq := range moves {
		if played >= b.longest && m.LeftTheory != 0 {
			break
		}
		if sq.IsPass() {
			p = p.Pass()
			continue
		}
		if p.MustPass() {
			p = p.Pass()
		}
		next, err := p.Play(sq)
		if err != nil {
			break
		}
		p = next
		played++
		k := canonical(p)
		if i, ok := b.named[k]; ok {
			m.Opening, m.Ply, m.Named = b.all[i], played, true
		}
		if m.LeftTheory == 0 && !b.theory[k] {
			m.LeftTheory = played
		}
	}
	return m
}

// Name is Recognise's opening when there is one.
func (b *Book) Name(moves []game.Square) (Opening, bool) {
	m := b.Recognise(moves)
	return m.Opening, m.Named
}

// canonical turns a position to the least of its eight images, so that
// every orientation of one position has one key.
func canonical(p game.Position) key {
	black, white, _ := p.Bitboards()
	best := key{black, white, p.ToMove()}
	for s := 1; s < 8; s++ {
		k := key{transform(black, s), transform(white, s), p.ToMove()}
		if k.black < best.black || (k.black == best.black && k.white < best.white) {
			best = k
		}
	}
	return best
}

// transform applies symmetry s (0..7) to a bitboard.
func transform(b uint64, s int) uint64 { return bitboard.Transform(b, s) }

// squareImage applies symmetry s to one square, as transform does to a
// bitboard.
func squareImage(sq game.Square, s int) game.Square {
	x := bitboard.TransformSquare(sq.Row*8+sq.Col, s)
	return game.Square{Col: x % 8, Row: x / 8}
}

// FromF5 writes a game's moves as theory writes them: turned, by the one
// symmetry of the starting position that does it, so that the first move
// is f5. Moves of a game that does not begin with one of the four first
// moves come back as they are.
func FromF5(moves []game.Square) []game.Square {
	out := append([]game.Square(nil), moves...)
	if len(moves) == 0 {
		return out
	}
	for _, s := range startSymmetries {
		if squareImage(moves[0], s) == f5 {
			for i, m := range moves {
				if !m.IsPass() {
					out[i] = squareImage(m, s)
				}
			}
			return out
		}
	}
	return out
}

// startSymmetries are the four symmetries that leave the starting position
// as it is: none, the half turn, and the two diagonal reflections.
var startSymmetries = []int{0, 3, 4, 7}

// At names the opening that ends on a position, in any orientation.
func (b *Book) At(p game.Position) (Opening, bool) {
	if p.Size() != 8 {
		return Opening{}, false
	}
	i, ok := b.named[canonical(p)]
	if !ok {
		return Opening{}, false
	}
	return b.all[i], true
}

// Beyond is every named line that goes on from moves (played from the
// standard start, passes left out), turned to the orientation moves are
// in, shortest first: what theory names after a line, whether or not
// anyone has played it. A line reaching the same position by another move
// order is not followed.
func (b *Book) Beyond(moves []game.Square) []Opening {
	var out []Opening
	for _, o := range b.all {
		if len(o.Moves) <= len(moves) {
			continue
		}
		for _, s := range startSymmetries {
			same := true
			for i, m := range moves {
				if squareImage(o.Moves[i], s) != m {
					same = false
					break
				}
			}
			if same {
				turned := o
				turned.Moves = make([]game.Square, len(o.Moves))
				for i, m := range o.Moves {
					turned.Moves[i] = squareImage(m, s)
				}
				out = append(out, turned)
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Opening) int { return len(a.Moves) - len(b.Moves) })
	return out
}
