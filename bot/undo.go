package bot

// This file is /undo: in a casual game against the bot, the player takes
// back their last move and the bot's reply.

import (
	"context"
	"errors"

	"othello-bot/catalog"
	"othello-bot/record"
)

func (s *Service) undo(ctx context.Context, req Request) (Response, error) {
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	me, pub := req.Me(), req.Pub()
	color, playing := PlayerColor(g, req.User.ID)
	switch {
	case !playing:
		return Refuse(me.T("error.not_playing")), nil
	case !g.Black.IsBot() && !g.White.IsBot():
		return Refuse(me.T("undo.pvp")), nil
	case g.Rated:
		return Refuse(me.T("undo.rated")), nil
	case live(g):
		return Refuse(me.T("undo.clock")), nil
	case g.ToMove().IsBot():
		return Refuse(me.T("undo.thinking")), nil
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
		return Refuse(me.T("undo.nothing")), nil
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
		t.RemindAt = t.Deadline // no reminder against the bot
	}
	if err := s.games.TakeBack(ctx, g, keep, t); err != nil {
		if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
			return Refuse(me.T("error.changed_meanwhile")), nil
		}
		return Response{}, err
	}
	s.Logger(ctx).Info("takeback", "game", g.ID, "plies", len(plies)-keep)
	note := pub.T("undo.took_back", "Name", name(req.User), "Moves", joinAnd(pub, taken))
	return Response{Message: s.GameMessage(pub, g, []string{note})}, nil
}

// joinAnd lists things in the reader's words: "d3 and c5".
func joinAnd(t *catalog.Printer, items []string) string {
	if len(items) == 0 {
		return ""
	}
	out := items[0]
	for _, it := range items[1:] {
		out = t.T("list.and", "A", out, "B", it)
	}
	return out
}
