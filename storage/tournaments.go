package storage

// This file is tournaments: the event, its entrants, its pairings, and the
// games opened for them. Every change that must happen once (a round
// paired, a pairing's game opened, a status moved on) is conditional, so
// two processes, or one restarted mid-step, cannot do it twice.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"othello-bot/record"
	"othello-bot/tournament"
)

// The store's refusals, in the tournament's terms.
var (
	ErrAlreadyEntered = tournament.ErrAlreadyEntered
	ErrAlreadyPaired  = tournament.ErrAlreadyPaired
	ErrNotRunning     = tournament.ErrNotRunning
)

const tournamentColumns = `id, guild_id, channel_id, organiser_id, name, format, rounds, double_rr, duration_ms, size, rated,
	time_base_ms, time_increment_ms, time_per_move_ms, status, round, starts_at, ends_at, reminded,
	signup_message_id, standings_message_id, event_id, created_at, finished_at, version, coalesce(public_id, ''), team_top`

func scanTournament(row scanner) (*tournament.Tournament, error) {
	var (
		t                 tournament.Tournament
		format, status    string
		duration          int64
		base, inc, per    int64
		starts, created   int64
		ends, finished    sql.NullInt64
		double, rated, rm bool
	)
	err := row.Scan(&t.ID, &t.GuildID, &t.ChannelID, &t.OrganiserID, &t.Name, &format, &t.Rounds, &double, &duration,
		&t.Size, &rated, &base, &inc, &per, &status, &t.Round, &starts, &ends, &rm,
		&t.SignupMessageID, &t.StandingsMessageID, &t.EventID, &created, &finished, &t.Version, &t.PublicID, &t.TeamTop)
	if err != nil {
		return nil, err
	}
	t.Format, t.Status = tournament.Format(format), tournament.Status(status)
	t.Double, t.Rated, t.Reminded = double, rated, rm
	t.Duration = time.Duration(duration) * time.Millisecond
	t.Control = controlOf(base, inc, per)
	t.StartsAt, t.CreatedAt = fromMillis(starts), fromMillis(created)
	t.EndsAt, t.FinishedAt = fromNullMillis(ends), fromNullMillis(finished)
	return &t, nil
}

// CreateTournament stores a new tournament taking sign-ups, its organiser
// among the players, and sets its ID and version.
func (s *Store) CreateTournament(ctx context.Context, t *tournament.Tournament, organiser record.Player) error {
	t.Status, t.Version, t.OrganiserID = tournament.SignUp, 1, organiser.ID
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("a public id for a tournament: %w", err)
	}
	t.PublicID = hex.EncodeToString(b[:])
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, organiser, t.CreatedAt); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, format, rounds, double_rr,
			duration_ms, size, rated, time_base_ms, time_increment_ms, time_per_move_ms, status, round, starts_at, ends_at,
			created_at, version, public_id, team_top) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 1, ?, ?) RETURNING id`,
			t.GuildID, t.ChannelID, t.OrganiserID, t.Name, string(t.Format), t.Rounds, t.Double, t.Duration.Milliseconds(),
			t.Size, t.Rated, t.Control.Base.Milliseconds(), t.Control.Increment.Milliseconds(), t.Control.PerMove.Milliseconds(),
			string(t.Status), millis(t.StartsAt), nullMillis(t.EndsAt), millis(t.CreatedAt), t.PublicID, t.TeamTop).Scan(&t.ID)
		if err != nil {
			return fmt.Errorf("creating tournament: %w", err)
		}
		if t.TeamTop > 0 { // the host's team plays from the start
			_, err = tx.ExecContext(ctx, `INSERT INTO tournament_teams (tournament_id, guild_id, channel_id, name, invited_at, accepted_at)
				VALUES (?, ?, ?, ?, ?, ?)`, t.ID, t.GuildID, t.ChannelID, t.HostTeam, millis(t.CreatedAt), millis(t.CreatedAt))
		}
		return err
	})
}

// Tournament loads a tournament by id.
func (s *Store) Tournament(ctx context.Context, id int64) (*tournament.Tournament, error) {
	t, err := scanTournament(s.db.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading tournament %d: %w", id, err)
	}
	return t, nil
}

// TournamentByPublicID loads the tournament whose page has that id.
func (s *Store) TournamentByPublicID(ctx context.Context, publicID string) (*tournament.Tournament, error) {
	t, err := scanTournament(s.db.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE public_id = ?`, publicID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading a tournament by its page: %w", err)
	}
	return t, nil
}

// OpenTournaments lists the tournaments not yet ended, in a channel (or
// everywhere when channelID is ""), newest first.
func (s *Store) OpenTournaments(ctx context.Context, channelID string) ([]*tournament.Tournament, error) {
	q := `SELECT ` + tournamentColumns + ` FROM tournaments WHERE status IN ('signup', 'running', 'paused')`
	args := []any{}
	if channelID != "" {
		q += ` AND channel_id = ?`
		args = append(args, channelID)
	}
	return s.tournaments(ctx, q+` ORDER BY id DESC`, args...)
}

