package bot

// This file is resignation: the Resign button and /resign ask first, and the
// confirmation ends the game.

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"othello-bot/record"
)

func (s *Service) resignAsk(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req.ChannelID)
	if g == nil {
		return refusal, err
	}
	return s.confirmResign(g, req.User.ID), nil
}

func (s *Service) confirmResign(g *record.Game, userID string) Response {
	if _, playing := playerColor(g, userID); !playing {
		return refuse("You are not playing in this game.")
	}
	id := strconv.FormatInt(g.ID, 10)
	return Response{Message: &Message{Ephemeral: true, Content: fmt.Sprintf("Resign game #%d? This cannot be undone.", g.ID),
		Components: []Row{{Buttons: []ButtonSpec{
			{Label: "Resign", CustomID: "resign-yes:" + id, Style: Danger},
			{Label: "Keep playing", CustomID: "resign-no:" + id, Style: Secondary},
		}}}}}
}

// resignButton is the Resign button on a game message: it asks first.
func (s *Service) resignButton(ctx context.Context, req Request, args string) (Response, error) {
	id, _, ok := parseGamePly(args)
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || ok && err == nil && g.ID != id {
		return refuse("That game is over."), nil
	}
	if err != nil {
		return Response{}, err
	}
	return s.confirmResign(g, req.User.ID), nil
}

func (s *Service) resignConfirm(ctx context.Context, req Request, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return refuse("That button no longer works."), nil
	}
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || err == nil && g.ID != id {
		return Response{Update: true, Message: &Message{Ephemeral: true, Content: "That game is already over."}}, nil
	}
	if err != nil {
		return Response{}, err
	}
	color, playing := playerColor(g, req.User.ID)
	if !playing {
		return refuse("You are not playing in this game."), nil
	}
	note, err := s.finishAgainst(ctx, g, record.EndResign, color)
	if errors.Is(err, record.ErrStale) {
		return refuse("The game changed at the same moment; try again."), nil
	}
	if err != nil {
		return Response{}, err
	}
	final := s.gameMessage(g, []string{fmt.Sprintf("%s resigned.", name(req.User)), note})
	resp := Response{Update: true, Message: &Message{Ephemeral: true, Content: fmt.Sprintf("You resigned game #%d.", g.ID)}}
	if !s.showFinal(ctx, g, *final) {
		// The bot may not post in this channel: the interaction can.
		resp.Followups = []Message{*final}
	}
	return resp, nil
}
