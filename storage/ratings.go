package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

// idlePeriods is the number of rating periods between two times.
func idlePeriods(from, to time.Time) float64 {
	if from.IsZero() || !to.After(from) {
		return 0
	}
	return to.Sub(from).Seconds() / rating.Period
}

func loadRating(ctx context.Context, tx *sql.Tx, p record.Player, scope string) (record.Rating, error) {
	r, err := scanRating(tx.QueryRowContext(ctx, ratingSelect+` WHERE r.player_id = ? AND r.scope = ?`, p.ID, scope))
	if errors.Is(err, sql.ErrNoRows) {
		n := rating.New()
		return record.Rating{Player: p, Scope: scope, Rating: n.Rating, Deviation: n.Deviation, Volatility: n.Volatility}, nil
	}
	r.Player = p
	return r, err
}

// updateRatings applies a rated game between two players to their ratings
// in the game's server and globally, inside the transaction that finishes
// the game. Each side is rated against the other's rating before the game,
// after both have grown their deviation for the periods they sat idle.
func updateRatings(ctx context.Context, tx *sql.Tx, g *record.Game, r record.Result) error {
	scopes := []string{record.GlobalScope}
	if g.GuildID != "" {
		scopes = append(scopes, g.GuildID)
	}
	blackScore := 0.5
	switch r.Winner {
	case game.Black:
		blackScore = 1
	case game.White:
		blackScore = 0
	}
	for _, scope := range scopes {
		b, err := loadRating(ctx, tx, g.Black.Player, scope)
		if err != nil {
			return err
		}
		w, err := loadRating(ctx, tx, g.White.Player, scope)
		if err != nil {
			return err
		}
		bNow := rating.Player{Rating: b.Rating, Deviation: b.Deviation, Volatility: b.Volatility}.Idle(idlePeriods(b.UpdatedAt, r.FinishedAt))
		wNow := rating.Player{Rating: w.Rating, Deviation: w.Deviation, Volatility: w.Volatility}.Idle(idlePeriods(w.UpdatedAt, r.FinishedAt))
		for _, side := range []struct {
			rec       *record.Rating
			me, other rating.Player
			score     float64
		}{{&b, bNow, wNow, blackScore}, {&w, wNow, bNow, 1 - blackScore}} {
			n := side.me.Update([]rating.Result{{Opponent: side.other, Score: side.score}})
			rec := side.rec
			rec.Rating, rec.Deviation, rec.Volatility = n.Rating, n.Deviation, n.Volatility
			rec.Games++
			switch side.score {
			case 1:
				rec.Wins++
			case 0:
				rec.Losses++
			default:
				rec.Draws++
			}
			rec.UpdatedAt = r.FinishedAt
			if err := saveRating(ctx, tx, *rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// Standing is a player's place on a leaderboard.
type Standing struct {
	record.Rating
	Rank        int
	Provisional bool
}

// currentDeviationSQL is the deviation grown for the idle periods up to
// :now (milliseconds), squared: Glicko-2's step 6 per idle period, capped.
const currentDeviation2SQL = `min(r.deviation * r.deviation + ((:now - r.updated_at) / 1000.0 / :period) *
	(r.volatility * :scale) * (r.volatility * :scale), :maxdev * :maxdev)`

// Leaderboard returns the top of a scope at a time: established players by
// rating, then provisional ones (deviation above
// rating.ProvisionalDeviation once grown for idle time) by rating.
func (s *Store) Leaderboard(ctx context.Context, scope string, now time.Time, limit int) ([]Standing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.player_id, p.name, r.scope, r.rating, r.deviation, r.volatility, r.games,
		r.wins, r.losses, r.draws, r.updated_at, `+currentDeviation2SQL+` AS dev2
		FROM ratings r JOIN players p ON p.id = r.player_id
		WHERE r.scope = :scope
		ORDER BY dev2 > :prov * :prov, r.rating DESC, r.player_id LIMIT :limit`, leaderboardArgs(scope, now, limit)...)
	if err != nil {
		return nil, fmt.Errorf("loading leaderboard: %w", err)
	}
	defer rows.Close()
	var out []Standing
	for rows.Next() {
		var st Standing
		var updated int64
		var dev2 float64
		if err := rows.Scan(&st.Player.ID, &st.Player.Name, &st.Scope, &st.Rating.Rating, &st.Deviation, &st.Volatility,
			&st.Games, &st.Wins, &st.Losses, &st.Draws, &updated, &dev2); err != nil {
			return nil, err
		}
		st.UpdatedAt = fromMillis(updated)
		st.Deviation = sqrt(dev2)
		st.Provisional = st.Deviation > rating.ProvisionalDeviation
		st.Rank = len(out) + 1
		out = append(out, st)
	}
	return out, rows.Err()
}

func leaderboardArgs(scope string, now time.Time, limit int) []any {
	return []any{sql.Named("now", millis(now)), sql.Named("period", float64(rating.Period)), sql.Named("scale", rating.Scale),
		sql.Named("maxdev", rating.InitialDeviation), sql.Named("prov", rating.ProvisionalDeviation),
		sql.Named("scope", scope), sql.Named("limit", limit)}
}

// Standing returns one player's place in a scope's leaderboard ordering, or
// record.ErrNotFound if they have no rating there.
func (s *Store) Standing(ctx context.Context, playerID, scope string, now time.Time) (Standing, error) {
	var st Standing
	var updated int64
	var dev2 float64
	args := append(leaderboardArgs(scope, now, 0), sql.Named("player", playerID))
	err := s.db.QueryRowContext(ctx, `WITH b AS (
			SELECT r.player_id, r.rating, `+currentDeviation2SQL+` > :prov * :prov AS prov FROM ratings r WHERE r.scope = :scope)
		SELECT r.player_id, p.name, r.scope, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws,
			r.updated_at, `+currentDeviation2SQL+`,
			1 + (SELECT count(*) FROM b, b me WHERE me.player_id = :player AND
				(b.prov < me.prov OR b.prov = me.prov AND (b.rating > me.rating OR b.rating = me.rating AND b.player_id < me.player_id)))
		FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = :scope AND r.player_id = :player`, args...).Scan(
		&st.Player.ID, &st.Player.Name, &st.Scope, &st.Rating.Rating, &st.Deviation, &st.Volatility, &st.Games, &st.Wins,
		&st.Losses, &st.Draws, &updated, &dev2, &st.Rank)
	if errors.Is(err, sql.ErrNoRows) {
		return st, record.ErrNotFound
	}
	if err != nil {
		return st, fmt.Errorf("loading standing: %w", err)
	}
	st.UpdatedAt = fromMillis(updated)
	st.Deviation = sqrt(dev2)
	st.Provisional = st.Deviation > rating.ProvisionalDeviation
	return st, nil
}

func sqrt(x float64) float64 { return math.Sqrt(x) }
