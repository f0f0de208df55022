package storage

// This file writes a turn on PostgreSQL in one statement. As a transaction
// (begin, the game's row, a statement a ply, commit) a move with the bot's
// instant reply was five round trips to the server, each a system call or
// two and a wake-up on both sides; one statement is atomic by itself.

import (
	"context"
	"fmt"
	"time"

	"othello-bot/record"
)

// turnAtOnce is turnUpdate and the turn's plies in one statement: the plies
// are inserted only for the row the update returns, so a refused update
// writes nothing and inserts no rows.
const turnAtOnce = `WITH turned AS (` + turnUpdate + ` RETURNING id)
	INSERT INTO moves (game_id, ply, color, square, played_at)
	SELECT turned.id, p.ply, p.color, p.square, ? FROM turned,
		unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS p(ply, color, square)`

// appendTurnAtOnce is AppendTurn's write on PostgreSQL for a turn with
// plies (a turn without any inserts no rows, so the count below could not
// tell a refusal from success).
func (s *Store) appendTurnAtOnce(ctx context.Context, g *record.Game, t record.Turn) (err error) {
	start := time.Now()
	defer func() { s.observe(start, err) }()
	first := g.PlyCount() - len(t.Plies)
	plies := make([]int32, len(t.Plies))
	colors := make([]string, len(t.Plies))
	squares := make([]string, len(t.Plies))
	for i, p := range t.Plies {
		plies[i], colors[i], squares[i] = int32(first+i+1), colorCode(p.Color), p.Square.String()
	}
	res, err := s.wdb.ExecContext(ctx, turnAtOnce, append(turnArgs(g, t), millis(t.At), plies, colors, squares)...)
	if err != nil {
		return fmt.Errorf("recording a turn of game %d: %w", g.ID, err)
	}
	switch n, err := res.RowsAffected(); {
	case err != nil:
		return fmt.Errorf("recording a turn of game %d: %w", g.ID, err)
	case n == 0:
		return whyUnchanged(ctx, s.wdb, g.ID)
	case n != int64(len(t.Plies)):
		return fmt.Errorf("recording a turn of game %d: %d plies written of %d", g.ID, n, len(t.Plies))
	}
	return nil
}
