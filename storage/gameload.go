package storage

// This file reads games back: a game's row, its moves, its state rebuilt and
// checked.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

func sideOf(id sql.NullString, name string, level sql.NullInt64) record.Side {
	if id.Valid {
		return record.Human(record.Player{ID: id.String, Name: name})
	}
	return record.Bot(int(level.Int64))
}

// errMovedOn: a game changed between the reads of its row and its moves.
var errMovedOn = errors.New("game changed while it was read")

// complete reads a game's moves and rebuilds its state from them, checked
// against the stored position. The row and the moves are read by separate
// statements, so a turn another connection (or process) commits between
// them is caught by the version and the game read again.
func (s *Store) complete(ctx context.Context, q querier, l *loaded) (*record.Game, error) {
	g, err := s.completeOnce(ctx, q, l)
	for attempt := 0; errors.Is(err, errMovedOn) && attempt < 10; attempt++ {
		if l, err = scanGame(q.QueryRowContext(ctx, selectGames(`g.id = ?`, ""), l.g.ID)); err != nil {
			return nil, fmt.Errorf("loading game: %w", err)
		}
		g, err = s.completeOnce(ctx, q, l)
	}
	return g, err
}

func (s *Store) completeOnce(ctx context.Context, q querier, l *loaded) (*record.Game, error) {
	g := l.g
	if st, ok := s.states.get(l); ok {
		g.State = st
		return g, nil
	}
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
		ply, err := storedPly(color, square, l.start.Size())
		if err != nil {
			return nil, fmt.Errorf("game %d: stored move %q: %w", g.ID, square, err)
		}
		plies = append(plies, ply)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading moves of game %d: %w", g.ID, err)
	}
	rows.Close()
	g.State, err = game.ReplayPlies(l.start, plies)
	if err == nil && g.Position().Equal(l.pos) {
		s.states.put(g)
		return g, nil
	}
	var version int64
	if verr := q.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ?`, g.ID).Scan(&version); verr == nil && version != g.Version {
		return nil, errMovedOn
	}
	if err != nil {
		return nil, fmt.Errorf("game %d: its stored moves do not replay: %w", g.ID, err)
	}
	return nil, fmt.Errorf("game %d: its stored position is not where its moves lead", g.ID)
}

// storedPly reads a ply as the moves table holds it: a colour code and a
// square, or "pass".
func storedPly(color, square string, size int) (game.Ply, error) {
	sq := game.Pass
	if square != "pass" {
		var err error
		if sq, err = game.ParseSquare(square, size); err != nil {
			return game.Ply{}, err
		}
	}
	return game.Ply{Color: colorOf(color), Square: sq}, nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Game loads a game by id.
func (s *Store) Game(ctx context.Context, id int64) (*record.Game, error) {
	return s.oneGame(ctx, `g.id = ?`, id, id)
}

// ActiveGame loads the active game of a channel, or record.ErrNotFound.
func (s *Store) ActiveGame(ctx context.Context, channelID string) (*record.Game, error) {
	if g, ok := s.preloaded(ctx, channelID); ok {
		return g, nil
	}
	if g, ok := s.keptActive(channelID); ok {
		return g, nil
	}
	return s.readActive(ctx, channelID)
}

// oneGame loads the game filter picks, likely the game of that id (0 if
// none is known).
func (s *Store) oneGame(ctx context.Context, filter string, arg any, likely int64) (*record.Game, error) {
	if s.dialect == postgresDB {
		return s.oneGameWithMoves(ctx, filter, arg, likely)
	}
	l, err := scanGame(s.db.QueryRowContext(ctx, selectGames(filter, ""), arg))
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
	return s.games(ctx, selectGames(`g.status = 'active'`, "g.id"))
}

// StalledGames loads the active games untouched since before in which the
// bot is to move or no one can: those whose process may have stopped
// mid-move. It reads the other games' rows alone, not their moves —
// checked every few seconds, it must not cost a load of every game.
func (s *Store) StalledGames(ctx context.Context, before time.Time) ([]*record.Game, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, size, position, to_move, black_id IS NULL, white_id IS NULL
		FROM games WHERE status = 'active' AND updated_at < ?`, millis(before))
	if err != nil {
		return nil, fmt.Errorf("finding stalled games: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var (
			id                 int64
			size               int
			pos, toMove        string
			blackBot, whiteBot bool
		)
		if err := rows.Scan(&id, &size, &pos, &toMove, &blackBot, &whiteBot); err != nil {
			rows.Close()
			return nil, fmt.Errorf("finding stalled games: %w", err)
		}
		p, err := decodePosition(size, pos, toMove)
		if err != nil || p.ToMove() == game.Black && blackBot || p.ToMove() == game.White && whiteBot || p.GameOver() {
			ids = append(ids, id) // an unreadable one too: its load says why
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finding stalled games: %w", err)
	}
	var out []*record.Game
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			return out, fmt.Errorf("loading stalled game %d: %w", id, err)
		}
		if g.Status == record.Active {
			out = append(out, g)
		}
	}
	return out, nil
}

