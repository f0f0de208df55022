package discord

// This file is how a press is answered: in its acknowledgement when the
// answer is quick and fits in one (process), by the interaction's webhook
// otherwise.

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// inlineWithin is how long a press's answer may take to go out in the
// acknowledgement itself (a move against level 1 takes a few
// milliseconds); past it the press is acknowledged and answered after.
const inlineWithin = 50 * time.Millisecond

// answer is the service's answer to a request (or the refusal of its
// attachment). A panic becomes an apology, so the press is still answered.
func (a *Adapter) answer(ctx context.Context, log *slog.Logger, i *discordgo.Interaction, req bot.Request) (resp bot.Response) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("interaction panic", "panic", r, "stack", string(debug.Stack()))
			resp = bot.Refuse(req.Me().T("error.apology"))
		}
	}()
	if why := a.readAttachment(ctx, i, &req); why != "" {
		return bot.Refuse(req.Me().T(why))
	}
	return a.svc.Handle(ctx, req)
}

// inline answers a press in its acknowledgement when the answer allows it
// (see process): an edit of the pressed message with no files, or a line
// only the presser sees. It reports whether it did. Discord's "Receiving
// and Responding" (interaction callback types): UPDATE_MESSAGE (7) is for
// components only and edits the message the component is on; files would
// need a multipart body, which an answer in the HTTP response cannot be.
func (a *Adapter) inline(ctx context.Context, log *slog.Logger, i *discordgo.Interaction, resp bot.Response, respond responder, tracked bool) bool {
	m := resp.Message
	if m == nil || len(m.Files) > 0 || i.Message == nil {
		return false
	}
	data := &discordgo.InteractionResponseData{Content: m.Content, Embeds: embeds(*m), Components: components(*m),
		AllowedMentions: mentions(*m)}
	r := &discordgo.InteractionResponse{Data: data}
	switch {
	case resp.Update:
		// The pressed message becomes the answer (an only-you message
		// stays one): its old attachments go.
		r.Type, data.Attachments = discordgo.InteractionResponseUpdateMessage, attachments(*m)
	case m.Ephemeral && m.Game == nil:
		r.Type, data.Flags = discordgo.InteractionResponseChannelMessageWithSource, discordgo.MessageFlagsEphemeral
	default:
		return false
	}
	if err := respond(ctx, r); errors.Is(err, errAcknowledged) {
		return false // the endpoint acknowledged for it: the webhook edits
	} else if err != nil {
		// Whether Discord has it is unknown: the webhook cannot be told
		// apart from an acknowledgement that never came, so say so only.
		log.Error("answering a press", "err", err)
		return true
	}
	if r.Type == discordgo.InteractionResponseUpdateMessage {
		if tracked {
			a.noteSent(ctx, i.ChannelID, i.Token, i.Message.ID, false)
		}
		a.svc.Posted(ctx, i.ChannelID, m, i.Message.ID)
	}
	return true
}

// followUp posts an answer's follow-ups by the interaction's webhook.
func (a *Adapter) followUp(ctx context.Context, log *slog.Logger, i *discordgo.Interaction, followups []bot.Message, tracked bool) {
	for k := range followups {
		m := &followups[k]
		msg, err := a.session.FollowupMessageCreate(i, true, webhookParams(*m), discordgo.WithContext(ctx))
		a.logFailure(log, "following up", err)
		if err == nil && msg != nil && tracked {
			a.noteSent(ctx, i.ChannelID, i.Token, msg.ID, true)
		}
		if err == nil && msg != nil {
			a.svc.Posted(ctx, i.ChannelID, m, msg.ID)
		}
	}
}

// deliver completes an acknowledged interaction. A refusal after a public
// acknowledgement replaces it with a message only the user sees.
// tracked says the channel is one where the bot is no member, whose
// tokens note what they sent.
func (a *Adapter) deliver(ctx context.Context, log *slog.Logger, i *discordgo.Interaction, resp bot.Response, component, private, tracked bool) {
	if m := resp.Message; m != nil {
		var msg *discordgo.Message
		var err error
		followup := true
		switch {
		case component && resp.Update, !component && (private || !m.Ephemeral):
			followup = false
			msg, err = a.session.InteractionResponseEdit(i, webhookEdit(*m), discordgo.WithContext(ctx))
			a.logFailure(log, "editing the reply", err)
		case !component && m.Ephemeral:
			a.logFailure(log, "removing the acknowledgement", a.session.InteractionResponseDelete(i, discordgo.WithContext(ctx)))
			_, err = a.session.FollowupMessageCreate(i, true, webhookParams(*m), discordgo.WithContext(ctx))
			a.logFailure(log, "following up", err)
		default: // a component whose answer is a new message
			msg, err = a.session.FollowupMessageCreate(i, true, webhookParams(*m), discordgo.WithContext(ctx))
			a.logFailure(log, "following up", err)
		}
		if err == nil && msg != nil && tracked {
			a.noteSent(ctx, i.ChannelID, i.Token, msg.ID, followup)
		}
		if err == nil && msg != nil {
			a.svc.Posted(ctx, i.ChannelID, m, msg.ID)
		}
	}
	a.followUp(ctx, log, i, resp.Followups, tracked)
}

// deferred is the acknowledgement that promises an answer in the form it
// will take: an update of the pressed message, or for a private command a
// message only the user sees.
func deferred(component, private bool) *discordgo.InteractionResponse {
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	switch {
	case component:
		r.Type = discordgo.InteractionResponseDeferredMessageUpdate
	case private:
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return r
}

// deferredFor is the endpoint's own acknowledgement of an interaction
// whose first response is late, in the form process would give it (an
// autocomplete, which cannot be deferred, gets no choices).
func deferredFor(i *discordgo.Interaction) *discordgo.InteractionResponse {
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}
	case discordgo.InteractionMessageComponent:
		return deferred(true, false)
	}
	// A refusal at the edge (refuseUnread) is only-you too.
	req, refusal := toRequest(i)
	return deferred(false, refusal != "" || req.Kind == bot.Command && bot.PrivateCommand(req.Path()))
}
