package bot

// This file is /games: the games running in a server, with where to find
// them, who is to move and since when.

import (
	"context"
	"errors"
	"strings"

	"othello-bot/record"
)

// Subject is the user a /stats or /history is about: the option, or the
// caller.
func Subject(req Request) record.Player {
	id := strings.TrimSpace(req.Options["user"])
	if id == "" || id == req.User.ID {
		return req.User
	}
	name := req.UserNames[id]
	if name == "" {
		name = id
	}
	return record.Player{ID: id, Name: name}
}

// FinishedGame loads a finished game of this server by number, or says
// why not. Games of other servers are as good as unknown here; outside a
// server, so are games of other DMs the asker did not play.
func (s *Service) FinishedGame(ctx context.Context, req Request, id int64) (*record.Game, *Response, error) {
	g, err := s.games.Game(ctx, id)
	if errors.Is(err, record.ErrNotFound) || err == nil && !visibleHere(req, g) {
		return nil, Refusal(req.Me().T("replay.no_game", "ID", id)), nil
	}
	if err != nil {
		return nil, nil, err
	}
	if g.Status == record.Active {
		return nil, Refusal(req.Me().T("replay.still_going", "ID", id)), nil
	}
	return g, nil, nil
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
