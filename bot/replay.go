package bot

// This file is /replay: a finished game as an animated GIF, from the
// command or the Replay button on the game's final message.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"othello-bot/record"
	"othello-bot/render"
)

// maxReplays bounds the GIFs drawn at once: a 26x26 game takes a second
// of CPU and some tens of megabytes.
const maxReplays = 2

func (s *Service) replayCommand(ctx context.Context, req Request) (Response, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(req.Options["game"]), "#"), 10, 64)
	if err != nil || id < 1 {
		return Refuse(req.Me().T("replay.which")), nil
	}
	return s.replay(ctx, req, id)
}

func (s *Service) replayButton(ctx context.Context, req Request, args string) (Response, error) {
	id, err := strconv.ParseInt(args, 10, 64)
	if err != nil {
		return Refuse(req.Me().T("error.button_broken")), nil
	}
	return s.replay(ctx, req, id)
}

// FinishedGame loads a finished game of this server by number, or says
// why not. Games of other servers are as good as unknown here; outside a
// server, so are games of other DMs the asker did not play.
func (s *Service) FinishedGame(ctx context.Context, req Request, id int64) (*record.Game, *Response, error) {
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, record.ErrNotFound) || err == nil && !visibleHere(req, g) {
		r := Refuse(req.Me().T("replay.no_game", "ID", id))
		return nil, &r, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if g.Status == record.Active {
		r := Refuse(req.Me().T("replay.still_going", "ID", id))
		return nil, &r, nil
	}
	return g, nil, nil
}

func (s *Service) replay(ctx context.Context, req Request, id int64) (Response, error) {
	g, refusal, err := s.FinishedGame(ctx, req, id)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
	t := req.Pub()
	b, w := g.Position().Count()
	data, err := render.Replay(g.State.Start(), g.Plies(), plain(t).Framer(g.State.Start(), g.Plies()), t.T("caption.final", "Black", b, "White", w, "Result", resultCaption(t, g)))
	if err != nil {
		return Response{}, fmt.Errorf("replay of game %d: %w", g.ID, err)
	}
	name := fmt.Sprintf("game-%d-replay.gif", g.ID)
	return Response{Message: &Message{
		Embed: &Embed{Title: Clip(t.T("replay.title", "ID", g.ID, "Players", GamePlayers(t, g)), MaxEmbedTitle),
			Description: resultLine(t, g), Image: "attachment://" + name, Color: 0x2e7d32},
		Files: []File{{Name: name, Data: data}},
	}}, nil
}

// visibleHere says whether a game may be named in req's channel: a game
// of this server, or outside servers, a game of this channel or the
// asker's own (every DM shares the empty server id).
func visibleHere(req Request, g *record.Game) bool {
	if g.GuildID != req.GuildID {
		return false
	}
	return req.GuildID != "" || g.ChannelID == req.ChannelID || g.Black.Player.ID == req.User.ID || g.White.Player.ID == req.User.ID
}
