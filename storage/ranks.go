package storage

// This file is rating roles: each server's band width, the roles the bot
// made, and who holds them.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/ranks"
)

// SetRoleStep sets a server's band width (0 turns rating roles off).
func (s *Store) SetRoleStep(ctx context.Context, guildID string, step int, now time.Time) error {
	return s.setGuild(ctx, guildID, "role_step", step, now)
}

// RoleStep is a server's band width, 0 when rating roles are off.
func (s *Store) RoleStep(ctx context.Context, guildID string) (int, error) {
	var step int
	err := s.guildValue(ctx, guildID, "role_step", &step)
	return step, err
}

// RankRoles lists the band roles the bot made in a server.
func (s *Store) RankRoles(ctx context.Context, guildID string) ([]ranks.Role, error) {
	return s.rankRoles(ctx, `SELECT speed, step, band, role_id FROM rank_roles WHERE guild_id = ? ORDER BY speed, step, band`, guildID)
}

// SaveRankRole records a band role the bot made.
func (s *Store) SaveRankRole(ctx context.Context, guildID string, r ranks.Role) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO rank_roles (guild_id, speed, step, band, role_id) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (guild_id, speed, step, band) DO UPDATE SET role_id = excluded.role_id`, guildID, r.Speed, r.Step, r.Band, r.RoleID)
	if err != nil {
		return fmt.Errorf("recording a rating role of %s: %w", guildID, err)
	}
	return nil
}

// HeldRanks lists the band roles a member holds, as the bot gave them.
func (s *Store) HeldRanks(ctx context.Context, guildID, playerID string) ([]ranks.Role, error) {
	return s.rankRoles(ctx, `SELECT r.speed, r.step, r.band, r.role_id FROM rank_holders h
		JOIN rank_roles r ON r.guild_id = h.guild_id AND r.role_id = h.role_id
		WHERE h.guild_id = ? AND h.player_id = ? ORDER BY r.speed, r.step, r.band`, guildID, playerID)
}

// RankHolders lists who holds a role the bot made, as it gave it.
func (s *Store) RankHolders(ctx context.Context, guildID, roleID string) ([]string, error) {
	return s.ids(ctx, "reading a role's holders", `SELECT player_id FROM rank_holders WHERE guild_id = ? AND role_id = ?
		ORDER BY player_id`, guildID, roleID)
}

// SetRankHeld records that a member holds a role, or no longer does.
func (s *Store) SetRankHeld(ctx context.Context, guildID, playerID, roleID string, held bool) error {
	q := `DELETE FROM rank_holders WHERE guild_id = ? AND player_id = ? AND role_id = ?`
	if held {
		q = `INSERT INTO rank_holders (guild_id, player_id, role_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`
	}
	if _, err := s.wdb.ExecContext(ctx, q, guildID, playerID, roleID); err != nil {
		return fmt.Errorf("recording a rating role held in %s: %w", guildID, err)
	}
	return nil
}

func (s *Store) rankRoles(ctx context.Context, q string, args ...any) ([]ranks.Role, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading rating roles: %w", err)
	}
	defer rows.Close()
	var out []ranks.Role
	for rows.Next() {
		var r ranks.Role
		if err := rows.Scan(&r.Speed, &r.Step, &r.Band, &r.RoleID); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
