package opening

import (
	"errors"
	"fmt"
	"sort"

	"othello-bot/game"
)

// Played is a finished 8x8 game from the usual start as the statistics
// read it: its moves and who won (game.Empty for a draw).
type Played struct {
	Moves  []game.Square
	Winner game.Color
}

// Score counts games and how they ended.
type Score struct {
	Games, BlackWins, Draws, WhiteWins int
}

func (s *Score) add(winner game.Color) {
	s.Games++
	switch winner {
	case game.Black:
		s.BlackWins++
	case game.White:
		s.WhiteWins++
	default:
		s.Draws++
	}
}

// BlackPercent is Black's score in percent (a draw is half a point),
// rounded; White's is 100 minus it.
func (s Score) BlackPercent() int {
	if s.Games == 0 {
		return 0
	}
	return (200*s.BlackWins + 100*s.Draws + s.Games) / (2 * s.Games)
}

// Tally is how often one opening was played and how it scored.
type Tally struct {
	Opening Opening
	Score
}

// Tally counts games by the deepest named opening each reached, most
// played first (ties by the book's order). Games that reached no named
// opening are not counted.
func (b *Book) Tally(games []Played) []Tally {
	index := map[string]int{}
	for i, o := range b.all {
		index[o.Key] = i
	}
	by := map[string]*Tally{}
	for _, g := range games {
		o, ok := b.Name(g.Moves)
		if !ok {
			continue
		}
		t := by[o.Key]
		if t == nil {
			t = &Tally{Opening: o}
			by[o.Key] = t
		}
		t.add(g.Winner)
	}
	out := make([]Tally, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Games != out[j].Games {
			return out[i].Games > out[j].Games
		}
		return index[out[i].Opening.Key] < index[out[j].Opening.Key]
	})
	return out
}

// Continuation is a move played after a line, and how those games went.
type Continuation struct {
	Move game.Square
	Score
}

// Continuations finds the games that began with line (both written from
// f5, as FromF5 turns them) and counts the moves played next, most played
// first; through counts every game that followed the line, including
// those that ended there.
func Continuations(games []Played, line []game.Square) (next []Continuation, through Score) {
	by := map[game.Square]*Continuation{}
	for _, g := range games {
		moves := withoutPasses(FromF5(g.Moves))
		if len(moves) < len(line) || !samePrefix(moves, line) {
			continue
		}
		through.add(g.Winner)
		if len(moves) == len(line) {
			continue
		}
		c := by[moves[len(line)]]
		if c == nil {
			c = &Continuation{Move: moves[len(line)]}
			by[c.Move] = c
		}
		c.add(g.Winner)
	}
	for _, c := range by {
		next = append(next, *c)
	}
	sort.Slice(next, func(i, j int) bool {
		if next[i].Games != next[j].Games {
			return next[i].Games > next[j].Games
		}
		return next[i].Move.String() < next[j].Move.String()
	})
	return next, through
}

func withoutPasses(moves []game.Square) []game.Square {
	out := moves[:0:0]
	for _, m := range moves {
		if !m.IsPass() {
			out = append(out, m)
		}
	}
	return out
}

func samePrefix(moves, line []game.Square) bool {
	for i := range line {
		if moves[i] != line[i] {
			return false
		}
	}
	return true
}

// MaxLine is the longest line /openings takes: theory ends long before.
const MaxLine = 30

// Errors of ParseLine, for the caller's words.
var (
	ErrLineUnreadable = errors.New("not a sequence of moves")
	ErrLineTooLong    = errors.New("too many moves")
	ErrLineEmpty      = errors.New("no moves")
)

// IllegalMoveError says which move of a line cannot be played.
type IllegalMoveError struct {
	N    int // 1-based
	Move game.Square
}

func (e *IllegalMoveError) Error() string {
	return fmt.Errorf("move %d, %s, is not legal there", e.N, e.Move).Error()
}

// ParseLine reads a line of moves from the start, like "f5d6c3" or
// "d3 c5 f6", checks every move is legal, and writes it from f5.
func ParseLine(s string) ([]game.Square, error) {
	if len(s) > 4*MaxLine {
		return nil, ErrLineTooLong
	}
	moves, err := game.ParseTranscript(s, 8)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLineUnreadable, err)
	}
	moves = withoutPasses(moves)
	switch {
	case len(moves) == 0:
		return nil, ErrLineEmpty
	case len(moves) > MaxLine:
		return nil, ErrLineTooLong
	}
	p := start()
	for i, m := range moves {
		if p.MustPass() {
			p = p.Pass()
		}
		next, err := p.Play(m)
		if err != nil {
			return nil, &IllegalMoveError{N: i + 1, Move: m}
		}
		p = next
	}
	return FromF5(moves), nil
}
