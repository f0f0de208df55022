package bot

// This file is how a game ends: by the board, against a loser, with a
// result; the store takes it with its ratings, and the capabilities hear of
// it.

import (
	"context"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
)

// FinishAgainst ends a game that loser lost by reason (resignation, time)
// at at (zero: now); see play.LostBy.
func (s *Service) FinishAgainst(ctx context.Context, t *catalog.Printer, g *record.Game, reason record.EndReason, loser game.Color, at time.Time) (string, error) {
	return s.FinishWith(ctx, t, g, play.LostBy(g, reason, loser, at))
}

// FinishWith stores a game's end as result says (play.Flow.End) and
// returns the result line in the words of t.
func (s *Service) FinishWith(ctx context.Context, t *catalog.Printer, g *record.Game, result record.Result) (string, error) {
	if err := s.flow.End(ctx, g, result, nil); err != nil {
		return "", err
	}
	return ResultLine(t, g), nil
}

// ended logs a game's end and tells the listeners (play.Config.Ended).
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

// EndShown ends g as result says (play.Flow.End) and shows its final
// board where it lives, line first: the door of an end no member's press
// in the game made (a tournament's withdrawal).
func (s *Service) EndShown(ctx context.Context, pub *catalog.Printer, g *record.Game, result record.Result, line string) error {
	if err := s.flow.End(ctx, g, result, nil); err != nil {
		return err
	}
	s.ShowFinal(ctx, g, *s.GameMessage(pub, g, []string{line, ResultLine(pub, g)}))
	return nil
}
