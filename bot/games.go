package bot

// This file is /games: the games running in a server, with where to find
// them, who is to move and since when.

import (
	"context"
	"fmt"

	"othello-bot/game"
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
	games, err := s.store.RunningGames(ctx, req.GuildID, playerID, maxListedGames+1)
	if err != nil {
		return Response{}, err
	}
	t := req.Pub()
	title := t.T("games.title")
	if playerID != "" {
		title = t.T("games.title_of", "Name", name(subject(req)))
	}
	if len(games) == 0 {
		text := t.T("games.none")
		if playerID != "" {
			text = t.T("games.none_of", "Name", name(subject(req)))
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
