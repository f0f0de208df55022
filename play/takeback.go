package play

import (
	"context"
	"errors"

	"othello-bot/game"
	"othello-bot/record"
)

// The refusals of a takeback, for the caller to put in words.
var (
	ErrBetweenMembers = errors.New("play: no takebacks between members")
	ErrRated          = errors.New("play: no takebacks in a rated game")
	ErrOnClock        = errors.New("play: no takebacks on a clock")
	ErrBotThinking    = errors.New("play: the bot is to move")
	ErrNothingToTake  = errors.New("play: no move of the player's to take back")
)

// TakeBack takes back, in a casual game against the bot with no clock,
// player's last move and the bot's reply after it: the game rewinds to
// before that move (one write), and taken are the plies undone.
func (f *Flow) TakeBack(ctx context.Context, g *record.Game, player string) (taken []game.Ply, err error) {
	color, playing := Color(g, player)
	switch {
	case !playing:
		return nil, ErrNotPlaying
	case !g.Black.IsBot() && !g.White.IsBot():
		return nil, ErrBetweenMembers
	case g.Rated:
		return nil, ErrRated
	case g.Control.Live():
		return nil, ErrOnClock
	case g.ToMove().IsBot():
		return nil, ErrBotThinking
	}
	plies := g.Plies()
	keep := -1
	for i := len(plies) - 1; i >= 0; i-- {
		if plies[i].Color == color && !plies[i].Square.IsPass() {
			keep = i
			break
		}
	}
	if keep < 0 {
		return nil, ErrNothingToTake
	}
	taken = append([]game.Ply(nil), plies[keep:]...)
	// The player's turn starts again now, with its timers (the wait of a
	// game against the bot left alone).
	if err := f.store.TakeBack(ctx, g, keep, f.Timers(g, record.Turn{At: f.now()})); err != nil {
		return nil, err
	}
	return taken, nil
}
