package review

// This file is /replay: a finished game as an animated GIF, from the
// command or the Replay button on the game's final message.

import (
	"context"
	"fmt"

	"othello-bot/bot"
	"othello-bot/render"
)

// maxReplays bounds the GIFs drawn at once: a 26x26 game takes a second
// of CPU and some tens of megabytes.
const maxReplays = 2

func (s *Service) replayCommand(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, ok := gameOption(req)
	if !ok {
		return bot.Refuse(req.Me().T("replay.which")), nil
	}
	return s.replay(ctx, req, id)
}

func (s *Service) replayButton(ctx context.Context, req bot.Request) (bot.Response, error) {
	id, ok := req.Component().Int(0)
	if !ok {
		return bot.Refuse(req.Me().T("error.button_broken")), nil
	}
	return s.replay(ctx, req, id)
}

func (s *Service) replay(ctx context.Context, req bot.Request, id int64) (bot.Response, error) {
	g, refusal, err := s.FinishedGame(ctx, req, id)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	case <-ctx.Done():
		return bot.Response{}, ctx.Err()
	}
	t := req.Pub()
	b, w := g.Position().Count()
	data, err := render.Replay(g.State.Start(), g.Plies(), bot.Plain(t).Framer(g.State.Start(), g.Plies()), t.T("caption.final", "Black", b, "White", w, "Result", bot.ResultCaption(t, g)))
	if err != nil {
		return bot.Response{}, fmt.Errorf("replay of game %d: %w", g.ID, err)
	}
	name := fmt.Sprintf("game-%d-replay.gif", g.ID)
	return bot.Response{Message: &bot.Message{
		Embed: &bot.Embed{Title: bot.Clip(t.T("replay.title", "ID", g.ID, "Players", bot.GamePlayers(t, g)), bot.MaxEmbedTitle),
			Description: bot.ResultLine(t, g), Image: "attachment://" + name, Color: 0x2e7d32},
		Files: []bot.File{{Name: name, Data: data}},
	}}, nil
}
