package bot

// This file is resignation: the Resign button and /resign ask first, and the
// confirmation ends the game.

import (
	"context"
	"errors"
	"strconv"
	"time"

	"othello-bot/record"
)

func (s *Service) resignAsk(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	return s.confirmResign(req, g), nil
}

func (s *Service) confirmResign(req Request, g *record.Game) Response {
	me := req.Me()
	if _, playing := PlayerColor(g, req.User.ID); !playing {
		return Refuse(me.T("error.not_playing"))
	}
	id := strconv.FormatInt(g.ID, 10)
	return Response{Message: &Message{Ephemeral: true, Content: me.T("resign.ask", "ID", g.ID),
		Components: []Row{{Buttons: []ButtonSpec{
			{Label: me.T("button.resign"), CustomID: "resign-yes:" + id, Style: Danger},
			{Label: me.T("button.keep_playing"), CustomID: "resign-no:" + id, Style: Secondary},
		}}}}}
}

// resignButton is the Resign button on a game message: it asks first.
func (s *Service) resignButton(ctx context.Context, req Request, args string) (Response, error) {
	id, _, ok := parseGamePly(args)
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || ok && err == nil && g.ID != id {
		return Refuse(req.Me().T("resign.over")), nil
	}
	if err != nil {
		return Response{}, err
	}
	return s.confirmResign(req, g), nil
}

func (s *Service) resignConfirm(ctx context.Context, req Request, args string) (Response, error) {
	me, pub := req.Me(), req.Pub()
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return Refuse(me.T("error.button_broken")), nil
	}
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) || err == nil && g.ID != id {
		return Response{Update: true, Message: &Message{Ephemeral: true, Content: me.T("resign.already_over")}}, nil
	}
	if err != nil {
		return Response{}, err
	}
	color, playing := PlayerColor(g, req.User.ID)
	if !playing {
		return Refuse(me.T("error.not_playing")), nil
	}
	note, err := s.FinishAgainst(ctx, pub, g, record.EndResign, color, time.Time{})
	if errors.Is(err, record.ErrStale) {
		return Refuse(me.T("error.changed_meanwhile")), nil
	}
	if err != nil {
		return Response{}, err
	}
	final := s.GameMessage(pub, g, []string{pub.T("resign.resigned", "Name", name(req.User)), note})
	resp := Response{Update: true, Message: &Message{Ephemeral: true, Content: me.T("resign.done", "ID", g.ID)}}
	if !s.ShowFinal(ctx, g, *final) {
		// The bot may not post in this channel: the interaction can.
		resp.Followups = []Message{*final}
	}
	return resp, nil
}
