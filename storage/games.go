package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"

	"othello-bot/game"
	"othello-bot/record"
)

// encodePosition writes the board as size*size characters: '-', 'X', 'O'.
func encodePosition(p game.Position) string {
	var b strings.Builder
	for _, c := range p.Cells() {
		switch c {
		case game.Black:
			b.WriteByte('X')
		case game.White:
			b.WriteByte('O')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

func decodePosition(size int, s, toMove string) (game.Position, error) {
	cells := make([]game.Color, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'X':
			cells[i] = game.Black
		case 'O':
			cells[i] = game.White
		case '-':
		default:
			return game.Position{}, fmt.Errorf("bad cell %q in stored position", s[i])
		}
	}
	return game.FromCells(size, cells, colorOf(toMove))
}

func colorCode(c game.Color) string {
	if c == game.White {
		return "O"
	}
	return "X"
}

func colorOf(code string) game.Color {
	switch code {
	case "O":
		return game.White
	case "X":
		return game.Black
	}
	return game.Empty
}

func styleOr(s record.Style) record.Style {
	if s == "" {
		return record.StyleAuto
	}
	return s
}

func sideColumns(s record.Side) (id sql.NullString, level sql.NullInt64) {
	if s.IsBot() {
		return sql.NullString{}, sql.NullInt64{Int64: int64(s.Level), Valid: true}
	}
	return sql.NullString{String: s.Player.ID, Valid: true}, sql.NullInt64{}
}

// upsertPlayer records a player, keeping the newest name.
func upsertPlayer(ctx context.Context, tx *sql.Tx, p record.Player, now time.Time) error {
	if p.ID == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
		WHERE name <> excluded.name`, p.ID, p.Name, millis(now), millis(now))
	if err != nil {
		return fmt.Errorf("saving player %s: %w", p.ID, err)
	}
	return nil
}

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
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.insertGame(ctx, tx, g) })
}

// insertGame stores a game and its plies inside a transaction.
func (s *Store) insertGame(ctx context.Context, tx *sql.Tx, g *record.Game) error {
	for _, side := range []record.Side{g.Black, g.White} {
		if err := upsertPlayer(ctx, tx, side.Player, g.CreatedAt); err != nil {
			return err
		}
	}
	bid, blv := sideColumns(g.Black)
	wid, wlv := sideColumns(g.White)
	res, err := tx.ExecContext(ctx, `INSERT INTO games (guild_id, channel_id, size, black_id, black_level, white_id, white_level,
		rated, status, start_position, start_to_move, position, to_move, plies, version, created_at, updated_at,
		turn_started_at, deadline_at, reminded, message_id, style, reply_token, reply_expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.GuildID, g.ChannelID, g.Size(), bid, blv, wid, wlv, g.Rated, string(g.Status),
		encodePosition(g.State.Start()), colorCode(g.State.Start().ToMove()), encodePosition(g.Position()), colorCode(g.Position().ToMove()),
		len(g.Plies()), g.Version,
		millis(g.CreatedAt), millis(g.UpdatedAt), millis(g.TurnStartedAt), nullMillis(g.Deadline), g.Reminded, g.MessageID,
		string(styleOr(g.Style)), g.ReplyToken, nullMillis(g.ReplyExpires))
	if err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
			return record.ErrChannelBusy
		}
		return fmt.Errorf("creating game: %w", err)
	}
	if g.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	return insertPlies(ctx, tx, g.ID, 0, g.Plies(), g.CreatedAt)
}

func insertPlies(ctx context.Context, tx *sql.Tx, gameID int64, first int, plies []game.Ply, at time.Time) error {
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
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET position = ?, to_move = ?, plies = plies + ?, version = version + 1,
			updated_at = ?, turn_started_at = ?, deadline_at = ?, reminded = 0, reply_token = ?, reply_expires_at = ?
			WHERE id = ? AND version = ? AND status = 'active'`,
			encodePosition(g.Position()), colorCode(g.Position().ToMove()), len(t.Plies), millis(t.At), millis(t.At),
			nullMillis(t.Deadline), t.ReplyToken, nullMillis(t.ReplyExpires), g.ID, g.Version)
		if err != nil {
			return fmt.Errorf("updating game %d: %w", g.ID, err)
		}
		if err := s.checkChanged(ctx, tx, res, g.ID); err != nil {
			return err
		}
		return insertPlies(ctx, tx, g.ID, len(g.Plies())-len(t.Plies), t.Plies, t.At)
	})
	if err != nil {
		return err
	}
	g.Version++
	g.UpdatedAt, g.TurnStartedAt, g.Deadline, g.Reminded = t.At, t.At, t.Deadline, false
	g.ReplyToken, g.ReplyExpires = t.ReplyToken, t.ReplyExpires
	return nil
}

// SetGameMessage records the chat message that shows a game at a version
// as the game's live message, unless a message of a newer version is
// already recorded (replies can arrive out of order). It returns the
// message it replaces ("" if none or the same) and whether the given
// message became the live one.
func (s *Store) SetGameMessage(ctx context.Context, gameID, version int64, messageID string) (previous string, live bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var current string
		var currentVersion int64
		if err := tx.QueryRowContext(ctx, `SELECT message_id, message_version FROM games WHERE id = ?`, gameID).Scan(&current, &currentVersion); err != nil {
			return fmt.Errorf("reading game %d's message: %w", gameID, err)
		}
		if version < currentVersion && current != messageID {
			return nil
		}
		live = true
		if current != messageID {
			previous = current
		}
		_, err := tx.ExecContext(ctx, `UPDATE games SET message_id = ?, message_version = max(message_version, ?) WHERE id = ?`,
			messageID, version, gameID)
		if err != nil {
			return fmt.Errorf("recording game %d's message: %w", gameID, err)
		}
		return nil
	})
	return previous, live, err
}

// Setting reads a value kept between runs ("" if never set).
func (s *Store) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading setting %s: %w", key, err)
	}
	return v, nil
}

// SetSetting keeps a value between runs.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("writing setting %s: %w", key, err)
	}
	return nil
}

// checkChanged turns "no row updated" into ErrNotFound, ErrNotActive or
// ErrStale.
func (s *Store) checkChanged(ctx context.Context, tx *sql.Tx, res sql.Result, id int64) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 1 {
		return nil
	}
	var status string
	switch err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id = ?`, id).Scan(&status); {
	case errors.Is(err, sql.ErrNoRows):
		return record.ErrNotFound
	case err != nil:
		return err
	case status != string(record.Active):
		return record.ErrNotActive
	}
	return record.ErrStale
}

