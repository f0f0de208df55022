package bot

// This file is how a game ends: by the board, against a loser, with a
// result; the store takes it with its ratings, and the capabilities hear of
// it.

import (
	"context"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// FinishAgainst ends a game that loser lost by reason (resignation, time)
// at at (zero: now); ended before each side moved twice, it is aborted and
// has no winner, except in a tournament, where the pairing needs a result
// (a player who never moves, or withdraws, loses).
func (s *Service) FinishAgainst(ctx context.Context, t *catalog.Printer, g *record.Game, reason record.EndReason, loser game.Color, at time.Time) (string, error) {
	return s.FinishWith(ctx, t, g, lostBy(g, reason, loser, at))
}

// lostBy is the result of g lost by loser (see FinishAgainst).
func lostBy(g *record.Game, reason record.EndReason, loser game.Color, at time.Time) record.Result {
	if g.TournamentID == 0 && (g.MovesBy(game.Black) < 2 || g.MovesBy(game.White) < 2) {
		return record.Result{Reason: record.EndAbort, FinishedAt: at}
	}
	return record.Result{Reason: reason, Winner: loser.Opponent(), FinishedAt: at}
}

// FinishWith stores a game's end as result says (see storeEnd) and
// returns the result line in the words of t.
func (s *Service) FinishWith(ctx context.Context, t *catalog.Printer, g *record.Game, result record.Result) (string, error) {
	if err := s.storeEnd(ctx, g, result); err != nil {
		return "", err
	}
	return ResultLine(t, g), nil
}

// storeEnd stores a game's end as result says (play.Flow.End), and tells
// the listeners.
func (s *Service) storeEnd(ctx context.Context, g *record.Game, result record.Result) error {
	if err := s.flow.End(ctx, g, result, nil); err != nil {
		return err
	}
	s.ended(ctx, g)
	return nil
}

// ended logs a game's end and tells the listeners.
func (s *Service) ended(ctx context.Context, g *record.Game) {
	r := g.Result
	s.Logger(ctx).Info("game over", "game", g.ID, "reason", r.Reason, "black", r.BlackDiscs, "white", r.WhiteDiscs)
	s.gameEnded(ctx, g)
}

// archiveAt is when a finished game's thread is archived: ArchiveAfter
// after its end, unless the thread is gone (play.Config.ArchiveAt).
func (s *Service) archiveAt(g *record.Game, r record.Result) time.Time {
	if g.ParentID == "" || s.cfg.ArchiveAfter <= 0 || r.Note == deletedNote(g) {
		return time.Time{}
	}
	return r.FinishedAt.Add(s.cfg.ArchiveAfter)
}
