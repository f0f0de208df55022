package discord

// This file is the Poster's REST calls: posting, editing, threads, and
// finishing a reply by its token.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// Send posts a message in a channel (the Notifier side); where the bot is
// no member, as a follow-up of the channel's last interaction.
func (a *Poster) Send(ctx context.Context, channelID string, m bot.Message) (string, error) {
	if rs, ok := a.repliesOf(ctx, channelID); ok {
		return a.followUp(ctx, channelID, rs, m)
	}
	msg, err := a.session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: m.Content, Embeds: embeds(m), Components: components(m), Files: files(m), AllowedMentions: mentions(m),
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("posting in channel %s: %w", channelID, err)
	}
	return msg.ID, nil
}

// Edit replaces a message the bot posted.
func (a *Poster) Edit(ctx context.Context, channelID, messageID string, m bot.Message) error {
	if rs, ok := a.repliesOf(ctx, channelID); ok {
		return a.editByToken(ctx, rs, messageID, webhookEdit(m))
	}
	comps, embs := components(m), embeds(m)
	_, err := a.session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: messageID, Channel: channelID,
		Content: &m.Content, Components: &comps, Embeds: &embs, Files: files(m), Attachments: attachments(m),
		AllowedMentions: mentions(m)}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("editing message %s: %w", messageID, err)
	}
	return nil
}

// RemoveComponents takes the menu and buttons off a message and leaves
// the rest.
func (a *Poster) RemoveComponents(ctx context.Context, channelID, messageID string) error {
	none := []discordgo.MessageComponent{}
	if rs, ok := a.repliesOf(ctx, channelID); ok {
		return a.editByToken(ctx, rs, messageID, &discordgo.WebhookEdit{Components: &none, AllowedMentions: noMentions()})
	}
	_, err := a.session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: messageID, Channel: channelID,
		Components: &none, AllowedMentions: noMentions()}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("removing the menu of message %s: %w", messageID, err)
	}
	return nil
}

// CreateThread opens a public thread off a channel for a game. Discord
// refusing it (no permission, or a channel that cannot hold threads, such
// as a thread) is bot.ErrThreadsNotAllowed.
func (a *Poster) CreateThread(ctx context.Context, parentID, name string) (string, error) {
	if _, ok := a.repliesOf(ctx, parentID); ok {
		return "", fmt.Errorf("opening a thread in %s: %w (the bot is no member there)", parentID, bot.ErrThreadsNotAllowed)
	}
	// Not discordgo's ThreadStart, which always sends invitable: a public
	// thread takes none (only private threads do).
	ch, err := a.startPublicThread(ctx, parentID, name)
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil &&
		(rest.Response.StatusCode == http.StatusForbidden || rest.Response.StatusCode == http.StatusBadRequest) {
		return "", fmt.Errorf("opening a thread in %s: %w (%v)", parentID, bot.ErrThreadsNotAllowed, err)
	}
	if err != nil {
		return "", fmt.Errorf("opening a thread in %s: %w", parentID, err)
	}
	return ch.ID, nil
}

// startPublicThread is Start Thread without Message for a public thread.
func (a *Poster) startPublicThread(ctx context.Context, parentID, name string) (*discordgo.Channel, error) {
	body := map[string]any{"name": name, "auto_archive_duration": 10080, "type": discordgo.ChannelTypeGuildPublicThread}
	endpoint := discordgo.EndpointChannelThreads(parentID)
	data, err := a.session.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	var ch discordgo.Channel
	if err := json.Unmarshal(data, &ch); err != nil {
		return nil, fmt.Errorf("reading the thread Discord opened: %w", err)
	}
	return &ch, nil
}

// ArchiveThread archives a finished game's thread.
func (a *Poster) ArchiveThread(ctx context.Context, threadID string) error {
	archived := true
	if _, err := a.session.ChannelEdit(threadID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("archiving thread %s: %w", threadID, err)
	}
	return nil
}

// EditReply finishes an interaction's reply by its token (valid for 15
// minutes), as after a restart.
func (a *Poster) EditReply(ctx context.Context, token string, m bot.Message) (string, error) {
	i := &discordgo.Interaction{AppID: a.AppID(), Token: token}
	msg, err := a.session.InteractionResponseEdit(i, webhookEdit(m), discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("finishing an earlier reply: %w", err)
	}
	return msg.ID, nil
}

// ignore is toRequest's answer for what needs none.
const ignore = "-"
