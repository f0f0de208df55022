package storage

// This file is challenges: created, answered, expired, accepted into a game.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"othello-bot/record"
)

// challengeColor writes a colour choice: "X", "O" or "random".
func challengeColor(c record.ColorChoice) string {
	if color, chosen := c.Color(); chosen {
		return colorCode(color)
	}
	return "random"
}

// CreateChallenge stores a pending challenge and sets its ID.
func (s *Store) CreateChallenge(ctx context.Context, c *record.Challenge) error {
	c.Status = record.ChallengePending
	return s.inTx(ctx, func(tx *dbTx) error {
		for _, p := range []record.Player{c.Challenger, c.Opponent} {
			if err := upsertPlayer(ctx, tx, p, c.CreatedAt); err != nil {
				return err
			}
		}
		var opp sql.NullString
		if c.Opponent.ID != "" {
			opp = sql.NullString{String: c.Opponent.ID, Valid: true}
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color, size,
			rated, status, created_at, expires_at, message_id, style, time_base_ms, time_increment_ms, time_per_move_ms, xot)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.GuildID, c.ChannelID, c.Challenger.ID, opp, challengeColor(c.Color), c.Size, c.Rated, string(c.Status),
			millis(c.CreatedAt), millis(c.ExpiresAt), c.MessageID, string(styleOr(c.Style)),
			c.Control.Base.Milliseconds(), c.Control.Increment.Milliseconds(), c.Control.PerMove.Milliseconds(), c.XOT).Scan(&c.ID)
		if err != nil {
			if isUnique(err) {
				return record.ErrChallengePending
			}
			return fmt.Errorf("creating challenge: %w", err)
		}
		return nil
	})
}

const challengeSelect = `SELECT c.id, c.guild_id, c.channel_id, c.challenger_id, pc.name, c.opponent_id, coalesce(po.name, ''),
	c.color, c.size, c.rated, c.status, c.created_at, c.expires_at, c.message_id, coalesce(c.game_id, 0), c.style,
	c.time_base_ms, c.time_increment_ms, c.time_per_move_ms, c.xot
	FROM challenges c JOIN players pc ON pc.id = c.challenger_id LEFT JOIN players po ON po.id = c.opponent_id`

func scanChallenge(row scanner) (*record.Challenge, error) {
	var (
		c                record.Challenge
		opp              sql.NullString
		color, status    string
		created, expires int64
		base, inc, per   int64
	)
	err := row.Scan(&c.ID, &c.GuildID, &c.ChannelID, &c.Challenger.ID, &c.Challenger.Name, &opp, &c.Opponent.Name,
		&color, &c.Size, &c.Rated, &status, &created, &expires, &c.MessageID, &c.GameID, &c.Style, &base, &inc, &per, &c.XOT)
	if err != nil {
		return nil, err
	}
	c.Opponent.ID = opp.String
	c.Color = record.Choose(colorOf(color)) // "random" reads as Empty: random
	c.Status = record.ChallengeStatus(status)
	c.CreatedAt, c.ExpiresAt = fromMillis(created), fromMillis(expires)
	c.Control = controlOf(base, inc, per)
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

// SetChallengeMessage records the message showing a challenge.
func (s *Store) SetChallengeMessage(ctx context.Context, id int64, messageID string) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE challenges SET message_id = ? WHERE id = ?`, messageID, id)
	return err
}

// AcceptChallenge closes a pending challenge as accepted and creates its
// game, in one transaction: of two people accepting an open challenge at
// once, exactly one gets the game. It fails with record.ErrNotPending or
// record.ErrChannelBusy.
func (s *Store) AcceptChallenge(ctx context.Context, challengeID int64, g *record.Game) error {
	g.Status, g.Version = record.Active, 1
	return s.inTx(ctx, func(tx *dbTx) error {
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
