package bot

// This file is /games: the games running in a server, with where to find
// them, who is to move and since when.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
)

// maxListedGames bounds /games; the message limit would cut it anyway.
const maxListedGames = 50

func (s *Service) listGames(ctx context.Context, req Request) (Response, error) {
	playerID := req.Options["user"]
	if req.GuildID == "" {
		// Every DM shares the empty server id: outside a server, only the
		// asker's own games are theirs to list.
		playerID = req.User.ID
		req.Options = map[string]string{"user": playerID}
	}
	games, err := s.games.RunningGames(ctx, req.GuildID, playerID, maxListedGames+1)
	if err != nil {
		return Response{}, err
	}
	t := req.Pub()
	title := t.T("games.title")
	if playerID != "" {
		title = t.T("games.title_of", "Name", name(Subject(req)))
	}
	if len(games) == 0 {
		text := t.T("games.none")
		if playerID != "" {
			text = t.T("games.none_of", "Name", name(Subject(req)))
		}
		return Response{Message: &Message{Embed: &Embed{Title: Clip(title, MaxEmbedTitle), Description: text}}}, nil
	}
	var entries []string
	for i, g := range games {
		if i == maxListedGames {
			entries = append(entries, t.T("games.more"))
			break
		}
		where := "<#" + g.ChannelID + ">"
		if g.MessageID != "" && req.GuildID != "" {
			where += " · " + t.T("games.board_link", "URL", fmt.Sprintf("https://discord.com/channels/%s/%s/%s", req.GuildID, g.ChannelID, g.MessageID))
		}
		entries = append(entries, t.T("games.entry", "ID", g.ID, "Black", sideLabel(t, g, game.Black), "White", sideLabel(t, g, game.White),
			"Size", g.Size(), "Side", SideName(t, g.ToMove()), "Since", Stamp(g.TurnStartedAt, StampRelative), "Where", where))
	}
	return Response{Message: &Message{Embed: &Embed{Title: Clip(title, MaxEmbedTitle), Description: JoinLines(entries, MaxDescription)}}}, nil
}

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

// visibleHere says whether a game may be named in req's channel: a game
// of this server, or outside servers, a game of this channel or the
// asker's own (every DM shares the empty server id).
func visibleHere(req Request, g *record.Game) bool {
	if g.GuildID != req.GuildID {
		return false
	}
	return req.GuildID != "" || g.ChannelID == req.ChannelID || g.Black.Player.ID == req.User.ID || g.White.Player.ID == req.User.ID
}
