package coach

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"othello-bot/game"
)

// Kind is what a reason says.
type Kind string

const (
	// GivesCorner: after the move the opponent may take the corner
	// Square, which the better move did not allow.
	GivesCorner Kind = "corner"
	// XSquare: the move took Square, diagonally next to an empty corner,
	// which usually gives that corner away later.
	XSquare Kind = "x"
	// CSquare: the move took Square, on the edge next to an empty corner.
	CSquare Kind = "c"
	// Mobility: the opponent had Before moves after the better move and
	// After moves after this one.
	Mobility Kind = "mobility"
	// Wall: the move left After of the player's discs next to empty
	// squares (a wall the opponent can play against), Before after the
	// better move.
	Wall Kind = "wall"
	// Flips: the move turned After discs where the better one turned
	// Before: taking many discs early gives the opponent moves.
	Flips Kind = "flips"
	// Parity: near the end, the move was played in a region of After
	// empty squares (an even number: the opponent gets its last move)
	// where the better move took one of Before (odd).
	Parity Kind = "parity"
	// Reply: the opponent's best answer to the move played is Square
	// (what the move allowed, to look at on the board).
	Reply Kind = "reply"
	// Discs: the move played kept Before − After fewer discs at the end
	// than the better move (Before and After the two final margins, in
	// discs); always given, last.
	Discs Kind = "discs"
)

// Reason is one thing the move played did worse than the better move.
type Reason struct {
	Kind          Kind
	Square        game.Square // GivesCorner, XSquare, CSquare, Reply
	Before, After int         // Mobility, Wall, Parity, Discs
}

// parityFrom is how few empty squares a position has for parity to count.
const parityFrom = 16

// Reasons compares the move played with the better move in pos: what the
// board shows about each. loss is what the engine says it cost.
func Reasons(pos game.Position, played, better game.Square, loss float64) []Reason {
	me := pos.ToMove()
	after, err1 := pos.Play(played)
	alt, err2 := pos.Play(better)
	if err1 != nil || err2 != nil {
		return nil
	}
	var out []Reason
	for _, c := range corners(pos.Size()) {
		if canPlay(after, c) && !canPlay(alt, c) {
			out = append(out, Reason{Kind: GivesCorner, Square: c})
		}
	}
	switch kind := squareKind(pos, played); {
	case kind != "" && squareKind(pos, better) != kind:
		out = append(out, Reason{Kind: kind, Square: played})
	}
	if m1, m2 := opponentMoves(after), opponentMoves(alt); m1 >= m2 {
		out = append(out, Reason{Kind: Mobility, Before: m2, After: m1})
	}
	if w1, w2 := frontier(after, me), frontier(alt, me); w1 >= w2+2 {
		out = append(out, Reason{Kind: Wall, Before: w2, After: w1})
	}
	if f1, f2 := len(pos.Flips(played)), len(pos.Flips(better)); f1 >= f2+2 && pos.Empties() > parityFrom {
		out = append(out, Reason{Kind: Flips, Before: f2, After: f1})
	}
	if pos.Empties() <= parityFrom {
		regions := regionSizes(pos)
		if p, b := regions[played], regions[better]; p%2 == 0 && b%2 == 1 {
			out = append(out, Reason{Kind: Parity, Before: b, After: p})
		}
	}
	return append(out, Reason{Kind: Discs, Before: int(math.Round(loss)), After: 0})
}

// canPlay says the side to move in p (or, when it must pass, the other)
// may play sq.
func canPlay(p game.Position, sq game.Square) bool {
	if p.MustPass() {
		p = p.Pass()
	}
	return p.Check(sq) == nil
}

// opponentMoves is how many moves the side to move has after a move (0
// when it must pass).
func opponentMoves(p game.Position) int {
	if p.MustPass() {
		return 0
	}
	return len(p.LegalMoves())
}

func corners(size int) []game.Square {
	l := size - 1
	return []game.Square{{Col: 0, Row: 0}, {Col: l, Row: 0}, {Col: 0, Row: l}, {Col: l, Row: l}}
}