// RunningGames loads a server's active games, oldest first, at most limit;
// with playerID set, only those that player plays in.
func (s *Store) RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error) {
	return s.games(ctx, selectGames(`g.status = 'active' AND g.guild_id = ?
		AND (? = '' OR g.black_id = ? OR g.white_id = ?) ORDER BY g.id LIMIT ?`, "g.id"), guildID, playerID, playerID, playerID, limit)
}

// LatestHome tells where the newest game of a channel or thread lives,
// without loading its moves; record.ErrNotFound if there is none.
func (s *Store) LatestHome(ctx context.Context, channelID string) (record.GameHome, error) {
	var h record.GameHome
	var status string
	err := s.db.QueryRowContext(ctx, `SELECT id, parent_id, status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1`,
		channelID).Scan(&h.GameID, &h.ParentID, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return h, record.ErrNotFound
	}
	if err != nil {
		return h, fmt.Errorf("loading the newest game of %s: %w", channelID, err)
	}
	h.Status = record.Status(status)
	return h, nil
}

// GameByPublicID loads a game by its web page's id, or fails with
// record.ErrNotFound.
func (s *Store) GameByPublicID(ctx context.Context, publicID string) (*record.Game, error) {
	gs, err := s.games(ctx, selectGames(`g.public_id = ?`, ""), publicID)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, record.ErrNotFound
	}
	return gs[0], nil
}

// GameVersions returns the version of each game of the given public ids
// (unknown ids are left out), for pages that follow them: the database
// bumps a game's version with every change, so a page needs no clock to
// know a game moved.
func (s *Store) GameVersions(ctx context.Context, publicIDs []string) ([]record.GameVersion, error) {
	var out []record.GameVersion
	const chunk = 500 // well under either database's limit on parameters
	for len(publicIDs) > 0 {
		ids := publicIDs[:min(chunk, len(publicIDs))]
		publicIDs = publicIDs[len(ids):]
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT public_id, version FROM games WHERE public_id IN (`+
			strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("loading games' versions: %w", err)
		}
		for rows.Next() {
			var v record.GameVersion
			if err := rows.Scan(&v.PublicID, &v.Version); err != nil {
				rows.Close()
				return nil, fmt.Errorf("loading games' versions: %w", err)
			}
			out = append(out, v)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("loading games' versions: %w", err)
		}
	}
	return out, nil
}

// ActiveGameCount is how many running games a player plays in.
func (s *Store) ActiveGameCount(ctx context.Context, playerID string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM games WHERE status = 'active' AND black_id = ?)
		+ (SELECT count(*) FROM games WHERE status = 'active' AND white_id = ? AND coalesce(black_id, '') <> ?)`,
		playerID, playerID, playerID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting %s's games: %w", playerID, err)
	}
	return n, nil
}

// DueArchives lists the threads of finished games due to be archived.
func (s *Store) DueArchives(ctx context.Context, now time.Time) ([]record.ThreadToArchive, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, channel_id FROM games WHERE archive_at IS NOT NULL AND archive_at <= ?
		ORDER BY archive_at LIMIT 100`, millis(now))
	if err != nil {
		return nil, fmt.Errorf("loading threads to archive: %w", err)
	}
	defer rows.Close()
	var out []record.ThreadToArchive
	for rows.Next() {
		var t record.ThreadToArchive
		if err := rows.Scan(&t.GameID, &t.ThreadID); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// ClaimArchive takes the archiving of a game's thread, due at or before
// now, for the caller until `until`: true once, for one caller, even when
// several processes share the database; the thread is due again at until
// unless ArchiveDone comes first.
func (s *Store) ClaimArchive(ctx context.Context, gameID int64, now, until time.Time) (bool, error) {
	res, err := s.wdb.ExecContext(ctx, `UPDATE games SET archive_at = ? WHERE id = ? AND archive_at IS NOT NULL AND archive_at <= ?`,
		millis(until), gameID, millis(now))
	if err != nil {
		return false, fmt.Errorf("claiming the archive of game %d's thread: %w", gameID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ArchiveDone notes a game's thread archived: never due again.
func (s *Store) ArchiveDone(ctx context.Context, gameID int64) error {
	if _, err := s.wdb.ExecContext(ctx, `UPDATE games SET archive_at = NULL WHERE id = ?`, gameID); err != nil {
		return fmt.Errorf("noting game %d's thread archived: %w", gameID, err)
	}
	return nil
}

// DueGames loads the active games whose move deadline, or reminder time
// if not yet reminded (remind_at, or else deadline minus remindBefore), is
// at or before now.
func (s *Store) DueGames(ctx context.Context, now time.Time, remindBefore time.Duration) ([]*record.Game, error) {
	return s.games(ctx, selectGames(`g.status = 'active' AND g.deadline_at IS NOT NULL
		AND (g.deadline_at <= ? OR (g.reminded = 0 AND (g.remind_at <= ? OR g.remind_at IS NULL AND g.deadline_at <= ?)))`,
		"g.deadline_at"),
		millis(now), millis(now), millis(now.Add(remindBefore)))
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
