package tournament

// This file is the decision of what a running tournament needs next, from
// its pairings as they stand: the bot's driver carries it out.

import (
	"errors"
	"time"
)

// StepKind is what a running tournament needs next.
type StepKind int

const (
	// Wait: games are under way (or an arena has nobody to pair); the
	// standings are all there is to show.
	Wait StepKind = iota
	// Pair: the pairings in Step.Pairings are the next round (or the
	// next arena games).
	Pair
	// Finish: nothing is left to play; the podium is due.
	Finish
	// FinishEarly: a Swiss has no valid pairing left (withdrawals, or more
	// rounds than those left can play); it ends after the rounds played.
	FinishEarly
)

// Step is the decision Next takes.
type Step struct {
	Kind     StepKind
	Pairings []Pairing // for Pair
	Err      error     // for FinishEarly: why no pairing was found
}

// Next decides what a running tournament needs at now, given its
// entrants and every pairing so far (with their games' results). It only
// reads: storing the pairings, once however often it is asked, is the
// store's. An error is a failure of the pairing search itself.
func Next(t *Tournament, entrants []Entrant, pairings []Pairing, now time.Time) (Step, error) {
	if t.Format == Arena {
		if !now.Before(t.EndsAt) {
			if AllDone(pairings) {
				return Step{Kind: Finish}, nil
			}
			return Step{Kind: Wait}, nil
		}
		return pairOrWait(ArenaPairings(t, entrants, pairings, now)), nil
	}
	if !AllDone(pairings) {
		return Step{Kind: Wait}, nil
	}
	if t.Round >= t.Rounds {
		return Step{Kind: Finish}, nil
	}
	round := t.Round + 1
	var games []Game
	if t.Format == Swiss {
		var err error
		games, err = PairSwiss(entrants, Games(pairings), round)
		if errors.Is(err, ErrNoPairing) || errors.Is(err, ErrTooFew) {
			return Step{Kind: FinishEarly, Err: err}, nil
		}
		if err != nil {
			return Step{}, err
		}
	} else {
		seats := make([]string, len(entrants))
		for i, e := range entrants {
			seats[i] = e.ID
		}
		games = Berger(seats, round, t.Double)
	}
	return pairOrWait(Boards(games, entrants)), nil
}

func pairOrWait(next []Pairing) Step {
	if len(next) == 0 {
		return Step{Kind: Wait}
	}
	return Step{Kind: Pair, Pairings: next}
}
