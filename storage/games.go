package storage

// This file writes games: created, a turn at a time with optimistic
// versions, reminded, live message, finished with their result.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// CreateGame stores a new active game (its Start, Position and Plies as
// given) and sets g.ID and g.Version. It fails with record.ErrChannelBusy if
// the channel already has an active game.
func (s *Store) CreateGame(ctx context.Context, g *record.Game) error {
	if g.Status == "" {
		g.Status = record.Active
	}
	if g.Version == 0 {
		g.Version = 1
	}
	return s.inTx(ctx, func(tx *dbTx) error { return s.insertGame(ctx, tx, g) })
}

// ReserveGameID hands out the number of a game not stored yet (CreateGame
// then stores it under that number). No other game ever gets it.
func (s *Store) ReserveGameID(ctx context.Context) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *dbTx) error {
		var err error
		id, err = s.nextGameID(ctx, tx)
		return err
	})
	return id, err
}

// nextGameID takes the next game number: PostgreSQL's identity sequence,
// or SQLite's counter (past any number already in games, which the
// databases made before the counter existed hold).
func (s *Store) nextGameID(ctx context.Context, tx *dbTx) (int64, error) {
	var id int64
	query := `INSERT INTO game_numbers (one, last) VALUES (1, (SELECT coalesce(max(id), 0) FROM games) + 1)
		ON CONFLICT (one) DO UPDATE SET last = max(game_numbers.last, (SELECT coalesce(max(id), 0) FROM games)) + 1 RETURNING last`
	if s.dialect == postgresDB {
		query = `SELECT nextval(pg_get_serial_sequence('games', 'id'))`
	}
	if err := tx.QueryRowContext(ctx, query).Scan(&id); err != nil {
		return 0, fmt.Errorf("a number for a new game: %w", err)
	}
	return id, nil
}

// insertGame stores a game and its plies inside a transaction, under its
// reserved number if it has one.
func (s *Store) insertGame(ctx context.Context, tx *dbTx, g *record.Game) error {
	if g.ID == 0 {
		id, err := s.nextGameID(ctx, tx)
		if err != nil {
			return err
		}
		g.ID = id
	}
	if g.PublicID == "" {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("a public id for a game: %w", err)
		}
		g.PublicID = hex.EncodeToString(b[:])
	}
	for _, side := range []record.Side{g.Black, g.White} {
		if err := upsertPlayer(ctx, tx, side.Player, g.CreatedAt); err != nil {
			return err
		}
	}
	bid, blv := sideColumns(g.Black)
	wid, wlv := sideColumns(g.White)
	err := tx.QueryRowContext(ctx, `INSERT INTO games (id, guild_id, channel_id, size, black_id, black_level, white_id, white_level,
		rated, status, start_position, start_to_move, position, to_move, plies, version, created_at, updated_at,
		turn_started_at, deadline_at, reminded, message_id, style, reply_token, reply_expires_at, parent_id, public_id,
		time_base_ms, time_increment_ms, time_per_move_ms, black_left_ms, white_left_ms, remind_at, tournament_id, opening)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		g.ID, g.GuildID, g.ChannelID, g.Size(), bid, blv, wid, wlv, g.Rated, string(g.Status),
		encodePosition(g.State.Start()), colorCode(g.State.Start().ToMove()), encodePosition(g.Position()), colorCode(g.Position().ToMove()),
		g.PlyCount(), g.Version,
		millis(g.CreatedAt), millis(g.UpdatedAt), millis(g.TurnStartedAt), nullMillis(g.Deadline), g.Reminded, g.MessageID,
		string(styleOr(g.Style)), g.ReplyToken, nullMillis(g.ReplyExpires), g.ParentID, g.PublicID,
		g.Control.Base.Milliseconds(), g.Control.Increment.Milliseconds(), g.Control.PerMove.Milliseconds(),
		g.Left[0].Milliseconds(), g.Left[1].Milliseconds(), nullMillis(g.RemindAt), nullID(g.TournamentID),
		game.FormatTranscript(g.Opening, g.Size())).Scan(&g.ID)
	if err != nil {
		if isUnique(err) {
			return record.ErrChannelBusy
		}
		return fmt.Errorf("creating game: %w", err)
	}
	return insertPlies(ctx, tx, g.ID, 0, g.Plies(), g.CreatedAt)
}

func insertPlies(ctx context.Context, tx *dbTx, gameID int64, first int, plies []game.Ply, at time.Time) error {
	for i, p := range plies {
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, color, square, played_at) VALUES (?, ?, ?, ?, ?)`,
			gameID, first+i+1, colorCode(p.Color), p.Square.String(), millis(at)); err != nil {
			return fmt.Errorf("recording ply %d of game %d: %w", first+i+1, gameID, err)
		}
	}
	return nil
}

