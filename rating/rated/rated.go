// Package rated holds the rating rules of stored games: which games count,
// where, and how a result moves a stored rating (Glicko-2 from package
// rating, each game its own rating period).
package rated

import (
	"time"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

// Update says how a finished game changes ratings: a rated game
// between members that was not aborted counts in its server and globally,
// among the ratings of its speed. nil for any other game.
func Update(g *record.Game, r record.Result) *record.RatingUpdate {
	if !g.Rated || r.Reason.Unfinished() || g.Black.IsBot() || g.White.IsBot() {
		return nil
	}
	speed := g.Control.Category()
	scopes := []string{record.SpeedScope(record.GlobalScope, speed)}
	if g.GuildID != "" {
		scopes = append(scopes, record.SpeedScope(g.GuildID, speed))
	}
	blackScore := 0.5
	switch r.Winner {
	case game.Black:
		blackScore = 1
	case game.White:
		blackScore = 0
	}
	return &record.RatingUpdate{Scopes: scopes, Apply: func(b, w record.Rating) (record.Rating, record.Rating) {
		// Each side is rated against the other's rating before the game,
		// both grown for the time they sat idle.
		bNow, wNow := glicko(b, r.FinishedAt), glicko(w, r.FinishedAt)
		return apply(b, bNow, wNow, blackScore, r.FinishedAt), apply(w, wNow, bNow, 1-blackScore, r.FinishedAt)
	}}
}

// glicko is a stored rating as Glicko-2 sees it at a time: a player new in
// the scope starts from the initial rating.
func glicko(r record.Rating, at time.Time) rating.Player {
	if r.Games == 0 && r.UpdatedAt.IsZero() {
		return rating.New()
	}
	return rating.Player{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}.Idle(idlePeriods(r.UpdatedAt, at))
}

// apply moves a stored rating by one game's score.
func apply(rec record.Rating, me, other rating.Player, score float64, at time.Time) record.Rating {
	n := me.Update([]rating.Result{{Opponent: other, Score: score}})
	rec.Rating, rec.Deviation, rec.Volatility = n.Rating, n.Deviation, n.Volatility
	rec.Games++
	switch score {
	case 1:
		rec.Wins++
	case 0:
		rec.Losses++
	default:
		rec.Draws++
	}
	rec.UpdatedAt = at
	return rec
}

// idlePeriods is the number of rating periods between two times.
func idlePeriods(from, to time.Time) float64 {
	if from.IsZero() || !to.After(from) {
		return 0
	}
	return to.Sub(from).Seconds() / rating.Period
}

// Growth is how ratings are ranked now: deviations grown as Glicko-2 grows
// them with idle time, provisional above rating.ProvisionalDeviation.
func Growth(now time.Time) record.DeviationGrowth {
	return record.DeviationGrowth{Now: now, Period: rating.Period * time.Second, Scale: rating.Scale,
		Max: rating.InitialDeviation, Threshold: rating.ProvisionalDeviation}
}
