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
	games, err := s.store.RunningGames(ctx, req.GuildID, playerID, maxListedGames+1)
	if err != nil {
		return Response{}, err
	}
	title := "Running games"
	if playerID != "" {
		title += " · " + name(subject(req))
	}
	if len(games) == 0 {
		text := "No games are running here right now. /start plays me, /challenge plays a friend."
		if playerID != "" {
			text = fmt.Sprintf("%s has no running games here.", name(subject(req)))
		}
		return Response{Message: &Message{Embed: &Embed{Title: clip(title, MaxEmbedTitle), Description: text}}}, nil
	}
	var entries []string
	for i, g := range games {
		if i == maxListedGames {
			entries = append(entries, "…and more.")
			break
		}
		where := "<#" + g.ChannelID + ">"
		if g.MessageID != "" && req.GuildID != "" {
			where += fmt.Sprintf(" · [board](https://discord.com/channels/%s/%s/%s)", req.GuildID, g.ChannelID, g.MessageID)
		}
		entries = append(entries, fmt.Sprintf("**#%d** %s vs %s (%dx%d) · %s to move since %s · %s", g.ID,
			sideLabel(g, game.Black), sideLabel(g, game.White), g.Size(), g.Size(), sideName(g.ToMove()),
			stamp(g.TurnStartedAt, stampRelative), where))
	}
	return Response{Message: &Message{Embed: &Embed{Title: clip(title, MaxEmbedTitle), Description: joinLines(entries, MaxDescription)}}}, nil
}
