package bot

// This file is how a game ends: by the board, against a loser, with a
// result; the store takes it with its ratings, and the capabilities hear of
// it.

import (
	"context"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/rating/rated"
	"othello-bot/record"
)

// byBoard is the result of a game neither side can move in: the discs
// decide.
func byBoard(g *record.Game) record.Result {
	return record.Result{Reason: record.EndNormal, Winner: g.Position().Winner()}
}

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
	if err := s.storeEnd(ctx, g, result, nil); err != nil {
		return "", err
	}
	return ResultLine(t, g), nil
}

// storeEnd stores a game's end as result says, with the time (now, unless
// it says when) and the discs filled in, and tells the listeners; last,
// when set, is the turn that ended it, stored with the end in one write.
func (s *Service) storeEnd(ctx context.Context, g *record.Game, result record.Result, last *record.Turn) error {
	if result.FinishedAt.IsZero() {
		result.FinishedAt = s.clock.Now()
	}
	result.BlackDiscs, result.WhiteDiscs = g.Position().Count()
	if g.ParentID != "" && result.ArchiveAt.IsZero() && s.cfg.ArchiveAfter > 0 && result.Note != deletedNote(g) {
		result.ArchiveAt = result.FinishedAt.Add(s.cfg.ArchiveAfter)
	}
	var err error
	if last != nil {
		last.End, last.Rate = &result, rated.Update(g, result)
		err = s.games.AppendTurn(ctx, g, *last)
	} else {
		err = s.games.FinishGame(ctx, g, result, rated.Update(g, result))
	}
	if err != nil {
		return err
	}
	s.Logger(ctx).Info("game over", "game", g.ID, "reason", result.Reason, "black", result.BlackDiscs, "white", result.WhiteDiscs)
	s.gameEnded(ctx, g)
	return nil
}
