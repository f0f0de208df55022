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

// pending is how rank_holders keeps a Holding (see 0026_rank_intents).
var pending = map[ranks.Holding]int{ranks.Held: 0, ranks.Giving: 1, ranks.Taking: 2}

// HeldRanks lists the band roles a member holds or is being given, as the
// bot gave them.
func (s *Store) HeldRanks(ctx context.Context, guildID, playerID string) ([]ranks.Role, error) {
	return s.rankRoles(ctx, `SELECT r.speed, r.step, r.band, r.role_id FROM rank_holders h
		JOIN rank_roles r ON r.guild_id = h.guild_id AND r.role_id = h.role_id
		WHERE h.guild_id = ? AND h.player_id = ? AND h.pending <> 2 ORDER BY r.speed, r.step, r.band`, guildID, playerID)
}

// RankHolders lists who holds (or is being given) a role the bot made.
func (s *Store) RankHolders(ctx context.Context, guildID, roleID string) ([]string, error) {
	return s.ids(ctx, "reading a role's holders", `SELECT player_id FROM rank_holders WHERE guild_id = ? AND role_id = ?
		AND pending <> 2 ORDER BY player_id`, guildID, roleID)
}

// SetRankHeld records where a member's role stands: ranks.NotHeld forgets
// it; Giving and Taking are written before Discord is asked.
func (s *Store) SetRankHeld(ctx context.Context, guildID, playerID, roleID string, h ranks.Holding) error {
	var err error
	if h == ranks.NotHeld {
		_, err = s.wdb.ExecContext(ctx, `DELETE FROM rank_holders WHERE guild_id = ? AND player_id = ? AND role_id = ?`, guildID, playerID, roleID)
	} else {
		_, err = s.wdb.ExecContext(ctx, `INSERT INTO rank_holders (guild_id, player_id, role_id, pending) VALUES (?, ?, ?, ?)
			ON CONFLICT (guild_id, player_id, role_id) DO UPDATE SET pending = excluded.pending`, guildID, playerID, roleID, pending[h])
	}
	if err != nil {
		return fmt.Errorf("recording a rating role held in %s: %w", guildID, err)
	}
	return nil
}

// PendingRanks lists up to limit role changes Discord was asked for and
// whose answer was never recorded.
func (s *Store) PendingRanks(ctx context.Context, limit int) ([]ranks.Pending, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT guild_id, player_id, role_id, pending FROM rank_holders WHERE pending <> 0
		ORDER BY guild_id, player_id, role_id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("reading pending rating roles: %w", err)
	}
	defer rows.Close()
	var out []ranks.Pending
	for rows.Next() {
		var p ranks.Pending
		var code int
		if err := rows.Scan(&p.GuildID, &p.PlayerID, &p.RoleID, &code); err != nil {
			return nil, fmt.Errorf("reading pending rating roles: %w", err)
		}
		p.Holding = ranks.Giving
		if code == pending[ranks.Taking] {
			p.Holding = ranks.Taking
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SetRolesBackfill records that a server's members are being given their
// roles of a step (0: done).
func (s *Store) SetRolesBackfill(ctx context.Context, guildID string, step int, now time.Time) error {
	return s.setGuild(ctx, guildID, "roles_backfill", step, now)
}

// RolesBackfills lists the servers whose members were being given their
// roles and are not done, with the step (still theirs).
func (s *Store) RolesBackfills(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, role_step FROM guilds WHERE roles_backfill <> 0 AND roles_backfill = role_step`)
	if err != nil {
		return nil, fmt.Errorf("reading the servers giving rating roles: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var step int
		if err := rows.Scan(&id, &step); err != nil {
			return nil, fmt.Errorf("reading the servers giving rating roles: %w", err)
		}
		out[id] = step
	}
	return out, rows.Err()
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