// AppendTurn records a turn in an active game, in one transaction. It is
// refused with record.ErrStale if the game has moved past g.Version since it
// was read, so two clicks at once cannot both apply. On success g is
// updated to match the database.
func (s *Store) AppendTurn(ctx context.Context, g *record.Game, t record.Turn) error {
	carried := false // the game's kept row moves on with the turn (rowcache.go)
	defer func(readAt int64) { s.turnWritten(g, readAt, carried) }(g.Version)
	if t.End != nil {
		return s.finishGame(ctx, g, *t.End, t.Rate, &t)
	}
	var err error
	if s.dialect == postgresDB && len(t.Plies) > 0 {
		err = s.appendTurnAtOnce(ctx, g, t)
	} else {
		err = s.inTx(ctx, func(tx *dbTx) error { return s.appendTurn(ctx, tx, g, t) })
	}
	if err != nil {
		return err
	}
	g.Turned(t)
	s.states.put(g)
	carried = true
	return nil
}

// appendTurn writes a turn of g within tx.
func (s *Store) appendTurn(ctx context.Context, tx *dbTx, g *record.Game, t record.Turn) error {
	res, err := tx.ExecContext(ctx, turnUpdate, turnArgs(g, t)...)
	if err != nil {
		return fmt.Errorf("updating game %d: %w", g.ID, err)
	}
	if err := s.checkChanged(ctx, tx, res, g.ID); err != nil {
		return err
	}
	return insertPlies(ctx, tx, g.ID, g.PlyCount()-len(t.Plies), t.Plies, t.At)
}

// turnUpdate moves a game's row on by a turn (turnArgs), if it is still at
// the version the turn was made on and active.
const turnUpdate = `UPDATE games SET position = ?, to_move = ?, plies = plies + ?, version = version + 1,
		updated_at = ?, turn_started_at = ?, deadline_at = ?, reminded = 0, reply_token = ?, reply_expires_at = ?,
		black_left_ms = ?, white_left_ms = ?, remind_at = ?,
		message_version = CASE WHEN ? <> '' AND message_id = ? THEN version + 1 ELSE message_version END
		WHERE id = ? AND version = ? AND status = 'active'`

func turnArgs(g *record.Game, t record.Turn) []any {
	return []any{encodePosition(g.Position()), colorCode(g.Position().ToMove()), len(t.Plies), millis(t.At), millis(t.At),
		nullMillis(t.Deadline), t.ReplyToken, nullMillis(t.ReplyExpires), t.Left[0].Milliseconds(), t.Left[1].Milliseconds(),
		nullMillis(t.RemindAt), t.Shows, t.Shows, g.ID, g.Version}
}

// RestartTurn moves g's running turn to start at t.At with t's clocks
// and timers, refused as AppendTurn refuses; plies and updated_at stay.
func (s *Store) RestartTurn(ctx context.Context, g *record.Game, t record.Turn) error {
	defer s.wroteGame(g.ID)
	err := s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET version = version + 1, turn_started_at = ?, deadline_at = ?, remind_at = ?,
			black_left_ms = ?, white_left_ms = ? WHERE id = ? AND version = ? AND status = 'active'`,
			millis(t.At), nullMillis(t.Deadline), nullMillis(t.RemindAt), t.Left[0].Milliseconds(), t.Left[1].Milliseconds(), g.ID, g.Version)
		if err != nil {
			return fmt.Errorf("restarting the turn of game %d: %w", g.ID, err)
		}
		return s.checkChanged(ctx, tx, res, g.ID)
	})
	if err != nil {
		return err
	}
	g.Restarted(t)
	s.states.put(g)
	return nil
}

// SetGameMessage records the chat message that shows a game at a version
// as the game's live message, unless a message of a newer version is
// already recorded (replies can arrive out of order). It returns the
// message it replaces ("" if none or the same) and whether the given
// message became the live one.
func (s *Store) SetGameMessage(ctx context.Context, gameID, version int64, messageID string) (previous string, live bool, err error) {
	defer s.wroteGame(gameID)
	err = s.inSerialTx(ctx, func(tx *dbTx) error {
		previous, live = "", false
		var current string
		var currentVersion int64
		if err := tx.QueryRowContext(ctx, `SELECT message_id, message_version FROM games WHERE id = ?`, gameID).Scan(&current, &currentVersion); err != nil {
			return fmt.Errorf("reading game %d's message: %w", gameID, err)
		}
		var shows int64
		if previous, live, shows = record.LiveMessage(current, currentVersion, messageID, version); !live {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE games SET message_id = ?, message_version = ? WHERE id = ?`,
			messageID, shows, gameID)
		if err != nil {
			return fmt.Errorf("recording game %d's message: %w", gameID, err)
		}
		return nil
	})
	return previous, live, err
}

// MarkReminded notes that the timeout reminder for the current turn went
// out; it reports false if it had already been sent or the turn moved on.
func (s *Store) MarkReminded(ctx context.Context, g *record.Game) (bool, error) {
	defer s.wroteGame(g.ID)
	res, err := s.wdb.ExecContext(ctx, `UPDATE games SET reminded = 1 WHERE id = ? AND version = ? AND status = 'active' AND reminded = 0`,
		g.ID, g.Version)
	if err != nil {
		return false, fmt.Errorf("marking reminder of game %d: %w", g.ID, err)
	}
	n, err := res.RowsAffected()
	if n == 1 {
		g.Reminded = true
	}
	return n == 1, err
}

