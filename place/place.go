// Package place says where in Discord a request comes from and what the
// bot may do there on its own. Since 2024 an app can be installed by a
// user as well as by a server, and then answers in DMs, group DMs and
// servers it is no member of: there it cannot post, edit, open threads or
// read permissions, and everything it shows goes through the interaction's
// own reply and follow-ups, by a token that lives 15 minutes.
package place

import (
	"slices"
	"time"
)

// Place is a kind of channel, as far as the bot's own powers go. The zero
// value is a server channel of a server the bot is in.
type Place int

const (
	// Server is a channel of a server the bot was installed to.
	Server Place = iota
	// ServerWithoutBot is a server channel where only a member's own
	// install answers: the bot is no member of the server.
	ServerWithoutBot
	// BotDM is the direct message channel with the bot's user.
	BotDM
	// PrivateChannel is a group DM, or a DM between two people, reached
	// through a user's install.
	PrivateChannel
)

var names = [...]string{"server", "server-without-bot", "bot-dm", "private-channel"}

func (p Place) String() string {
	if p < 0 || int(p) >= len(names) {
		return "unknown"
	}
	return names[p]
}

// BotPosts says whether the bot may post and edit messages in the channel
// by itself, outside any reply: in its servers and in its own DM.
func (p Place) BotPosts() bool { return p == Server || p == BotDM }

// Threads says whether the bot may open threads here (only a server's
// channels hold threads, and only a member opens them).
func (p Place) Threads() bool { return p == Server }

// InServer says whether the channel is a server's: its games count on the
// server's leaderboard, however the bot was reached.
func (p Place) InServer() bool { return p == Server || p == ServerWithoutBot }

// Need is what a command needs of the place it is used in.
type Need int

const (
	// Anywhere: a command answered in its own replies (games, stats).
	Anywhere Need = iota
	// BotMember: the bot itself must be in the server, to post on its own
	// schedule and in the server's calendar (tournaments, a daily puzzle).
	BotMember
	// BotPosts: the bot must be able to post here on its own later, in a
	// server it is in or its own DM (the pairing pool tells a player of
	// their game where they waited).
	BotPosts
)

// Allows says whether a command with need n can work here.
func (p Place) Allows(n Need) bool {
	switch n {
	case BotMember:
		return p == Server
	case BotPosts:
		return p.BotPosts()
	}
	return true
}

// Discord's interaction context types and installation types.
const (
	ContextGuild          = 0
	ContextBotDM          = 1
	ContextPrivateChannel = 2

	GuildInstall = 0
	UserInstall  = 1
)

// FromInteraction reads the place from what an interaction says: its
// context (absent from old payloads: -1), whether it came from a server,
// and the installations that authorized it. A server interaction that no
// server install authorized reached the bot through a member's own
// install, so the bot is no member there.
func FromInteraction(context int, inGuild bool, installs []int) Place {
	switch {
	case context == ContextBotDM:
		return BotDM
	case context == ContextPrivateChannel:
		return PrivateChannel
	case context == ContextGuild || inGuild:
		if len(installs) > 0 && !slices.Contains(installs, GuildInstall) {
			return ServerWithoutBot
		}
		return Server
	}
	return BotDM // no context and no server: the only DM there was before user installs
}

// TokenLife is how long Discord accepts an interaction's token: replies
// and follow-ups by it must come within this.
const TokenLife = 15 * time.Minute

// FollowupLimit is how many follow-up messages one interaction may have
// when only a user's install authorized it.
const FollowupLimit = 5

// Reply is what the bot may still do through the last interaction of a
// channel where it is no member: follow up, and edit the messages it sent
// with that token: the original response (for a button, the message the
// button is on) and its follow-ups.
type Reply struct {
	Token     string    `json:"token"`
	Issued    time.Time `json:"issued"`
	Original  string    `json:"original,omitempty"`
	Messages  []string  `json:"messages,omitempty"`
	Followups int       `json:"followups,omitempty"`
}

// margin keeps a request from starting on a token about to die in flight.
const margin = 30 * time.Second

// Alive says whether the token can still be used at now.
func (r Reply) Alive(now time.Time) bool {
	return r.Token != "" && now.Before(r.Issued.Add(TokenLife-margin))
}

// CanFollowUp says whether one more follow-up may be sent at now.
func (r Reply) CanFollowUp(now time.Time) bool { return r.Alive(now) && r.Followups < FollowupLimit }

// CanEdit says whether message id can be edited at now.
func (r Reply) CanEdit(id string, now time.Time) bool {
	return r.Alive(now) && id != "" && (id == r.Original || slices.Contains(r.Messages, id))
}

// Answered notes the original response's message.
func (r *Reply) Answered(id string) { r.Original = id }

// FollowedUp notes a follow-up sent with the token.
func (r *Reply) FollowedUp(id string) {
	r.Followups++
	if id != "" && !slices.Contains(r.Messages, id) {
		r.Messages = append(r.Messages, id)
	}
}

// maxReplies bounds the interactions remembered for a channel.
const maxReplies = 8

// Replies are a channel's recent interactions, newest first: a message
// stays editable through the token that sent it while that token lives,
// however many interactions came since.
type Replies []Reply

// Add puts r first and drops the tokens dead at now.
func (rs Replies) Add(r Reply, now time.Time) Replies {
	out := Replies{r}
	for _, old := range rs {
		if old.Token != r.Token && old.Alive(now) && len(out) < maxReplies {
			out = append(out, old)
		}
	}
	return out
}

// ForEdit is the newest live interaction that sent message id.
func (rs Replies) ForEdit(id string, now time.Time) (Reply, bool) {
	for _, r := range rs {
		if r.CanEdit(id, now) {
			return r, true
		}
	}
	return Reply{}, false
}

// ForFollowUp is the newest live interaction that may follow up.
func (rs Replies) ForFollowUp(now time.Time) (Reply, bool) {
	for _, r := range rs {
		if r.CanFollowUp(now) {
			return r, true
		}
	}
	return Reply{}, false
}

// Update applies f to the interaction of token, if remembered.
func (rs Replies) Update(token string, f func(*Reply)) bool {
	for i := range rs {
		if rs[i].Token == token {
			f(&rs[i])
			return true
		}
	}
	return false
}
