package bot

// This file is /undo: in a casual game against the bot, the player takes
// back their last move and the bot's reply.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"othello-bot/record"
)

func (s *Service) undo(ctx context.Context, req Request) (Response, error) {
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	color, playing := playerColor(g, req.User.ID)
	switch {
	case !playing:
		return refuse("You are not playing in this game."), nil
	case !g.Black.IsBot() && !g.White.IsBot():
		return refuse("Moves can be taken back only in casual games against me; between members every move stands."), nil
	case g.Rated:
		return refuse("This game is rated, so every move stands."), nil
	case g.ToMove().IsBot():
		return refuse("Let me finish my move first."), nil
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
		return refuse("You have not made a move to take back yet."), nil
	}
	var taken []string
	for _, p := range plies[keep:] {
		if !p.Square.IsPass() {
			taken = append(taken, "**"+p.Square.String()+"**")
		}
	}
	now := s.clock.Now()
	t := record.Turn{At: now}
	if s.cfg.AbandonAfter > 0 {
		t.Deadline = now.Add(s.cfg.AbandonAfter)
	}
	if err := s.store.TakeBack(ctx, g, keep, t); err != nil {
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			return refuse("The game changed at the same moment; try again."), nil
		}
		return Response{}, err
	}
	s.logger(ctx).Info("takeback", "game", g.ID, "plies", len(plies)-keep)
	note := fmt.Sprintf("%s took back %s.", name(req.User), strings.Join(taken, " and "))
	return Response{Message: s.gameMessage(g, []string{note})}, nil
}
