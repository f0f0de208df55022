package storage

// This file is a game's row: the columns read with it, how games are
// selected, how a row is scanned, and why a conditional update of it
// changed nothing.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

const gameColumns = `g.id, g.guild_id, g.channel_id, g.size, g.black_id, coalesce(pb.name, ''), g.black_level,
	g.white_id, coalesce(pw.name, ''), g.white_level, g.rated, g.status, g.start_position, g.start_to_move,
	g.position, g.to_move,
	g.version, g.created_at, g.updated_at, g.turn_started_at, g.deadline_at, g.reminded, g.message_id, g.style,
	g.reply_token, g.reply_expires_at, g.takebacks, g.parent_id, coalesce(g.public_id, ''),
	g.time_base_ms, g.time_increment_ms, g.time_per_move_ms, g.black_left_ms, g.white_left_ms, g.remind_at, coalesce(g.tournament_id, 0), g.opening, r.finished_at, r.black_discs, r.white_discs, r.winner, r.reason, coalesce(r.note, '')`

const gameFrom = ` FROM games g
	LEFT JOIN players pb ON pb.id = g.black_id
	LEFT JOIN players pw ON pw.id = g.white_id
	LEFT JOIN results r ON r.game_id = g.id`

// selectGames loads the games that filter (over games g, with what
// follows it: an order, a limit) picks, ordered by order. The filter runs
// in a subquery of its own because SQLite re-plans a statement whose
// bound parameter meets the join's planning (its partial indexes) each
// time it is bound — the statement cache then saves nothing, and loading
// a game cost 160 µs instead of 20.
func selectGames(filter, order string) string {
	return selectColumns(gameColumns, filter, order)
}

func selectColumns(columns, filter, order string) string {
	q := `SELECT ` + columns + gameFrom + ` WHERE g.id IN (SELECT g.id FROM games g WHERE ` + filter + `)`
	if order != "" {
		q += ` ORDER BY ` + order
	}
	return q
}

type scanner interface{ Scan(dest ...any) error }

// loaded is a game as its row gives it, before its moves are read: the
// start and the stored position, to rebuild and check its state with.
type loaded struct {
	g          *record.Game
	start, pos game.Position
}

// scanGame scans a row of gameColumns, and into more the columns after
// them.
func scanGame(row scanner, more ...any) (*loaded, error) {
	var (
		g                                    record.Game
		bid, wid, status, start, pos, toMove sql.NullString
		startToMove                          sql.NullString
		bname, wname                         string
		blv, wlv                             sql.NullInt64
		size                                 int
		created, updated, turnStarted        int64
		deadline, replyExpires, remindAt     sql.NullInt64
		base, inc, perMove, bleft, wleft     int64
		finished, bdiscs, wdiscs             sql.NullInt64
		winner, reason                       sql.NullString
		opening, note                        string
	)
	err := row.Scan(append([]any{&g.ID, &g.GuildID, &g.ChannelID, &size, &bid, &bname, &blv, &wid, &wname, &wlv, &g.Rated, &status,
		&start, &startToMove, &pos, &toMove, &g.Version, &created, &updated, &turnStarted, &deadline, &g.Reminded, &g.MessageID,
		&g.Style, &g.ReplyToken, &replyExpires, &g.Takebacks, &g.ParentID, &g.PublicID,
		&base, &inc, &perMove, &bleft, &wleft, &remindAt, &g.TournamentID, &opening, &finished, &bdiscs, &wdiscs, &winner, &reason, &note},
		more...)...)
	if err != nil {
		return nil, err
	}
	g.Black = sideOf(bid, bname, blv)
	g.White = sideOf(wid, wname, wlv)
	g.Status = record.Status(status.String)
	l := &loaded{g: &g}
	if l.start, err = decodePosition(size, start.String, startToMove.String); err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	if l.pos, err = decodePosition(size, pos.String, toMove.String); err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	g.CreatedAt, g.UpdatedAt, g.TurnStartedAt = fromMillis(created), fromMillis(updated), fromMillis(turnStarted)
	g.Deadline = fromNullMillis(deadline)
	g.ReplyExpires = fromNullMillis(replyExpires)
	g.RemindAt = fromNullMillis(remindAt)
	g.Control = controlOf(base, inc, perMove)
	if opening != "" {
		if g.Opening, err = game.ParseTranscript(opening, size); err != nil {
			return nil, fmt.Errorf("game %d's opening: %w", g.ID, err)
		}
	}
	g.Left = [2]time.Duration{time.Duration(bleft) * time.Millisecond, time.Duration(wleft) * time.Millisecond}
	if finished.Valid {
		g.Result = &record.Result{GameID: g.ID, FinishedAt: fromMillis(finished.Int64), BlackDiscs: int(bdiscs.Int64),
			WhiteDiscs: int(wdiscs.Int64), Winner: colorOf(winner.String), Reason: record.EndReason(reason.String), Note: note}
	}
	return l, nil
}

// checkChanged turns "no row updated" into ErrNotFound, ErrNotActive or
// ErrStale.
func (s *Store) checkChanged(ctx context.Context, tx *dbTx, res sql.Result, id int64) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 1 {
		return nil
	}
	return whyUnchanged(ctx, tx, id)
}

// whyUnchanged says why a conditional write of game id's row changed
// nothing: ErrNotFound, ErrNotActive or ErrStale.
func whyUnchanged(ctx context.Context, q querier, id int64) error {
	var status string
	switch err := q.QueryRowContext(ctx, `SELECT status FROM games WHERE id = ?`, id).Scan(&status); {
	case errors.Is(err, sql.ErrNoRows):
		return record.ErrNotFound
	case err != nil:
		return err
	case status != string(record.Active):
		return record.ErrNotActive
	}
	return record.ErrStale
}
