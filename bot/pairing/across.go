package pairing

// This file is pairing across servers: where a server allows it
// (/settings pool:open) and nobody on it waits for the same game, a
// newcomer's casual live game (pool.Crosses) is paired with a wait of
// another server that allows it too, or of a player in the bot's DM
// (where /play pairs only so). The game starts where the newcomer is, as
// any pairing does — or, for a newcomer in the DM, in the channel of the
// one who waited; the player from elsewhere cannot move in a channel of a
// server they may not be on, so they play on the game's web page (log in
// with Discord there), told where they asked with its Watch button.

import (
	"context"

	"othello-bot/bot"
	"othello-bot/place"
	"othello-bot/pool"
	"othello-bot/record"
)

// matchAcross pairs the newcomer with another open server's wait, if the
// game may cross and one suits; false when there is none.
func (s *Service) matchAcross(ctx context.Context, req bot.Request, want pool.Want, rating float64) (bot.Response, bool, error) {
	if !pool.Crosses(want) || !s.ServesPages() {
		return bot.Response{}, false, nil
	}
	if req.GuildID != "" { // the bot's DM pairs only across
		open, err := s.store.PoolOpen(ctx, req.GuildID)
		if err != nil || !open {
			return bot.Response{}, false, err
		}
	}
	waiting, err := s.store.OpenPoolEntries(ctx, req.GuildID)
	if err != nil {
		return bot.Response{}, false, err
	}
	for {
		e, ok := pool.Match(req.User.ID, want, rating, plain(waiting))
		if !ok {
			return bot.Response{}, false, nil
		}
		entry := byID(waiting, e.ID)
		waiting = without(waiting, e.ID)
		took, err := s.store.TakePoolEntry(ctx, e.ID)
		if err != nil {
			return bot.Response{}, false, err
		}
		if took {
			resp, err := s.pair(ctx, req, entry, false)
			return resp, true, err
		}
	}
}

// pairedAcross tells both sides of a game paired across servers where it
// is: the one who waited, in their channel and their server's language,
// with the game's Watch button; the newcomer, under the game, that their
// opponent plays on the board.
func (s *Service) pairedAcross(ctx context.Context, req bot.Request, e record.PoolEntry, g *record.Game, resp bot.Response) bot.Response {
	theirs := s.PublicPrinter(ctx, e.GuildID)
	page := s.GamePage(g)
	s.tell(ctx, e, bot.Message{Content: theirs.T("pool.paired_across_ping", "Mention", bot.Mention(e.Player.ID), "Name", bot.Escape(req.User.Name), "ID", g.ID),
		Mentions: []string{e.Player.ID}, Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: theirs.T("button.watch"), URL: page}}}}})
	s.closeWait(ctx, e, theirs.T("pool.paired_across", "Name", bot.Escape(e.Player.Name), "Other", bot.Escape(req.User.Name), "ID", g.ID))
	resp.Followups = append(resp.Followups, bot.Message{Content: s.PublicPrinter(ctx, req.GuildID).T("pool.across_note", "Name", bot.Escape(e.Player.Name))})
	return resp
}

// hostOf is where a pairing's game starts: where the newcomer asked, but
// for a newcomer in the bot's DM (no place for two) in the channel of the
// one who waited.
func hostOf(req bot.Request, e record.PoolEntry) bot.Request {
	if req.GuildID != "" {
		return req
	}
	host := req
	host.GuildID, host.ChannelID, host.Place = e.GuildID, e.ChannelID, place.Server
	host.InThread, host.ParentID, host.Roles, host.MemberPermissions = false, "", nil, 0
	host.PermissionsKnown, host.AppPermissions = false, 0
	host.Token = "" // the DM's interaction answers the newcomer, not the game
	return host
}

// hostedByTheWaiter shows a game that started in the channel of the one
// who waited, for a newcomer who asked in the bot's DM: the one who waited
// is pinged there, and what the game's start answered goes there (to the
// channel: a game in a thread has posted its board there already); the
// newcomer's answer is the way to the game's page. The ping is a message
// of its own, so the game's message keeps within its limits.
func (s *Service) hostedByTheWaiter(ctx context.Context, req bot.Request, e record.PoolEntry, g *record.Game, resp bot.Response) bot.Response {
	theirs := s.PublicPrinter(ctx, e.GuildID)
	s.tell(ctx, e, bot.Message{Content: theirs.T("pool.hosted_ping", "Mention", bot.Mention(e.Player.ID), "Name", bot.Escape(req.User.Name)),
		Mentions: []string{e.Player.ID}})
	if m := resp.Message; m != nil && !m.Ephemeral {
		s.tell(ctx, e, *m)
	}
	for _, f := range resp.Followups {
		if !f.Ephemeral {
			s.tell(ctx, e, f)
		}
	}
	s.closeWait(ctx, e, theirs.T("pool.paired", "Name", bot.Escape(e.Player.Name), "Other", bot.Escape(req.User.Name), "ID", g.ID,
		"Where", "<#"+g.ChannelID+">"))
	resp.Delivered()
	me := req.Me()
	return bot.Response{Message: &bot.Message{Content: me.T("pool.paired_from_dm", "Name", bot.Escape(e.Player.Name), "ID", g.ID),
		Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: me.T("button.watch"), URL: s.GamePage(g)}}}}}}
}