// TakeBack rewinds an active game to its first keep plies (a takeback) in
// one transaction, refused with record.ErrStale if the game moved past
// g.Version. t gives the time and the new turn's deadline; its plies are
// ignored. On success g holds the shorter game.
func (s *Store) TakeBack(ctx context.Context, g *record.Game, keep int, t record.Turn) error {
	defer s.wroteGame(g.ID)
	state, err := g.TakeBackState(keep)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET position = ?, to_move = ?, plies = ?, version = version + 1,
			updated_at = ?, turn_started_at = ?, deadline_at = ?, reminded = 0, reply_token = '', reply_expires_at = NULL,
			takebacks = takebacks + 1, black_left_ms = ?, white_left_ms = ?, remind_at = ?
			WHERE id = ? AND version = ? AND status = 'active'`,
			encodePosition(state.Position()), colorCode(state.Position().ToMove()), keep, millis(t.At), millis(t.At),
			nullMillis(t.Deadline), t.Left[0].Milliseconds(), t.Left[1].Milliseconds(), nullMillis(t.RemindAt), g.ID, g.Version)
		if err != nil {
			return fmt.Errorf("taking back game %d: %w", g.ID, err)
		}
		if err := s.checkChanged(ctx, tx, res, g.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND ply > ?`, g.ID, keep); err != nil {
			return fmt.Errorf("taking back game %d: %w", g.ID, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.TookBack(state, t)
	s.states.put(g)
	return nil
}

// FinishGame ends an active game with its result in one transaction (the
// game's status, the result row), refused with record.ErrStale if the game
// moved past g.Version. Then it appends the game's line to the results log.
func (s *Store) FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error {
	return s.finishGame(ctx, g, r, rate, nil)
}

// finishGame is FinishGame, with the game's last turn first in the same
// transaction when last is set (AppendTurn of a turn with an End).
func (s *Store) finishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate, last *record.Turn) error {
	defer s.wroteGame(g.ID)
	r.GameID = g.ID
	status := record.FinalStatus(r.Reason)
	rated := g.Rated && !r.Reason.Unfinished()
	transcript := g.Transcript()
	// Serializable: the ratings are read, updated and written back. On
	// SQLite, finishes that come together commit together, their results
	// lines written after in one append.
	finish := func(tx *dbTx) error {
		version := g.Version
		if last != nil {
			if err := s.appendTurn(ctx, tx, g, *last); err != nil {
				return err
			}
			version++
		}
		res, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, version = version + 1, updated_at = ?, deadline_at = NULL,
			remind_at = NULL, archive_at = ? WHERE id = ? AND version = ? AND status = 'active'`,
			string(status), millis(r.FinishedAt), nullMillis(r.ArchiveAt), g.ID, version)
		if err != nil {
			return fmt.Errorf("finishing game %d: %w", g.ID, err)
		}
		if err := s.checkChanged(ctx, tx, res, g.ID); err != nil {
			return err
		}
		bid, blv := sideColumns(g.Black)
		wid, wlv := sideColumns(g.White)
		winner := "draw"
		switch {
		case r.Reason.Unfinished():
			winner, r.Winner = "none", game.Empty
		case r.Winner != game.Empty:
			winner = colorCode(r.Winner)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO results (game_id, guild_id, finished_at, black_id, black_level, white_id,
			white_level, size, black_discs, white_discs, winner, reason, rated, transcript, note, logged_by, time_control, tournament_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.GuildID, millis(r.FinishedAt), bid, blv, wid, wlv, g.Size(), r.BlackDiscs, r.WhiteDiscs, winner,
			string(r.Reason), rated, transcript, r.Note, s.logOwner(), g.Control.String(), nullID(g.TournamentID))
		if err != nil {
			return fmt.Errorf("recording result of game %d: %w", g.ID, err)
		}
		if rate != nil {
			return applyRatings(ctx, tx, g, rate)
		}
		return nil
	}
	var err, logErr error
	if s.dialect == postgresDB {
		if err = s.inSerialTx(ctx, finish); err == nil && s.results != nil {
			logErr = s.logResult(ctx, g.ID)
		}
	} else {
		err, logErr = s.inGroupTx(ctx, g.ID, finish)
	}
	if err != nil {
		return err
	}
	if last != nil {
		last.End = nil
		g.Turned(*last)
	}
	g.Finished(r)
	s.states.put(g)
	if s.results != nil {
		if err := logErr; err != nil {
			// The game is safely finished; the line follows when the log
			// can be written again.
			s.logger.Error("RESULTS LOG CANNOT BE WRITTEN: retrying in the background", "game", g.ID, "err", err)
			s.retryResultsLog()
		}
	}
	return nil
}