// MarkReminded notes that the timeout reminder for the current turn went
// out; it reports false if it had already been sent or the turn moved on.
func (s *Store) MarkReminded(ctx context.Context, g *record.Game) (bool, error) {
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

const gameColumns = `g.id, g.guild_id, g.channel_id, g.size, g.black_id, coalesce(pb.name, ''), g.black_level,
	g.white_id, coalesce(pw.name, ''), g.white_level, g.rated, g.status, g.start_position, g.start_to_move,
	g.position, g.to_move,
	g.version, g.created_at, g.updated_at, g.turn_started_at, g.deadline_at, g.reminded, g.message_id, g.style,
	g.reply_token, g.reply_expires_at, r.finished_at, r.black_discs, r.white_discs, r.winner, r.reason`

const gameFrom = ` FROM games g
	LEFT JOIN players pb ON pb.id = g.black_id
	LEFT JOIN players pw ON pw.id = g.white_id
	LEFT JOIN results r ON r.game_id = g.id`

type scanner interface{ Scan(dest ...any) error }

// loaded is a game as its row gives it, before its moves are read: the
// start and the stored position, to rebuild and check its state with.
type loaded struct {
	g          *record.Game
	start, pos game.Position
}

func scanGame(row scanner) (*loaded, error) {
	var (
		g                                    record.Game
		bid, wid, status, start, pos, toMove sql.NullString
		startToMove                          sql.NullString
		bname, wname                         string
		blv, wlv                             sql.NullInt64
		size                                 int
		created, updated, turnStarted        int64
		deadline, replyExpires               sql.NullInt64
		finished, bdiscs, wdiscs             sql.NullInt64
		winner, reason                       sql.NullString
	)
	err := row.Scan(&g.ID, &g.GuildID, &g.ChannelID, &size, &bid, &bname, &blv, &wid, &wname, &wlv, &g.Rated, &status,
		&start, &startToMove, &pos, &toMove, &g.Version, &created, &updated, &turnStarted, &deadline, &g.Reminded, &g.MessageID,
		&g.Style, &g.ReplyToken, &replyExpires, &finished, &bdiscs, &wdiscs, &winner, &reason)
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
	if finished.Valid {
		g.Result = &record.Result{GameID: g.ID, FinishedAt: fromMillis(finished.Int64), BlackDiscs: int(bdiscs.Int64),
			WhiteDiscs: int(wdiscs.Int64), Winner: colorOf(winner.String), Reason: record.EndReason(reason.String)}
	}
	return l, nil
}

func sideOf(id sql.NullString, name string, level sql.NullInt64) record.Side {
	if id.Valid {
		return record.Human(record.Player{ID: id.String, Name: name})
	}
	return record.Bot(int(level.Int64))
}

// complete reads a game's moves and rebuilds its state from them, checked
// against the stored position.
func (s *Store) complete(ctx context.Context, q querier, l *loaded) (*record.Game, error) {
	g := l.g
	rows, err := q.QueryContext(ctx, `SELECT color, square FROM moves WHERE game_id = ? ORDER BY ply`, g.ID)
	if err != nil {
		return nil, fmt.Errorf("loading moves of game %d: %w", g.ID, err)
	}
	defer rows.Close()
	var plies []game.Ply
	for rows.Next() {
		var color, square string
		if err := rows.Scan(&color, &square); err != nil {
			return nil, fmt.Errorf("loading moves of game %d: %w", g.ID, err)
		}
		sq := game.Pass
		if square != "pass" {
			if sq, err = game.ParseSquare(square, l.start.Size()); err != nil {
				return nil, fmt.Errorf("game %d: stored move %q: %w", g.ID, square, err)
			}
		}
		plies = append(plies, game.Ply{Color: colorOf(color), Square: sq})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading moves of game %d: %w", g.ID, err)
	}
	if g.State, err = game.ReplayPlies(l.start, plies); err != nil {
		return nil, fmt.Errorf("game %d: its stored moves do not replay: %w", g.ID, err)
	}
	if !g.Position().Equal(l.pos) {
		return nil, fmt.Errorf("game %d: its stored position is not where its moves lead", g.ID)
	}
	return g, nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Game loads a game by id.
func (s *Store) Game(ctx context.Context, id int64) (*record.Game, error) {
	return s.oneGame(ctx, `SELECT `+gameColumns+gameFrom+` WHERE g.id = ?`, id)
}

// ActiveGame loads the active game of a channel, or record.ErrNotFound.
func (s *Store) ActiveGame(ctx context.Context, channelID string) (*record.Game, error) {
	return s.oneGame(ctx, `SELECT `+gameColumns+gameFrom+` WHERE g.channel_id = ? AND g.status = 'active'`, channelID)
}

func (s *Store) oneGame(ctx context.Context, query string, arg any) (*record.Game, error) {
	l, err := scanGame(s.db.QueryRowContext(ctx, query, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading game: %w", err)
	}
	return s.complete(ctx, s.db, l)
}

// ActiveGames loads every active game, oldest first: what a restart resumes.
func (s *Store) ActiveGames(ctx context.Context) ([]*record.Game, error) {
	return s.games(ctx, `SELECT `+gameColumns+gameFrom+` WHERE g.status = 'active' ORDER BY g.id`)
}

// DueGames loads the active games whose move deadline, or reminder time
// (deadline minus remindBefore, if not yet reminded), is at or before now.
func (s *Store) DueGames(ctx context.Context, now time.Time, remindBefore time.Duration) ([]*record.Game, error) {
	return s.games(ctx, `SELECT `+gameColumns+gameFrom+` WHERE g.status = 'active' AND g.deadline_at IS NOT NULL
		AND (g.deadline_at <= ? OR (g.reminded = 0 AND g.deadline_at <= ?)) ORDER BY g.deadline_at`,
		millis(now), millis(now.Add(remindBefore)))
}

// NextDeadline returns the earliest deadline of an active game (zero if
// none), so a timer can sleep until then.
func (s *Store) NextDeadline(ctx context.Context) (time.Time, error) {
	var n sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT min(deadline_at) FROM games WHERE status = 'active' AND deadline_at IS NOT NULL`).Scan(&n)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading deadlines: %w", err)
	}
	return fromNullMillis(n), nil
}

func (s *Store) games(ctx context.Context, query string, args ...any) ([]*record.Game, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("loading games: %w", err)
	}
	var rowsRead []*loaded
	for rows.Next() {
		l, err := scanGame(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("loading games: %w", err)
		}
		rowsRead = append(rowsRead, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading games: %w", err)
	}
	out := make([]*record.Game, 0, len(rowsRead))
	for _, l := range rowsRead {
		g, err := s.complete(ctx, s.db, l)
		if err != nil {
			// One damaged game must not stop the others from resuming.
			s.logger.Error("skipping a game that does not load", "database", s.path, "err", err)
			continue
		}
		out = append(out, g)
	}
	return out, nil
}

// FinishGame ends an active game with its result in one transaction (the
// game's status, the result row), refused with record.ErrStale if the game
// moved past g.Version. Then it appends the game's line to the results log.
func (s *Store) FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error {
	r.GameID = g.ID
	status := record.Finished
	if r.Reason == record.EndAbort {
		status = record.Aborted
	}
	rated := g.Rated && r.Reason != record.EndAbort
	transcript := game.FormatTranscript(g.State.Moves(), g.Size())
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, version = version + 1, updated_at = ?, deadline_at = NULL
			WHERE id = ? AND version = ? AND status = 'active'`, string(status), millis(r.FinishedAt), g.ID, g.Version)
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
		case r.Reason == record.EndAbort:
			winner, r.Winner = "none", game.Empty
		case r.Winner != game.Empty:
			winner = colorCode(r.Winner)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO results (game_id, guild_id, finished_at, black_id, black_level, white_id,
			white_level, size, black_discs, white_discs, winner, reason, rated, transcript)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.GuildID, millis(r.FinishedAt), bid, blv, wid, wlv, g.Size(), r.BlackDiscs, r.WhiteDiscs, winner,
			string(r.Reason), rated, transcript)
		if err != nil {
			return fmt.Errorf("recording result of game %d: %w", g.ID, err)
		}
		if rate != nil {
			return applyRatings(ctx, tx, g, rate)
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.Status, g.Version, g.Deadline, g.UpdatedAt = status, g.Version+1, time.Time{}, r.FinishedAt
	g.Result = &r
	if s.log != nil {
		if err := s.logResult(ctx, g.ID); err != nil {
			// The game is safely finished; the line follows when the log
			// can be written again.
			s.logger.Error("RESULTS LOG CANNOT BE WRITTEN: retrying in the background", "game", g.ID, "err", err)
			s.retryResultsLog()
		}
	}
	return nil
}
