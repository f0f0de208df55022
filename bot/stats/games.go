package stats

// This file is /games: the running games of this server, or of one
// player, with where each is and who is to move since when.

import (
	"context"
	"fmt"

	"othello-bot/bot"
	"othello-bot/game"
)

// maxListedGames bounds /games; the message limit would cut it anyway.
const maxListedGames = 50

func (s *Service) listGames(ctx context.Context, req bot.Request) (bot.Response, error) {
	playerID := req.Options["user"]
	if req.GuildID == "" {
		// Every DM shares the empty server id: outside a server, only the
		// asker's own games are theirs to list.
		playerID = req.User.ID
		req.Options = map[string]string{"user": playerID}
	}
	games, err := s.store.RunningGames(ctx, req.GuildID, playerID, maxListedGames+1)
	if err != nil {
		return bot.Response{}, err
	}
	t := req.Pub()
	title := t.T("games.title")
	if playerID != "" {
		title = t.T("games.title_of", "Name", bot.Escape(bot.Subject(req).Name))
	}
	if len(games) == 0 {
		text := t.T("games.none")
		if playerID != "" {
			text = t.T("games.none_of", "Name", bot.Escape(bot.Subject(req).Name))
		}
		return bot.Response{Message: &bot.Message{Embed: &bot.Embed{Title: bot.Clip(title, bot.MaxEmbedTitle), Description: text}}}, nil
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
		entries = append(entries, t.T("games.entry", "ID", g.ID, "Black", bot.SideLabel(t, g, game.Black), "White", bot.SideLabel(t, g, game.White),
			"Size", g.Size(), "Side", bot.SideName(t, g.ToMove()), "Since", bot.Stamp(g.TurnStartedAt, bot.StampRelative), "Where", where))
	}
	m := &bot.Message{Embed: &bot.Embed{Title: bot.Clip(title, bot.MaxEmbedTitle), Description: bot.JoinLines(entries, bot.MaxDescription)}}
	// A Watch button to the page of each of the first games (a row
	// holds five).
	var watch []bot.ButtonSpec
	for _, g := range games[:min(len(games), maxListedGames)] {
		if url := s.GamePage(g); url != "" && len(watch) < maxWatchButtons {
			watch = append(watch, bot.ButtonSpec{Label: t.T("games.watch", "ID", g.ID), URL: url})
		}
	}
	if len(watch) > 0 {
		m.Components = []bot.Row{{Buttons: watch}}
	}
	return bot.Response{Message: m}, nil
}

// maxWatchButtons is how many games /games gives a Watch button: one row.
const maxWatchButtons = 5
