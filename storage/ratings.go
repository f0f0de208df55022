package storage

// This file is ratings: kept per scope, applied as the bot says, ranked
// for leaderboards.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"othello-bot/record"
)

func loadRating(ctx context.Context, tx *dbTx, p record.Player, scope string) (record.Rating, error) {
	r, err := scanRating(tx.QueryRowContext(ctx, ratingSelect+` WHERE r.player_id = ? AND r.scope = ?`, p.ID, scope))
	if errors.Is(err, sql.ErrNoRows) {
		return record.Rating{Player: p, Scope: scope}, nil // new in this scope
	}
	r.Player = p
	return r, err
}

// applyRatings saves what a rated game did to both players' ratings in
// each scope, inside the transaction that finishes the game; rate says
// how.
func applyRatings(ctx context.Context, tx *dbTx, g *record.Game, rate *record.RatingUpdate) error {
	for _, scope := range rate.Scopes {
		b, err := loadRating(ctx, tx, g.Black.Player, scope)
		if err != nil {
			return err
		}
		w, err := loadRating(ctx, tx, g.White.Player, scope)
		if err != nil {
			return err
		}
		nb, nw := rate.Apply(b, w)
		for _, r := range []record.Rating{nb, nw} {
			r.Scope = scope
			if err := saveRating(ctx, tx, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// currentDeviation2SQL is the deviation grown for the idle periods up to
// :now (milliseconds), squared: Glicko-2's step 6 per idle period, capped
// (record.DeviationGrowth). A test proves it agrees with rating.Player.Idle.
const currentDeviation2SQL = `LEAST(r.deviation * r.deviation + ((CAST(:now AS BIGINT) - r.updated_at) / 1000.0 /
	CAST(:period AS DOUBLE PRECISION)) * (r.volatility * CAST(:scale AS DOUBLE PRECISION)) *
	(r.volatility * CAST(:scale AS DOUBLE PRECISION)), CAST(:maxdev AS DOUBLE PRECISION) * CAST(:maxdev AS DOUBLE PRECISION))`

// provisionalSQL is the squared deviation above which a player is
// provisional. (The casts tell PostgreSQL the parameters' types.)
const provisionalSQL = `CAST(:prov AS DOUBLE PRECISION) * CAST(:prov AS DOUBLE PRECISION)`

// Leaderboard returns the top of a scope at a time: established players by
// rating, then provisional ones (deviation above growth.Threshold once
// grown for idle time) by rating.
func (s *Store) Leaderboard(ctx context.Context, scope string, growth record.DeviationGrowth, limit int) ([]record.Standing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM (SELECT r.player_id, p.name, r.scope, r.rating, r.deviation,
		r.volatility, r.games, r.wins, r.losses, r.draws, r.updated_at, `+currentDeviation2SQL+` AS dev2
		FROM ratings r JOIN players p ON p.id = r.player_id
		WHERE r.scope = :scope) AS b
		ORDER BY dev2 > `+provisionalSQL+`, rating DESC, player_id LIMIT :limit`, leaderboardArgs(scope, growth, limit)...)
	if err != nil {
		return nil, fmt.Errorf("loading leaderboard: %w", err)
	}
	defer rows.Close()
	var out []record.Standing
	for rows.Next() {
		var st record.Standing
		var updated int64
		var dev2 float64
		if err := rows.Scan(&st.Player.ID, &st.Player.Name, &st.Scope, &st.Rating.Rating, &st.Deviation, &st.Volatility,
			&st.Games, &st.Wins, &st.Losses, &st.Draws, &updated, &dev2); err != nil {
			return nil, err
		}
		st.UpdatedAt = fromMillis(updated)
		st.Deviation = math.Sqrt(dev2)
		st.Provisional = st.Deviation > growth.Threshold
		st.Rank = len(out) + 1
		out = append(out, st)
	}
	return out, rows.Err()
}

func leaderboardArgs(scope string, g record.DeviationGrowth, limit int) []any {
	return []any{sql.Named("now", millis(g.Now)), sql.Named("period", g.Period.Seconds()), sql.Named("scale", g.Scale),
		sql.Named("maxdev", g.Max), sql.Named("prov", g.Threshold), sql.Named("scope", scope), sql.Named("limit", limit)}
}

// record.Standing returns one player's place in a scope's leaderboard ordering, or
// record.ErrNotFound if they have no rating there.
func (s *Store) Standing(ctx context.Context, playerID, scope string, growth record.DeviationGrowth) (record.Standing, error) {
	var st record.Standing
	var updated int64
	var dev2 float64
	args := append(leaderboardArgs(scope, growth, 0), sql.Named("player", playerID))
	err := s.db.QueryRowContext(ctx, `WITH b AS (
			SELECT r.player_id, r.rating, `+currentDeviation2SQL+` > `+provisionalSQL+` AS prov FROM ratings r WHERE r.scope = :scope)
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
	st.Deviation = math.Sqrt(dev2)
	st.Provisional = st.Deviation > growth.Threshold
	return st, nil
}

func saveRating(ctx context.Context, tx *dbTx, r record.Rating) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO ratings (player_id, scope, rating, deviation, volatility, games, wins, losses,
		draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (player_id, scope) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
		volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, losses = excluded.losses,
		draws = excluded.draws, updated_at = excluded.updated_at`,
		r.Player.ID, r.Scope, r.Rating, r.Deviation, r.Volatility, r.Games, r.Wins, r.Losses, r.Draws, millis(r.UpdatedAt))
	if err != nil {
		return fmt.Errorf("saving rating of %s: %w", r.Player.ID, err)
	}
	return nil
}

const ratingSelect = `SELECT r.player_id, p.name, r.scope, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses,
	r.draws, r.updated_at FROM ratings r JOIN players p ON p.id = r.player_id`

func scanRating(row scanner) (record.Rating, error) {
	var r record.Rating
	var updated int64
	err := row.Scan(&r.Player.ID, &r.Player.Name, &r.Scope, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &r.Wins,
		&r.Losses, &r.Draws, &updated)
	r.UpdatedAt = fromMillis(updated)
	return r, err
}

// Rating loads a player's rating in a scope, or record.ErrNotFound.
func (s *Store) Rating(ctx context.Context, playerID, scope string) (record.Rating, error) {
	r, err := scanRating(s.db.QueryRowContext(ctx, ratingSelect+` WHERE r.player_id = ? AND r.scope = ?`, playerID, scope))
	if errors.Is(err, sql.ErrNoRows) {
		return r, record.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("loading rating: %w", err)
	}
	return r, nil
}
