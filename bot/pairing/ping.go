package pairing

// This file is the pool's role ping: a server's admins may name a role
// (/settings play-role:@role; @everyone turns it off) that is pinged when a
// member starts waiting, so those who want a game hear of one. A server
// hears it at most once every pingEvery, however often members come and go.

import (
	"context"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
)

// pingEvery is the least time between two pings of a server's role.
const pingEvery = 10 * time.Minute

// PermMentionEveryone lets the bot ping a role that is not mentionable.
const PermMentionEveryone int64 = 1 << 17

// ping is the message that pings the server's role for a new wait, when
// it has one and its pause is over. It follows the wait's message rather
// than being written into it: the wait is the command's answer, which may
// reach Discord as the edit of a deferred response, and an edit notifies
// nobody.
func (s *Service) ping(ctx context.Context, t *catalog.Printer, e record.PoolEntry) []bot.Message {
	if e.GuildID == "" {
		return nil // a DM has no roles
	}
	role, err := s.store.PlayRole(ctx, e.GuildID)
	if err != nil {
		s.Logger(ctx).Warn("reading the pool's role", "guild", e.GuildID, "err", err)
		return nil
	}
	if role == "" || !s.pinged.Take(e.GuildID, s.Now()) {
		return nil
	}
	m := bot.Message{Content: t.T("pool.ping", "Role", "<@&"+role+">", "Name", bot.Escape(e.Player.Name)), RoleMentions: []string{role}}
	id := e.ID
	m.OnPosted(func(ctx context.Context, messageID string) {
		if err := s.store.SetPoolPing(ctx, id, messageID); err != nil {
			s.Logger(ctx).Warn("recording a wait's ping", "entry", id, "err", err)
		}
	})
	return []bot.Message{m}
}

// endPing says on a wait's ping what became of the wait (what: the
// catalog id of taken, left or lapsed) and when, so nobody answers a ping read later for a
// game that is gone. An edit notifies nobody.
func (s *Service) endPing(ctx context.Context, e record.PoolEntry, what string) {
	if e.PingMessageID == "" {
		return
	}
	t := s.PublicPrinter(ctx, e.GuildID)
	text := t.T(what, "Name", bot.Escape(e.Player.Name), "When", bot.Stamp(s.Now(), bot.StampRelative))
	if err := s.Edit(ctx, e.ChannelID, e.PingMessageID, bot.Message{Content: text}); err != nil {
		s.Logger(ctx).Warn("saying on a ping what became of its wait", "entry", e.ID, "err", err)
	}
}
