// Package analysis compares every move of a finished game with the
// engine's best: the discs each move lost, exact in the endgame, a label
// per move and a summary per player. It is transport-free: the bot shows
// its reports, the store caches them.
package analysis

import (
	"context"
	"fmt"
	"slices"

	"othello-bot/engine"
	"othello-bot/game"
)

// Label grades a move by the discs it lost against the best move.
type Label string

// The labels and their thresholds, in discs lost (final margin, the mover's
// point of view): under 1 is as good as the best, up to 4 an inaccuracy,
// up to 8 a mistake, 8 or more a blunder. Midgame values are estimates of a
// search, so "best" there means within a disc of the best found.
const (
	Best       Label = "best"
	Inaccuracy Label = "inaccuracy"
	Mistake    Label = "mistake"
	Blunder    Label = "blunder"
)

// Thresholds of the labels, in discs lost.
const (
	InaccuracyFrom = 1.0
	MistakeFrom    = 4.0
	BlunderFrom    = 8.0
)

// LabelOf grades a loss in discs.
func LabelOf(loss float64) Label {
	switch {
	case loss >= BlunderFrom:
		return Blunder
	case loss >= MistakeFrom:
		return Mistake
	case loss >= InaccuracyFrom:
		return Inaccuracy
	}
	return Best
}

// Settings say how deep the analysis looks.
type Settings struct {
	Depth     int // plies searched before the endgame
	ExactFrom int // empty squares from which values are exact
}

// Default is what the bot uses: a 60-move game takes about a minute of one
// CPU, most of it on the exact endgame.
var Default = Settings{Depth: 8, ExactFrom: 20}

// Move is one move of the game, analysed.
type Move struct {
	Ply    int        `json:"ply"` // 1-based, passes counted
	Color  game.Color `json:"color"`
	Played string     `json:"played"`
	Best   string     `json:"best"`
	// The final margin, in discs from the mover's point of view, after
	// the move played and after the best move.
	PlayedValue float64 `json:"played_value"`
	BestValue   float64 `json:"best_value"`
	Loss        float64 `json:"loss"`
	Exact       bool    `json:"exact"`
	Label       Label   `json:"label"`
}

// MoveNumber is the number players give the move at ply (1-based,
// passes counted): its place among the moves, passes not counted (a
// 60-move game's last is 60, whatever its passes). 0 for a ply the
// report has no move at.
func (r *Report) MoveNumber(ply int) int {
	for i, m := range r.Moves {
		if m.Ply == ply {
			return i + 1
		}
	}
	return 0
}

// Report is a whole game's analysis.
type Report struct {
	Settings Settings `json:"settings"`
	Moves    []Move   `json:"moves"`
	// Curve is the value of the game from Black's point of view, in discs,
	// before each move and at the end: the points of the graph.
	Curve []float64 `json:"curve"`
}

// Run analyses a game on a board of 8x8 or less. progress, if not nil,
// hears after each position how many of the moves are done.
func Run(ctx context.Context, eng *engine.Engine, start game.Position, plies []game.Ply, set Settings, progress func(done, total int)) (*Report, error) {
	if _, _, ok := start.Bitboards(); !ok {
		return nil, fmt.Errorf("analysis works on boards up to 8x8, not %dx%d", start.Size(), start.Size())
	}
	total := 0
	for _, p := range plies {
		if !p.Square.IsPass() {
			total++
		}
	}
	r := &Report{Settings: set}
	pos := start
	for i, ply := range plies {
		if ply.Square.IsPass() {
			pos = pos.Pass()
			continue
		}
		scores, err := eng.ScoreMoves(ctx, pos, set.Depth, set.ExactFrom)
		if err != nil {
			return nil, fmt.Errorf("analysing ply %d: %w", i+1, err)
		}
		m := Move{Ply: i + 1, Color: ply.Color, Played: ply.Square.String(), Best: scores[0].Move.String(),
			BestValue: bounded(scores[0].Eval.Discs(), start.Size()), Exact: scores[0].Eval.Exact}
		for _, s := range scores {
			if s.Move == ply.Square {
				m.PlayedValue = bounded(s.Eval.Discs(), start.Size())
			}
		}
		m.Loss = max(0, m.BestValue-m.PlayedValue)
		m.Label = LabelOf(m.Loss)
		r.Moves = append(r.Moves, m)
		r.Curve = append(r.Curve, blackView(m.BestValue, ply.Color))
		next, err := pos.Play(ply.Square)
		if err != nil {
			return nil, fmt.Errorf("replaying ply %d: %w", i+1, err)
		}
		pos = next
		if progress != nil {
			progress(len(r.Moves), total)
		}
	}
	b, w := pos.Count()
	r.Curve = append(r.Curve, float64(finalMargin(b, w, pos.Size())))
	return r, nil
}

// bounded is a value in discs held to what a board of that size allows: a
// final margin is never over size² either way (the midgame evaluation's
// guesses can be: a level-5 game's curve once peaked at +108 on 8x8).
func bounded(v float64, size int) float64 {
	lim := float64(size * size)
	return max(-lim, min(lim, v))
}

func blackView(v float64, mover game.Color) float64 {
	if mover == game.White {
		return -v
	}
	return v
}

// finalMargin is Black's margin with the empty squares given to the
// winner, as the engine counts.
func finalMargin(b, w, size int) int {
	d, e := b-w, size*size-b-w
	switch {
	case d > 0:
		return d + e
	case d < 0:
		return d - e
	}
	return 0
}

// Summary is one player's part of a report.
type Summary struct {
	Moves                                  int
	Best, Inaccuracies, Mistakes, Blunders int
	// AverageLoss is the mean discs lost per move; Accuracy the share of
	// moves as good as the best, in percent.
	AverageLoss, Accuracy float64
	// Worst is the move that lost most, if any lost at all.
	Worst *Move
}

// Summary sums up the moves of one colour.
func (r *Report) Summary(c game.Color) Summary {
	var s Summary
	total := 0.0
	for i := range r.Moves {
		m := &r.Moves[i]
		if m.Color != c {
			continue
		}
		s.Moves++
		total += m.Loss
		switch m.Label {
		case Best:
			s.Best++
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
		if m.Loss > 0 && (s.Worst == nil || m.Loss > s.Worst.Loss) {
			s.Worst = m
		}
	}
	if s.Moves > 0 {
		s.AverageLoss = total / float64(s.Moves)
		s.Accuracy = 100 * float64(s.Best) / float64(s.Moves)
	}
	return s
}

// LeftBook is the first move of a game that is not one the engine's
// opening book plays (counting moves, not passes), given the book's moves
// of a position; ok is false when every move was.
func LeftBook(start game.Position, moves []game.Square, bookMoves func(game.Position) []game.Square) (int, bool) {
	p, played := start, 0
	for _, sq := range moves {
		if sq.IsPass() {
			p = p.Pass()
			continue
		}
		if p.MustPass() {
			p = p.Pass()
		}
		played++
		book := bookMoves(p)
		if len(book) == 0 && played == 1 {
			return 0, false // no book to speak of (an engine without one)
		}
		if !slices.Contains(book, sq) {
			return played, true
		}
		next, err := p.Play(sq)
		if err != nil {
			return played, true
		}
		p = next
	}
	return 0, false
}
