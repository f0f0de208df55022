package storage

// This file is team battles' teams: the servers a tournament invited,
// each accepted once.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/tournament"
)

// InviteTeam invites a server to a team battle; false if it was invited
// (or is the host) already.
func (s *Store) InviteTeam(ctx context.Context, id int64, guildID string, at time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `INSERT INTO tournament_teams (tournament_id, guild_id, invited_at) VALUES (?, ?, ?)
		ON CONFLICT (tournament_id, guild_id) DO NOTHING`, id, guildID, millis(at))
	if err != nil {
		return false, fmt.Errorf("inviting %s to tournament %d: %w", guildID, id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// AcceptTeam accepts a server's invitation under a team name, its
// players to hear of their games in channelID; false if it was not
// invited or accepted already.
func (s *Store) AcceptTeam(ctx context.Context, id int64, guildID, channelID, name string, at time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE tournament_teams SET channel_id = ?, name = ?, accepted_at = ?
		WHERE tournament_id = ? AND guild_id = ? AND accepted_at = 0`, channelID, name, millis(at), id, guildID)
	if err != nil {
		return false, fmt.Errorf("accepting tournament %d for %s: %w", id, guildID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Teams lists a team battle's servers, the host first, then as invited.
func (s *Store) Teams(ctx context.Context, id int64) ([]tournament.Team, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT guild_id, channel_id, name, invited_at, accepted_at FROM tournament_teams
		WHERE tournament_id = ? ORDER BY invited_at, guild_id`, id)
	if err != nil {
		return nil, fmt.Errorf("listing the teams of tournament %d: %w", id, err)
	}
	defer rows.Close()
	var out []tournament.Team
	for rows.Next() {
		var t tournament.Team
		var invited, accepted int64
		if err := rows.Scan(&t.GuildID, &t.ChannelID, &t.Name, &invited, &accepted); err != nil {
			return nil, fmt.Errorf("reading a team: %w", err)
		}
		t.InvitedAt = fromMillis(invited)
		if accepted != 0 {
			t.AcceptedAt = fromMillis(accepted)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