// Tournaments lists a server's tournaments, running and past, newest
// first, at most limit; with channelID set, only that channel's.
func (s *Store) Tournaments(ctx context.Context, guildID, channelID string, limit int) ([]*tournament.Tournament, error) {
	q := `SELECT ` + tournamentColumns + ` FROM tournaments WHERE guild_id = ?`
	args := []any{guildID}
	if channelID != "" {
		q += ` AND channel_id = ?`
		args = append(args, channelID)
	}
	return s.tournaments(ctx, q+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
}

func (s *Store) tournaments(ctx context.Context, q string, args ...any) ([]*tournament.Tournament, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing tournaments: %w", err)
	}
	defer rows.Close()
	var out []*tournament.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("reading a tournament: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// UpdateTournament writes a tournament's settings and state if it has not
// changed since it was read (record.ErrStale otherwise), and moves its
// version on. The round is not written here: PairTournament moves it.
func (s *Store) UpdateTournament(ctx context.Context, t *tournament.Tournament) error {
	err := s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET name = ?, rounds = ?, double_rr = ?, duration_ms = ?, size = ?,
			rated = ?, time_base_ms = ?, time_increment_ms = ?, time_per_move_ms = ?, status = ?, starts_at = ?, ends_at = ?,
			reminded = ?, signup_message_id = ?, standings_message_id = ?, event_id = ?, finished_at = ?, version = version + 1
			WHERE id = ? AND version = ?`,
			t.Name, t.Rounds, t.Double, t.Duration.Milliseconds(), t.Size, t.Rated, t.Control.Base.Milliseconds(),
			t.Control.Increment.Milliseconds(), t.Control.PerMove.Milliseconds(), string(t.Status), millis(t.StartsAt),
			nullMillis(t.EndsAt), t.Reminded, t.SignupMessageID, t.StandingsMessageID, t.EventID, nullMillis(t.FinishedAt),
			t.ID, t.Version)
		if err != nil {
			return fmt.Errorf("updating tournament %d: %w", t.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return record.ErrStale
		}
		return nil
	})
	if err == nil {
		t.Version++
	}
	return err
}

// JoinTournament enters a player, seeded after those already in, with the
// rating they bring.
func (s *Store) JoinTournament(ctx context.Context, id int64, p record.Player, team string, rating float64, at time.Time) error {
	return s.inTx(ctx, func(tx *dbTx) error {
		if err := upsertPlayer(ctx, tx, p, at); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournament_entrants (tournament_id, player_id, seed, rating, joined_at, team)
			VALUES (?, ?, (SELECT coalesce(max(seed), 0) + 1 FROM tournament_entrants WHERE tournament_id = ?), ?, ?, ?)`,
			id, p.ID, id, rating, millis(at), team)
		if isUnique(err) {
			return ErrAlreadyEntered
		}
		if err != nil {
			return fmt.Errorf("entering %s in tournament %d: %w", p.ID, id, err)
		}
		return nil
	})
}

// LeaveTournament takes a player out: before the start their entry goes;
// after it they are withdrawn, their games kept. It reports whether they
// were in (and not already withdrawn).
func (s *Store) LeaveTournament(ctx context.Context, id int64, playerID string, started bool, at time.Time) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		var res sql.Result
		var err error
		if started {
			res, err = tx.ExecContext(ctx, `UPDATE tournament_entrants SET withdrawn_at = ?
				WHERE tournament_id = ? AND player_id = ? AND withdrawn_at IS NULL`, millis(at), id, playerID)
		} else {
			res, err = tx.ExecContext(ctx, `DELETE FROM tournament_entrants WHERE tournament_id = ? AND player_id = ?`, id, playerID)
		}
		if err != nil {
			return fmt.Errorf("taking %s out of tournament %d: %w", playerID, id, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// Entrants lists a tournament's players in seed order.
func (s *Store) Entrants(ctx context.Context, id int64) ([]tournament.Entrant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT e.player_id, p.name, e.rating, e.withdrawn_at IS NOT NULL, e.team
		FROM tournament_entrants e JOIN players p ON p.id = e.player_id WHERE e.tournament_id = ? ORDER BY e.seed`, id)
	if err != nil {
		return nil, fmt.Errorf("listing entrants of tournament %d: %w", id, err)
	}
	defer rows.Close()
	var out []tournament.Entrant
	for rows.Next() {
		var e tournament.Entrant
		if err := rows.Scan(&e.ID, &e.Name, &e.Rating, &e.Withdrawn, &e.Team); err != nil {
			return nil, fmt.Errorf("reading an entrant: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
