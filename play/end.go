package play

import (
	"context"
	"errors"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// ErrTooLate: a player asked to abort after each side moved twice.
var ErrTooLate = errors.New("play: too late to abort")

// Resign ends g against player, who resigned.
func (f *Flow) Resign(ctx context.Context, g *record.Game, player string) error {
	color, playing := Color(g, player)
	if !playing {
		return ErrNotPlaying
	}
	return f.End(ctx, g, LostBy(g, record.EndResign, color, time.Time{}), nil)
}

// Abort ends g without a result at a player's word, which they may give
// while a side has not moved twice (a moderator's abort is an End with
// record.EndModerator).
func (f *Flow) Abort(ctx context.Context, g *record.Game, player string) error {
	if _, playing := Color(g, player); !playing {
		return ErrNotPlaying
	}
	if !Early(g) {
		return ErrTooLate
	}
	return f.End(ctx, g, record.Result{Reason: record.EndAbort}, nil)
}

// Flag ends a live game whose side to move's time is up, as of the
// moment it was: lost on time, or aborted when that side's first move
// never came — except in a tournament, where a player who never moves
// loses (the first-move abort would let them dodge a pairing). lost says
// it is a loss on time.
func (f *Flow) Flag(ctx context.Context, g *record.Game) (lost bool, err error) {
	k := g.Clock()
	result := LostBy(g, record.EndTimeout, g.Position().ToMove(), k.Due())
	if !k.Timed() && g.TournamentID == 0 {
		result = record.Result{Reason: record.EndAbort, FinishedAt: k.Due()}
	}
	if err := f.End(ctx, g, result, nil); err != nil {
		return false, err
	}
	return g.Result != nil && g.Result.Reason == record.EndTimeout, nil
}

// LostBy is the result of g lost by loser for reason at at (zero: when
// it is stored); a game ended before each side moved twice is aborted,
// with no winner, except in a tournament, where the pairing needs a
// result.
func LostBy(g *record.Game, reason record.EndReason, loser game.Color, at time.Time) record.Result {
	if g.TournamentID == 0 && Early(g) {
		return record.Result{Reason: record.EndAbort, FinishedAt: at}
	}
	return record.Result{Reason: reason, Winner: loser.Opponent(), FinishedAt: at}
}

// Early says a side of g has not moved twice yet: a player may still
// abort it, and a loss then is no loss.
func Early(g *record.Game) bool { return g.MovesBy(game.Black) < 2 || g.MovesBy(game.White) < 2 }