// squareKind is XSquare or CSquare for a square next to an empty corner,
// "" otherwise.
func squareKind(pos game.Position, sq game.Square) Kind {
	l := pos.Size() - 1
	near := func(v int) (int, bool) { // the corner line a square is next to
		switch v {
		case 0, 1:
			return 0, v == 1
		case l, l - 1:
			return l, v == l-1
		}
		return -1, false
	}
	cc, offC := near(sq.Col)
	cr, offR := near(sq.Row)
	if cc < 0 || cr < 0 || (!offC && !offR) || pos.At(game.Square{Col: cc, Row: cr}) != game.Empty {
		return ""
	}
	if offC && offR {
		return XSquare
	}
	return CSquare
}

// frontier is how many of c's discs touch an empty square.
func frontier(p game.Position, c game.Color) int {
	n := 0
	size := p.Size()
	for row := range size {
		for col := range size {
			if p.At(game.Square{Col: col, Row: row}) != c {
				continue
			}
		near:
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					r, cl := row+dr, col+dc
					if (dr != 0 || dc != 0) && r >= 0 && r < size && cl >= 0 && cl < size && p.At(game.Square{Col: cl, Row: r}) == game.Empty {
						n++
						break near
					}
				}
			}
		}
	}
	return n
}

// regionSizes maps each empty square to the size of its region: the empty
// squares joined to it through neighbours in any of eight directions.
func regionSizes(p game.Position) map[game.Square]int {
	size := p.Size()
	out := map[game.Square]int{}
	for row := range size {
		for col := range size {
			start := game.Square{Col: col, Row: row}
			if p.At(start) != game.Empty {
				continue
			}
			if _, done := out[start]; done {
				continue
			}
			region := []game.Square{start}
			out[start] = 0
			for i := 0; i < len(region); i++ {
				sq := region[i]
				for dr := -1; dr <= 1; dr++ {
					for dc := -1; dc <= 1; dc++ {
						n := game.Square{Col: sq.Col + dc, Row: sq.Row + dr}
						if n.Col < 0 || n.Row < 0 || n.Col >= size || n.Row >= size || p.At(n) != game.Empty {
							continue
						}
						if _, seen := out[n]; !seen {
							out[n] = 0
							region = append(region, n)
						}
					}
				}
			}
			for _, sq := range region {
				out[sq] = len(region)
			}
		}
	}
	return out
}

// Encode writes reasons for a store: "corner:a1 mobility:3:9 discs:12:0".
func Encode(rs []Reason) string {
	var parts []string
	for _, r := range rs {
		switch r.Kind {
		case GivesCorner, XSquare, CSquare, Reply:
			parts = append(parts, string(r.Kind)+":"+r.Square.String())
		default:
			parts = append(parts, fmt.Sprintf("%s:%d:%d", r.Kind, r.Before, r.After))
		}
	}
	return strings.Join(parts, " ")
}

// Decode reads what Encode wrote on a board of the given size.
func Decode(s string, size int) ([]Reason, error) {
	var out []Reason
	for _, f := range strings.Fields(s) {
		kind, rest, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("coach: reason %q has no value", f)
		}
		r := Reason{Kind: Kind(kind)}
		switch r.Kind {
		case GivesCorner, XSquare, CSquare, Reply:
			sq, err := game.ParseSquare(rest, size)
			if err != nil || sq.IsPass() {
				return nil, fmt.Errorf("coach: reason %q: not a square", f)
			}
			r.Square = sq
		case Mobility, Wall, Flips, Parity, Discs:
			a, b, ok := strings.Cut(rest, ":")
			x, err1 := strconv.Atoi(a)
			y, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 || x > 10000 || y > 10000 {
				return nil, fmt.Errorf("coach: reason %q: want two counts", f)
			}
			r.Before, r.After = x, y
		default:
			return nil, fmt.Errorf("coach: reason %q: unknown kind", f)
		}
		out = append(out, r)
	}
	return out, nil
}
