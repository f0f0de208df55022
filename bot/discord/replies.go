package discord

// This file is how the bot speaks where it is no member (a user's install
// used in a DM, a group DM or a server without the bot): no channel posts,
// no edits of its own, no threads; only the last interaction's token, for
// the 15 minutes it lives, through which it may follow up (five times at
// most) and edit what it sent with it. The Notifier methods take that
// path for such channels and say bot.ErrUnreachable when it is closed.

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

// replyOf returns the last interaction of a channel where the bot is no
// member; ok is false for every other channel.
func (a *Adapter) replyOf(ctx context.Context, channelID string) (place.Reply, bool) {
	a.mu.Lock()
	r, ok := a.replies[channelID]
	a.mu.Unlock()
	if a.memory == nil {
		return r, ok
	}
	// The store is the truth: another process may have answered since.
	v, err := a.memory.Setting(ctx, replyKey(channelID))
	if err != nil {
		a.log.Warn("reading a channel's reply token", "channel", channelID, "err", err)
		return r, ok
	}
	if v == "" {
		return place.Reply{}, false
	}
	var stored place.Reply
	if err := json.Unmarshal([]byte(v), &stored); err != nil {
		a.log.Warn("unreadable reply token", "channel", channelID, "err", err)
		return place.Reply{}, true // still no member there: say unreachable, never post
	}
	return stored, true
}

// setReply makes r the channel's way to speak (an empty token forgets the
// channel: the bot is a member there now).
func (a *Adapter) setReply(ctx context.Context, channelID string, r place.Reply) {
	a.mu.Lock()
	if r.Token == "" {
		delete(a.replies, channelID)
	} else {
		a.replies[channelID] = r
	}
	a.mu.Unlock()
	if a.memory == nil {
		return
	}
	v := ""
	if r.Token != "" {
		b, _ := json.Marshal(r)
		v = string(b)
	}
	if err := a.memory.SetSetting(ctx, replyKey(channelID), v); err != nil {
		a.log.Warn("keeping a channel's reply token", "channel", channelID, "err", err)
	}
}

// noteSent records a message sent with a token, if that token is still the
// channel's newest.
func (a *Adapter) noteSent(ctx context.Context, channelID, token, messageID string, followup bool) {
	r, ok := a.replyOf(ctx, channelID)
	if !ok || r.Token != token {
		return
	}
	if followup {
		r.FollowedUp(messageID)
	} else {
		r.Answered(messageID)
	}
	a.setReply(ctx, channelID, r)
}

// interactionOf is enough of an interaction to call its webhook.
func (a *Adapter) interactionOf(token string) *discordgo.Interaction {
	return &discordgo.Interaction{AppID: a.AppID(), Token: token}
}

// followUp sends m as a follow-up of the channel's last interaction.
func (a *Adapter) followUp(ctx context.Context, channelID string, r place.Reply, m bot.Message) (string, error) {
	if !r.CanFollowUp(time.Now()) {
		return "", bot.ErrUnreachable
	}
	msg, err := a.session.FollowupMessageCreate(a.interactionOf(r.Token), true, webhookParams(m), discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("following up in channel %s: %w", channelID, err)
	}
	a.noteSent(ctx, channelID, r.Token, msg.ID, true)
	return msg.ID, nil
}

// editByToken edits a message sent with the channel's last interaction.
func (a *Adapter) editByToken(ctx context.Context, r place.Reply, messageID string, edit *discordgo.WebhookEdit) error {
	if !r.CanEdit(messageID, time.Now()) {
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
