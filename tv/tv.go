// Package tv holds the rules of Othello TV, a channel where a server's
// best live game is followed move by move: which game is the best to
// show, and the evaluation bar drawn under its board. It knows nothing of
// Discord or databases.
package tv

import (
	"math"
	"slices"
	"strings"
)

// Candidate is a live game that could be shown.
type Candidate struct {
	GameID int64
	// Ratings are the two sides' ratings in the game's speed (a side
	// without one counts as DefaultRating; the bot as its level's).
	Ratings [2]float64
	// Tournament says the game is paired in a tournament: a server's
	// event comes before its casual games.
	Tournament bool
	// Moves is how many moves it has had: a game under way beats one
	// that has not begun, when all else is equal.
	Moves int
}

// DefaultRating is the rating of a side that has none yet.
const DefaultRating = 1500

// Strength is what ranks games: the weaker side's rating first (a game
// is as good as its weaker player), then the stronger's.
func (c Candidate) strength() (float64, float64) {
	lo, hi := c.Ratings[0], c.Ratings[1]
	if lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi
}

// Pick returns the best game to show, and false if there is none:
// tournament games first, then the strongest (see strength), then the
// one further along, then the oldest (lowest id), so the choice never
// flickers between equals.
func Pick(cands []Candidate) (Candidate, bool) {
	if len(cands) == 0 {
		return Candidate{}, false
	}
	return slices.MinFunc(cands, func(a, b Candidate) int {
		if a.Tournament != b.Tournament {
			if a.Tournament {
				return -1
			}
			return 1
		}
		alo, ahi := a.strength()
		blo, bhi := b.strength()
		switch {
		case alo != blo:
			return cmpDesc(alo, blo)
		case ahi != bhi:
			return cmpDesc(ahi, bhi)
		case a.Moves != b.Moves:
			return b.Moves - a.Moves
		}
		return cmpInt(a.GameID, b.GameID)
	}), true
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BarCells is how many cells the evaluation bar has.
const BarCells = 16

// Bar draws an evaluation as a bar of black and white cells: value is the
// expected final margin in discs from Black's side (positive: Black
// ahead) on a board of cells squares. An even game is half and half; a
// side winning by a quarter of the board or more fills it all but one
// cell, and a won game (exact) all of it.
func Bar(value float64, cells int, exact bool, black, white string) string {
	if cells <= 0 {
		cells = 64
	}
	span := float64(cells) / 4
	share := 0.5 + value/(2*span)
	n := int(math.Round(share * BarCells))
	lo, hi := 1, BarCells-1
	if exact {
		lo, hi = 0, BarCells
		if value == 0 {
			lo, hi = BarCells/2, BarCells/2
		}
	}
	n = min(max(n, lo), hi)
	return strings.Repeat(black, n) + strings.Repeat(white, BarCells-n)
}
