package storage

// This file loads a game on PostgreSQL in one round trip even when another
// process made its last move (two thirds of moves with three processes
// behind a round-robin balancer): its row comes with the moves after the
// ones this process keeps — all of them when it keeps none — so its state
// is rebuilt without reading the moves by a second statement. One
// statement also reads the row and the moves from one snapshot. SQLite
// reads without a round trip, and its one process nearly always keeps the
// state, so it reads as before.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
)

// movesAfter is one more column of a game's row: its moves, each a colour
// code and a square, space-separated, after the first ? plies if the game
// is game ? with ? takebacks (the kept state's: a takeback is the only
// write that removes moves, so those plies are still its first), else all
// of them; NULL if there are none.
const movesAfter = `, (SELECT string_agg(m.color || m.square, ' ' ORDER BY m.ply) FROM moves m
	WHERE m.game_id = g.id AND m.ply > CASE WHEN g.id = ? AND g.takebacks = ? THEN ? ELSE 0 END)`

// oneGameWithMoves is oneGame on PostgreSQL.
func (s *Store) oneGameWithMoves(ctx context.Context, filter string, arg any, likely int64) (*record.Game, error) {
	kept, isKept := s.states.kept(likely)
	var moves sql.NullString
	l, err := scanGame(s.db.QueryRowContext(ctx, selectColumns(gameColumns+movesAfter, filter, ""),
		likely, kept.takebacks, kept.plies, arg), &moves)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, record.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("loading game: %w", err)
	}
	return s.withMoves(ctx, l, kept, isKept, likely, moves.String)
}

// replayWith is l's game rebuilt from the plies base and then moves (as
// movesAfter gives them) and kept, or nil if they do not lead to its
// stored position.
func (s *Store) replayWith(l *loaded, base []game.Ply, moves string) *record.Game {
	plies := base
	for m := range strings.FieldsSeq(moves) {
		ply, err := storedPly(m[:1], m[1:], l.start.Size())
		if err != nil {
			return nil
		}
		plies = append(plies, ply)
	}
	st, err := game.ReplayPlies(l.start, plies)
	if err != nil || !st.Position().Equal(l.pos) {
		return nil
	}
	l.g.State = st
	s.states.put(l.g)
	return l.g
}
