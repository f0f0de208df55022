package discord

// This file is answering a button or a menu: at once with the message
// updated when the answer is quick, else acknowledged and then edited.

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// updateBudget is how long a button's or menu's answer may take and still
// be the interaction's response itself.
const updateBudget = 500 * time.Millisecond

// acknowledge sends the deferral; false if Discord did not take it (an
// endpoint that deferred by itself counts as taken).
func (a *Adapter) acknowledge(ctx context.Context, log *slog.Logger, respond responder, deferred *discordgo.InteractionResponse) bool {
	if err := respond(ctx, deferred); err != nil && !errors.Is(err, errAcknowledged) {
		log.Error("acknowledging interaction", "err", err)
		return false
	}
	return true
}

// updateAtOnce answers a component with UPDATE_MESSAGE when resp changes
// the clicked message (and carries no files, which an endpoint's HTTP
// answer cannot hold), then sends resp's follow-ups; false when resp is
// not such an answer or the response was not taken, and nothing was sent.
func (a *Adapter) updateAtOnce(ctx context.Context, log *slog.Logger, i *discordgo.Interaction, resp bot.Response, respond responder, tracked bool) bool {
	m := resp.Message
	if !resp.Update || m == nil || len(m.Files) > 0 || i.Message == nil {
		return false
	}
	comps, embs := components(*m), embeds(*m)
	update := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Content: m.Content, Embeds: embs, Components: comps, AllowedMentions: mentions(*m), Attachments: attachments(*m)}}
	if err := respond(ctx, update); err != nil {
		if !errors.Is(err, errAcknowledged) {
			log.Warn("answering with the message updated", "err", err)
		}
		return false
	}
	if tracked {
		a.noteSent(ctx, i.ChannelID, i.Token, i.Message.ID, false)
	}
	a.svc.Posted(ctx, i.ChannelID, m, i.Message.ID)
	a.followUps(ctx, log, i, resp, tracked)
	return true
}
