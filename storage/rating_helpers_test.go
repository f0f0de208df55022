package storage

import (
	"time"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

// growthAt ranks ratings as the bot does (its rules live in bot; these
// tests only need the same numbers).
func growthAt(now time.Time) record.DeviationGrowth {
	return record.DeviationGrowth{Now: now, Period: rating.Period * time.Second, Scale: rating.Scale,
		Max: rating.InitialDeviation, Threshold: rating.ProvisionalDeviation}
}

// glickoUpdate rates a game between two players new to the scopes with
// Glicko-2, in the server and globally.
func glickoUpdate(g *record.Game, r record.Result) *record.RatingUpdate {
	score := 0.5
	switch r.Winner {
	case game.Black:
		score = 1
	case game.White:
		score = 0
	}
	start := func(x record.Rating) rating.Player {
		if x.Games == 0 {
			return rating.New()
		}
		return rating.Player{Rating: x.Rating, Deviation: x.Deviation, Volatility: x.Volatility}
	}
	apply := func(rec record.Rating, me, other rating.Player, s float64) record.Rating {
		n := me.Update([]rating.Result{{Opponent: other, Score: s}})
		rec.Rating, rec.Deviation, rec.Volatility, rec.UpdatedAt = n.Rating, n.Deviation, n.Volatility, r.FinishedAt
		rec.Games++
		switch s {
		case 1:
			rec.Wins++
		case 0:
			rec.Losses++
		default:
			rec.Draws++
		}
		return rec
	}
	return &record.RatingUpdate{Scopes: []string{record.GlobalScope, g.GuildID}, Apply: func(b, w record.Rating) (record.Rating, record.Rating) {
		bp, wp := start(b), start(w)
		return apply(b, bp, wp, score), apply(w, wp, bp, 1-score)
	}}
}
