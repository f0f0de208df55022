package storage

// This file is a tournament's pairings: each round paired once, each
// pairing's game opened once, forfeits, and a player's running tournament
// game.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"othello-bot/record"
	"othello-bot/tournament"
)

// PairTournament stores new pairings and moves the tournament's round on
// to the highest round among them, in one transaction, only if the
// tournament is running and unchanged since t was read: otherwise
// record.ErrStale (another process paired, paused, canceled or finished
// it), or ErrAlreadyPaired for a pairing already stored. On success t has
// the new round and version.
func (s *Store) PairTournament(ctx context.Context, t *tournament.Tournament, pairings []tournament.Pairing) error {
	to := t.Round
	for _, p := range pairings {
		to = max(to, p.Round)
	}
	if to == t.Round {
		return nil
	}
	id := t.ID
	err := s.inTx(ctx, func(tx *dbTx) error {
		// The version, not the round alone: a pause and a resume, or a
		// finish, leave the round as it was.
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET round = ?, version = version + 1
			WHERE id = ? AND round = ? AND version = ? AND status = ?`, to, id, t.Round, t.Version, string(tournament.Running))
		if err != nil {
			return fmt.Errorf("pairing tournament %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return record.ErrStale
		}
		for _, p := range pairings {
			_, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, round, board, black_id, white_id, forfeit_by)
				VALUES (?, ?, ?, ?, ?, ?)`, id, p.Round, p.Board, p.Black, p.White, p.ForfeitBy)
			if isUnique(err) {
				return ErrAlreadyPaired
			}
			if err != nil {
				return fmt.Errorf("storing a pairing of tournament %d: %w", id, err)
			}
		}
		return nil
	})
	if err == nil {
		t.Round, t.Version = to, t.Version+1
	}
	return err
}

// Pairings lists a tournament's pairings in order, each with the result
// of its game: a win, loss or draw as the game ended (an aborted game
// counts as a draw without discs), a forfeit as given.
func (s *Store) Pairings(ctx context.Context, id int64) ([]tournament.Pairing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.round, p.board, p.black_id, p.white_id, coalesce(p.game_id, 0), p.forfeit_by,
		coalesce(r.winner, ''), coalesce(r.black_discs, 0), coalesce(r.white_discs, 0), r.finished_at, coalesce(g.public_id, ''), coalesce(g.channel_id, '')
		FROM tournament_pairings p LEFT JOIN results r ON r.game_id = p.game_id LEFT JOIN games g ON g.id = p.game_id
		WHERE p.tournament_id = ? ORDER BY p.round, p.board`, id)
	if err != nil {
		return nil, fmt.Errorf("listing pairings of tournament %d: %w", id, err)
	}
	defer rows.Close()
	var out []tournament.Pairing
	for rows.Next() {
		var p tournament.Pairing
		var winner string
		var ended sql.NullInt64
		if err := rows.Scan(&p.Round, &p.Board, &p.Black, &p.White, &p.GameID, &p.ForfeitBy, &winner,
			&p.BlackDiscs, &p.WhiteDiscs, &ended, &p.GamePublicID, &p.GameChannelID); err != nil {
			return nil, fmt.Errorf("reading a pairing: %w", err)
		}
		p.EndedAt = fromNullMillis(ended)
		switch {
		case p.ForfeitBy != "":
			p.Game = tournament.ForfeitAgainst(p.Game, p.ForfeitBy)
		case winner == "X":
			p.Outcome = tournament.BlackWins
		case winner == "O":
			p.Outcome = tournament.WhiteWins
		case winner == "draw":
			p.Outcome = tournament.Draw
		case winner == "none":
			p.Outcome, p.Forfeit, p.BlackDiscs, p.WhiteDiscs = tournament.Draw, true, 0, 0
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// OpenPairingGame creates the game for a pairing and links the two, once:
// a pairing whose game is open (or that was forfeited) gives
// ErrAlreadyPaired and no game, a tournament no longer running
// ErrNotRunning and no game.
func (s *Store) OpenPairingGame(ctx context.Context, id int64, round, board int, g *record.Game) error {
	if g.Status == "" {
		g.Status = record.Active
	}
	if g.Version == 0 {
		g.Version = 1
	}
	g.TournamentID = id
	return s.inTx(ctx, func(tx *dbTx) error {
		// An update that changes nothing locks the tournament's row until
		// commit, so a pause, cancel or finish in another process comes
		// wholly before this game (and it is refused) or after it.
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = status WHERE id = ? AND status = ?`, id, string(tournament.Running))
		if err != nil {
			return fmt.Errorf("opening a game of tournament %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return ErrNotRunning
		}
		if err := s.insertGame(ctx, tx, g); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE tournament_pairings SET game_id = ?
			WHERE tournament_id = ? AND round = ? AND board = ? AND game_id IS NULL AND forfeit_by = ''`, g.ID, id, round, board)
		if err != nil {
			return fmt.Errorf("linking game %d to tournament %d: %w", g.ID, id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return ErrAlreadyPaired
		}
		return nil
	})
}

// ForfeitPairing gives a pairing not yet played to the opponent of the
// player who withdrew; false if it was already opened or forfeited.
func (s *Store) ForfeitPairing(ctx context.Context, id int64, round, board int, by string) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET forfeit_by = ?
			WHERE tournament_id = ? AND round = ? AND board = ? AND game_id IS NULL AND forfeit_by = ''`, by, id, round, board)
		if err != nil {
			return fmt.Errorf("forfeiting a pairing of tournament %d: %w", id, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// ActiveTournamentGame is a player's running tournament game, if any: its
// number and its thread (record.ErrNotFound when there is none).
func (s *Store) ActiveTournamentGame(ctx context.Context, playerID string) (int64, string, error) {
	var id int64
	var channel string
	err := s.db.QueryRowContext(ctx, `SELECT id, channel_id FROM games WHERE status = 'active' AND tournament_id IS NOT NULL
		AND (black_id = ? OR white_id = ?) ORDER BY id LIMIT 1`, playerID, playerID).Scan(&id, &channel)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", record.ErrNotFound
	}
	if err != nil {
		return 0, "", fmt.Errorf("%s's tournament game: %w", playerID, err)
	}
	return id, channel, nil
}
