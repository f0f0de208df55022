package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"

	"othello-bot/game"
	"othello-bot/record"
)

func challengeColor(c game.Color) string {
	switch c {
	case game.Black:
		return "X"
	case game.White:
		return "O"
	}
	return "random"
}

// CreateChallenge stores a pending challenge and sets its ID.
func (s *Store) CreateChallenge(ctx context.Context, c *record.Challenge) error {
	c.Status = record.ChallengePending
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, p := range []record.Player{c.Challenger, c.Opponent} {
			if err := upsertPlayer(ctx, tx, p, c.CreatedAt); err != nil {
				return err
			}
		}
		var opp sql.NullString
		if c.Opponent.ID != "" {
			opp = sql.NullString{String: c.Opponent.ID, Valid: true}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color, size,
			rated, status, created_at, expires_at, message_id, style) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.GuildID, c.ChannelID, c.Challenger.ID, opp, challengeColor(c.Color), c.Size, c.Rated, string(c.Status),
			millis(c.CreatedAt), millis(c.ExpiresAt), c.MessageID, string(styleOr(c.Style)))
		if err != nil {
			var se sqlite3.Error
			if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
				return record.ErrChallengePending
			}
			return fmt.Errorf("creating challenge: %w", err)
		}
		c.ID, err = res.LastInsertId()
		return err
	})
}

const challengeSelect = `SELECT c.id, c.guild_id, c.channel_id, c.challenger_id, pc.name, c.opponent_id, coalesce(po.name, ''),
	c.color, c.size, c.rated, c.status, c.created_at, c.expires_at, c.message_id, coalesce(c.game_id, 0), c.style
	FROM challenges c JOIN players pc ON pc.id = c.challenger_id LEFT JOIN players po ON po.id = c.opponent_id`

func scanChallenge(row scanner) (*record.Challenge, error) {
	var (
		c                record.Challenge
		opp              sql.NullString
		color, status    string
		created, expires int64
	)
	err := row.Scan(&c.ID, &c.GuildID, &c.ChannelID, &c.Challenger.ID, &c.Challenger.Name, &opp, &c.Opponent.Name,
		&color, &c.Size, &c.Rated, &status, &created, &expires, &c.MessageID, &c.GameID, &c.Style)
	if err != nil {
		return nil, err
	}
	c.Opponent.ID = opp.String
	c.Color = colorOf(color)
	c.Status = record.ChallengeStatus(status)
	c.CreatedAt, c.ExpiresAt = fromMillis(created), fromMillis(expires)
	return &c, nil
}

