// Package tournament holds the rules of a server's Othello tournaments:
// who meets whom (Swiss, round-robin by Berger tables, lichess-style
// arena), with which colours, and the standings with the tie-breaks
// Othello tournaments use. It knows nothing of Discord, SQL or clocks: the
// bot feeds it the entrants and the finished games and acts on what it
// decides.
package tournament

import (
	"errors"
	"fmt"
)

// Format is how a tournament pairs its players.
type Format string

const (
	// Swiss pairs players on equal scores each round, never twice.
	Swiss Format = "swiss"
	// RoundRobin has everyone meet everyone once (twice, colours
	// swapped, when Double).
	RoundRobin Format = "roundrobin"
	// Arena pairs whoever is free, again and again, until time is up.
	Arena Format = "arena"
)

// Formats are the formats in the order they are offered.
var Formats = []Format{Swiss, RoundRobin, Arena}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrFormat, s)
}

var (
	// ErrFormat is a format that does not exist.
	ErrFormat = errors.New("unknown tournament format")
	// ErrTooFew is a tournament with fewer than two players.
	ErrTooFew = errors.New("a tournament needs at least two players")
	// ErrNoPairing is a round that cannot be paired without two players
	// meeting again: more rounds than the players allow.
	ErrNoPairing = errors.New("no pairing without a rematch")
	// ErrAlreadyEntered is a player joining a tournament twice.
	ErrAlreadyEntered = errors.New("already entered")
	// ErrAlreadyPaired is a round another process (or an earlier run)
	// paired first, or a pairing whose game is already open.
	ErrAlreadyPaired = errors.New("already paired")
	// ErrNotRunning is a game opened for a tournament that another
	// process paused, canceled or finished after it was paired.
	ErrNotRunning = errors.New("tournament not running")
)

// Limits of what an organiser may set.
const (
	MaxNameLength   = 50
	MaxRounds       = 15 // a Swiss's rounds
	MinArenaMinutes = 5
	MaxArenaMinutes = 240
)

// MaxEntrants is the most players a tournament takes: a round's 32
// boards and the standings' 64 rows each fit one Discord message.
const MaxEntrants = 64

// Color is the colour a player has in a game.
type Color int8

const (
	NoColor Color = iota
	Black
	White
)

// Outcome is how a game ended, from Black's side.
type Outcome int8

const (
	// Pending is a game still being played.
	Pending Outcome = iota
	BlackWins
	WhiteWins
	Draw
)

// Entrant is a player in a tournament.
type Entrant struct {
	ID     string
	Name   string
	Rating float64 // for seeding and arena performance
	// Withdrawn is set when the player left or was removed: not paired
	// again.
	Withdrawn bool
	// Team is the player's team in a team battle (their server), ""
	// outside one: teammates are never paired together.
	Team string
}

// Game is one pairing of a tournament: a game between two entrants, or a
// bye (White empty), or a forfeit (decided without play).
type Game struct {
	Round        int // 1-based; arena games number in order of pairing
	Black, White string
	Outcome      Outcome
	// Discs is each side's final disc count (Black, White), for the
	// disc-difference tie-break; zero for byes and forfeits.
	BlackDiscs, WhiteDiscs int
	// Forfeit marks a result given, not played (a withdrawal).
	Forfeit bool
}

// Bye reports whether the game is a bye: a point without an opponent.
func (g Game) Bye() bool { return g.White == "" }

// Done reports whether the game has its result.
func (g Game) Done() bool { return g.Outcome != Pending }

// Has reports whether the player plays in the game.
func (g Game) Has(id string) bool { return g.Black == id || g.White == id }

// ColorOf is the player's colour in the game (NoColor for a bye).
func (g Game) ColorOf(id string) Color {
	switch {
	case g.Bye():
		return NoColor
	case g.Black == id:
		return Black
	case g.White == id:
		return White
	}
	return NoColor
}

// Opponent is the other player of the game ("" for a bye).
func (g Game) Opponent(id string) string {
	if g.Black == id {
		return g.White
	}
	return g.Black
}

// Score is what the game gave a player in half points: 2 a win (and a
// bye or a forfeit won), 1 a draw, 0 a loss or a game still on.
func (g Game) Score(id string) int {
	if g.Bye() {
		if g.Black == id {
			return 2
		}
		return 0
	}
	switch {
	case g.Outcome == Draw:
		return 1
	case g.Outcome == BlackWins && g.Black == id, g.Outcome == WhiteWins && g.White == id:
		return 2
	}
	return 0
}

// DiscDiff is the player's disc difference in the game (their discs less
// their opponent's); nothing for byes and forfeits.
func (g Game) DiscDiff(id string) int {
	switch {
	case g.Bye() || g.Forfeit || !g.Done():
		return 0
	case g.Black == id:
		return g.BlackDiscs - g.WhiteDiscs
	case g.White == id:
		return g.WhiteDiscs - g.BlackDiscs
	}
	return 0
}

// ForfeitAgainst is the result of a game the player withdrew from: a win
// for the opponent.
func ForfeitAgainst(g Game, id string) Game {
	g.Forfeit = true
	g.BlackDiscs, g.WhiteDiscs = 0, 0
	if g.Black == id {
		g.Outcome = WhiteWins
	} else {
		g.Outcome = BlackWins
	}
	return g
}
