package discord

// This file is how the bot speaks where it is no member (a user's install
// used in a DM, a group DM or a server without the bot): no channel posts,
// no edits of its own, no threads; only the last interaction's token, for
// the 15 minutes it lives, through which it may follow up (five times at
// most) and edit what it sent with it. The Notifier methods take that
// path for such channels and say bot.ErrUnreachable when it is closed.
// A channel keeps its last few interactions, so a message stays editable
// through the token that sent it while that token lives.

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/place"
)

func replyKey(channelID string) string { return "reply/" + channelID }

// repliesOf returns the recent interactions of a channel where the bot is
// no member; ok is false for every other channel.
func (a *Poster) repliesOf(ctx context.Context, channelID string) (place.Replies, bool) {
	a.mu.Lock()
	rs, ok := a.replies[channelID]
	a.mu.Unlock()
	if a.memory == nil {
		return rs, ok
	}
	// The store is the truth: another process may have answered since.
	v, err := a.memory.Setting(ctx, replyKey(channelID))
	if err != nil {
		a.log.Warn("reading a channel's reply tokens", "channel", channelID, "err", err)
		return rs, ok
	}
	if v == "" {
		return nil, false
	}
	var stored place.Replies
	if err := json.Unmarshal([]byte(v), &stored); err != nil {
		a.log.Warn("unreadable reply tokens", "channel", channelID, "err", err)
		return nil, true // still no member there: say unreachable, never post
	}
	return stored, true
}

// setReplies keeps a channel's recent interactions (none forgets the
// channel: the bot is a member there now).
func (a *Poster) setReplies(ctx context.Context, channelID string, rs place.Replies) {
	a.mu.Lock()
	if len(rs) == 0 {
		delete(a.replies, channelID)
	} else {
		a.replies[channelID] = rs
		delete(a.noReplies, channelID)
	}
	a.mu.Unlock()
	if a.memory == nil {
		return
	}
	v := ""
	if len(rs) > 0 {
		b, _ := json.Marshal(rs)
		v = string(b)
	}
	if err := a.memory.SetSetting(ctx, replyKey(channelID), v); err != nil {
		a.log.Warn("keeping a channel's reply tokens", "channel", channelID, "err", err)
	}
}

// addReply makes r the channel's newest interaction.
func (a *Poster) addReply(ctx context.Context, channelID string, r place.Reply) {
	rs, _ := a.repliesOf(ctx, channelID)
	a.setReplies(ctx, channelID, rs.Add(r, time.Now()))
}

// recheckReplies is how long a channel where the bot posts, once found
// without reply tokens, is not looked up again. Only a time without the
// bot as a member there can store tokens (another process's, in that
// time), and a member's channel with stale tokens is one the bot does not
// yet post in as a member — as it was, before this, from the bot's
// joining to the channel's next interaction. Looking on every
// interaction was 5% of a move's CPU.
const recheckReplies = 5 * time.Minute

// memberChannel forgets the reply tokens of a channel where the bot is a
// member now: it posts there as itself.
func (a *Poster) memberChannel(ctx context.Context, channelID string) {
	now := time.Now()
	a.mu.Lock()
	at, checked := a.noReplies[channelID] // keeping tokens here drops the entry (setReplies)
	a.mu.Unlock()
	if checked && now.Sub(at) < recheckReplies {
		return
	}
	if _, known := a.repliesOf(ctx, channelID); known {
		a.setReplies(ctx, channelID, nil)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.noReplies) >= a.sweepNoReplies { // the old ones go: it holds the channels of the last minutes
		for ch, at := range a.noReplies {
			if now.Sub(at) >= recheckReplies {
				delete(a.noReplies, ch)
			}
		}
		a.sweepNoReplies = max(4096, 2*len(a.noReplies))
	}
	a.noReplies[channelID] = now
}

// noteSent records a message sent with a token the channel remembers.
func (a *Poster) noteSent(ctx context.Context, channelID, token, messageID string, followup bool) {
	rs, ok := a.repliesOf(ctx, channelID)
	if !ok {
		return
	}
	if rs.Update(token, func(r *place.Reply) {
		if followup {
			r.FollowedUp(messageID)
		} else {
			r.Answered(messageID)
		}
	}) {
		a.setReplies(ctx, channelID, rs)
	}
}

// interactionOf is enough of an interaction to call its webhook.
func (a *Poster) interactionOf(token string) *discordgo.Interaction {
	return &discordgo.Interaction{AppID: a.AppID(), Token: token}
}

// followUp sends m as a follow-up of the channel's newest interaction
// that may still have one.
func (a *Poster) followUp(ctx context.Context, channelID string, rs place.Replies, m bot.Message) (string, error) {
	r, ok := rs.ForFollowUp(time.Now())
	if !ok {
		return "", bot.ErrUnreachable
	}
	msg, err := a.session.FollowupMessageCreate(a.interactionOf(r.Token), true, webhookParams(m), discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("following up in channel %s: %w", channelID, err)
	}
	a.noteSent(ctx, channelID, r.Token, msg.ID, true)
	return msg.ID, nil
}

// editByToken edits a message through the live interaction that sent it.
func (a *Poster) editByToken(ctx context.Context, rs place.Replies, messageID string, edit *discordgo.WebhookEdit) error {
	r, ok := rs.ForEdit(messageID, time.Now())
	if !ok {
		return bot.ErrUnreachable
	}
	var err error
	if messageID == r.Original {
		_, err = a.session.InteractionResponseEdit(a.interactionOf(r.Token), edit, discordgo.WithContext(ctx))
	} else {
		_, err = a.session.FollowupMessageEdit(a.interactionOf(r.Token), messageID, edit, discordgo.WithContext(ctx))
	}
	if err != nil {
		return fmt.Errorf("editing message %s by its interaction: %w", messageID, err)
	}
	return nil
}