// Challenge loads a challenge by id.
func (s *Store) Challenge(ctx context.Context, id int64) (*record.Challenge, error) {
	c, err := scanChallenge(s.db.QueryRowContext(ctx, challengeSelect+` WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading challenge %d: %w", id, err)
	}
	return c, nil
}

// PendingChallenges returns the pending challenges, soonest to expire first.
func (s *Store) PendingChallenges(ctx context.Context) ([]*record.Challenge, error) {
	return s.challenges(ctx, "loading pending challenges", ` WHERE c.status = 'pending' ORDER BY c.expires_at`)
}

// challenges runs a challenge query (the WHERE and ORDER after the
// select).
func (s *Store) challenges(ctx context.Context, what, where string, args ...any) ([]*record.Challenge, error) {
	rows, err := s.db.QueryContext(ctx, challengeSelect+where, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []*record.Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// CloseChallenge moves a pending challenge to a final status; it reports
// false if the challenge was no longer pending (someone else closed it).
func (s *Store) CloseChallenge(ctx context.Context, id int64, status record.ChallengeStatus) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE challenges SET status = ? WHERE id = ? AND status = 'pending'`, string(status), id)
	if err != nil {
		return false, fmt.Errorf("closing challenge %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// BoardStyle returns the board style a player last chose (StyleAuto if
// none or unknown player).
func (s *Store) BoardStyle(ctx context.Context, playerID string) (record.Style, error) {
	var style string
	err := s.db.QueryRowContext(ctx, `SELECT board_style FROM players WHERE id = ?`, playerID).Scan(&style)
	if errors.Is(err, sql.ErrNoRows) {
		return record.StyleAuto, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading board style: %w", err)
	}
	return record.Style(style), nil
}

// SetBoardStyle remembers a player's board style.
func (s *Store) SetBoardStyle(ctx context.Context, p record.Player, style record.Style, now time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := upsertPlayer(ctx, tx, p, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE players SET board_style = ? WHERE id = ?`, string(styleOr(style)), p.ID)
		return err
	})
}

// SetChallengeMessage records the message showing a challenge.
func (s *Store) SetChallengeMessage(ctx context.Context, id int64, messageID string) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE challenges SET message_id = ? WHERE id = ?`, messageID, id)
	return err
}

// SaveRating writes a player's rating in a scope.
func (s *Store) SaveRating(ctx context.Context, r record.Rating) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := upsertPlayer(ctx, tx, r.Player, r.UpdatedAt); err != nil {
			return err
		}
		return saveRating(ctx, tx, r)
	})
}

func saveRating(ctx context.Context, tx *sql.Tx, r record.Rating) error {
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

// History returns a player's most recent finished games, newest first.
func (s *Store) History(ctx context.Context, playerID string, limit int) ([]record.HistoryEntry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM (
		SELECT r.game_id, r.finished_at, 'X', r.white_id, coalesce(pw.name, ''), r.white_level, r.black_discs, r.white_discs,
			r.winner, r.reason, r.size, r.transcript
		FROM results r LEFT JOIN players pw ON pw.id = r.white_id WHERE r.black_id = ?
		UNION ALL
		SELECT r.game_id, r.finished_at, 'O', r.black_id, coalesce(pb.name, ''), r.black_level, r.white_discs, r.black_discs,
			r.winner, r.reason, r.size, r.transcript
		FROM results r LEFT JOIN players pb ON pb.id = r.black_id WHERE r.white_id = ?
	) ORDER BY 2 DESC, 1 DESC LIMIT ?`, playerID, playerID, limit)
	if err != nil {
		return nil, fmt.Errorf("loading history: %w", err)
	}
	defer rows.Close()
	var out []record.HistoryEntry
	for rows.Next() {
		var (
			h                     record.HistoryEntry
			finished              int64
			color, winner, reason string
			oppID                 sql.NullString
			oppName               string
			oppLevel              sql.NullInt64
		)
		if err := rows.Scan(&h.GameID, &finished, &color, &oppID, &oppName, &oppLevel, &h.Mine, &h.Theirs, &winner, &reason,
			&h.Size, &h.Transcript); err != nil {
			return nil, err
		}
		h.FinishedAt, h.Color, h.Reason = fromMillis(finished), colorOf(color), record.EndReason(reason)
		h.Opponent = sideOf(oppID, oppName, oppLevel)
		switch {
		case reason == string(record.EndAbort):
			h.Result = record.AbortedGame
		case winner == "draw":
			h.Result = record.Drew
		case winner == color:
			h.Result = record.Won
		default:
			h.Result = record.Lost
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// RecordAgainstBot returns a player's wins, losses and draws against each
// bot level they have finished a game with (aborted games left out).
func (s *Store) RecordAgainstBot(ctx context.Context, playerID string) ([]record.LevelRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT level, sum(outcome = 1), sum(outcome = -1), sum(outcome = 0) FROM (
		SELECT r.white_level AS level, CASE r.winner WHEN 'X' THEN 1 WHEN 'O' THEN -1 ELSE 0 END AS outcome
		FROM results r WHERE r.black_id = ? AND r.white_level IS NOT NULL AND r.reason <> 'abort'
		UNION ALL
		SELECT r.black_level, CASE r.winner WHEN 'O' THEN 1 WHEN 'X' THEN -1 ELSE 0 END
		FROM results r WHERE r.white_id = ? AND r.black_level IS NOT NULL AND r.reason <> 'abort'
	) GROUP BY level ORDER BY level`, playerID, playerID)
	if err != nil {
		return nil, fmt.Errorf("loading record against the bot: %w", err)
	}
	defer rows.Close()
	var out []record.LevelRecord
	for rows.Next() {
		var r record.LevelRecord
		if err := rows.Scan(&r.Level, &r.Wins, &r.Losses, &r.Draws); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AcceptChallenge closes a pending challenge as accepted and creates its
// game, in one transaction: of two people accepting an open challenge at
// once, exactly one gets the game. It fails with record.ErrNotPending or
// record.ErrChannelBusy.
func (s *Store) AcceptChallenge(ctx context.Context, challengeID int64, g *record.Game) error {
	g.Status, g.Version = record.Active, 1
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE challenges SET status = 'accepted' WHERE id = ? AND status = 'pending'`, challengeID)
		if err != nil {
			return fmt.Errorf("accepting challenge %d: %w", challengeID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("accepting challenge %d: %w", challengeID, err)
		} else if n != 1 {
			return record.ErrNotPending
		}
		if err := s.insertGame(ctx, tx, g); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE challenges SET game_id = ? WHERE id = ?`, g.ID, challengeID)
		return err
	})
}

// RecentChallenges returns a player's last n challenges, newest first,
// for the cooldown.
func (s *Store) RecentChallenges(ctx context.Context, playerID string, n int) ([]*record.Challenge, error) {
	return s.challenges(ctx, "reading recent challenges", ` WHERE c.challenger_id = ? ORDER BY c.created_at DESC, c.id DESC LIMIT ?`, playerID, n)
}
