// Package discord connects the bot to Discord through discordgo: it
// registers the slash commands, turns interactions into bot.Requests, and
// delivers the bot.Responses: at once when they are quick, or deferred and
// edited in when the engine may think past Discord's 3-second limit.
package discord

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/record"
)

// Adapter is the Discord transport. It is also the service's Notifier.
type Adapter struct {
	session *discordgo.Session
	svc     *bot.Service
	appID   string
	guilds  []string
	log     *slog.Logger
	// timeout bounds the handling of one interaction (Discord keeps an
	// interaction token for 15 minutes).
	timeout time.Duration
}

// New returns an adapter over a session. Set the service with SetService
// before interactions arrive.
func New(s *discordgo.Session, appID string, guilds []string, log *slog.Logger) *Adapter {
	if log == nil {
		log = slog.Default()
	}
	return &Adapter{session: s, appID: appID, guilds: guilds, log: log, timeout: 2 * time.Minute}
}

// SetAppID sets the application id commands are registered under.
func (a *Adapter) SetAppID(id string) { a.appID = id }

// SetService gives the adapter the command logic.
func (a *Adapter) SetService(svc *bot.Service) { a.svc = svc }

func intOpt(name, desc string, min, max float64, required bool) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: desc,
		MinValue: &min, MaxValue: max, Required: required}
}

// styleOpt picks emoji or a picture for the board; it is remembered.
var styleOpt = &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "style",
	Description: "Board as emoji or as a picture (remembered for next time)",
	Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "emoji", Value: "emoji"}, {Name: "picture", Value: "image"},
		{Name: "automatic (pictures for large boards)", Value: "auto"}}}

// Commands are the slash commands the bot offers.
func Commands() []*discordgo.ApplicationCommand {
	colors := []*discordgo.ApplicationCommandOptionChoice{
		{Name: "black (moves first)", Value: "black"}, {Name: "white", Value: "white"}, {Name: "random", Value: "random"}}
	return []*discordgo.ApplicationCommand{
		{Name: "start", Description: "Start a game of Othello against me in this channel", Options: []*discordgo.ApplicationCommandOption{
			intOpt("level", "How strong I play: 1 (random) to 10 (my best)", 1, 10, false),
			{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "Your colour", Choices: colors},
			intOpt("size", "Board size, an even number from 4 to 26 (default 8)", 4, 26, false),
			styleOpt,
		}},
		{Name: "move", Description: "Play a move, like d3", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "square", Description: "Column letter and row number, like d3",
				Required: true, Autocomplete: true},
		}},
		{Name: "challenge", Description: "Challenge a member (or anyone, if you name nobody) to a game", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who you want to play; leave empty for anyone"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "Your colour", Choices: colors},
			intOpt("size", "Board size, an even number from 4 to 26 (default 8)", 4, 26, false),
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Does it count for the ratings? (default yes)"},
			styleOpt,
		}},
		{Name: "board", Description: "Show this channel's game"},
		{Name: "leaderboard", Description: "The top 10 by rating, and your place", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "scope", Description: "This server or everywhere",
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "this server", Value: "server"}, {Name: "everywhere", Value: "global"}}},
		}},
		{Name: "stats", Description: "Ratings, record, streak and results against each bot level", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
		}},
		{Name: "history", Description: "The last 10 finished games, with transcripts", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose games (default: yours)"},
		}},
		{Name: "hint", Description: "My suggestion for your move (only you see it)"},
		{Name: "resign", Description: "Resign this channel's game (asks first)"},
		{Name: "help", Description: "How to play"},
	}
}

// Register overwrites the bot's commands in each configured server, or
// globally when none is configured.
func (a *Adapter) Register() error {
	scopes := a.guilds
	if len(scopes) == 0 {
		scopes = []string{""}
	}
	for _, g := range scopes {
		if _, err := a.session.ApplicationCommandBulkOverwrite(a.appID, g, Commands()); err != nil {
			where := "globally"
			if g != "" {
				where = "in server " + g
			}
			return fmt.Errorf("registering commands %s: %w", where, err)
		}
	}
	return nil
}

// OnInteraction is the discordgo handler for interactions.
func (a *Adapter) OnInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("interaction panic", "panic", r, "stack", string(debug.Stack()))
			a.respondError(ic.Interaction)
		}
	}()
	req, ok := toRequest(ic.Interaction)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
	defer cancel()

	if req.Kind == bot.Autocomplete {
		resp := a.svc.Handle(ctx, req)
		choices := make([]*discordgo.ApplicationCommandOptionChoice, len(resp.Choices))
		for i, c := range resp.Choices {
			choices[i] = &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value}
		}
		a.check("autocomplete", s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		}))
		return
	}
	component := req.Kind == bot.Button || req.Kind == bot.Select
	if !a.svc.MayThink(req) {
		resp := a.svc.Handle(ctx, req)
		a.respondNow(ic.Interaction, resp, component)
		return
	}
	// Acknowledge first: the engine may think longer than Discord waits.
	deferred := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	private := req.Kind == bot.Command && req.Command == "hint"
	if private {
		deferred.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	if component {
		deferred.Type = discordgo.InteractionResponseDeferredMessageUpdate
	}
	if err := s.InteractionRespond(ic.Interaction, deferred); err != nil {
		a.log.Error("deferring interaction", "err", err)
		return
	}
	resp := a.svc.Handle(ctx, req)
	a.deliverDeferred(ic.Interaction, resp, component, private)
}

func (a *Adapter) check(what string, err error) {
	if err != nil {
		a.log.Error("discord: "+what, "err", err)
	}
}

// respondNow answers within the interaction's first response.
func (a *Adapter) respondNow(i *discordgo.Interaction, resp bot.Response, component bool) {
	if resp.Message == nil {
		resp.Message = &bot.Message{Content: "Done.", Ephemeral: true}
	}
	typ := discordgo.InteractionResponseChannelMessageWithSource
	data := responseData(*resp.Message)
	if component && resp.Update {
		typ = discordgo.InteractionResponseUpdateMessage
		data.Attachments = noAttachments()
	}
	a.check("responding", a.session.InteractionRespond(i, &discordgo.InteractionResponse{Type: typ, Data: data}))
}

// deliverDeferred completes a deferred interaction. A refusal after a public
// acknowledgement replaces it with a message only the user sees.
func (a *Adapter) deliverDeferred(i *discordgo.Interaction, resp bot.Response, component, private bool) {
	if resp.Message == nil {
		return
	}
	m := *resp.Message
	switch {
	case component && resp.Update, !component && (private || !m.Ephemeral):
		_, err := a.session.InteractionResponseEdit(i, webhookEdit(m))
		a.check("editing response", err)
	case !component && m.Ephemeral:
		a.check("removing acknowledgement", a.session.InteractionResponseDelete(i))
		_, err := a.session.FollowupMessageCreate(i, true, webhookParams(m))
		a.check("following up", err)
	default: // a component whose answer is a new message
		_, err := a.session.FollowupMessageCreate(i, true, webhookParams(m))
		a.check("following up", err)
	}
}

func (a *Adapter) respondError(i *discordgo.Interaction) {
	err := a.session.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "Sorry, something went wrong on my side.", Flags: discordgo.MessageFlagsEphemeral},
	})
	if err != nil {
		_, err = a.session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "Sorry, something went wrong on my side.",
			Flags: discordgo.MessageFlagsEphemeral})
	}
	a.check("apologizing", err)
}

// Send posts a message in a channel (the Notifier side).
func (a *Adapter) Send(ctx context.Context, channelID string, m bot.Message) (string, error) {
	msg, err := a.session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: m.Content, Embeds: embeds(m), Components: components(m), Files: files(m),
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("posting in channel %s: %w", channelID, err)
	}
	return msg.ID, nil
}

// Edit replaces a message the bot posted.
func (a *Adapter) Edit(ctx context.Context, channelID, messageID string, m bot.Message) error {
	comps, embs := components(m), embeds(m)
	_, err := a.session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: messageID, Channel: channelID,
		Content: &m.Content, Components: &comps, Embeds: &embs, Files: files(m), Attachments: noAttachments()}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("editing message %s: %w", messageID, err)
	}
	return nil
}

// toRequest reads what the bot needs from an interaction.
func toRequest(i *discordgo.Interaction) (bot.Request, bool) {
	req := bot.Request{GuildID: i.GuildID, ChannelID: i.ChannelID}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = record.Player{ID: i.Member.User.ID, Name: displayName(i.Member.User, i.Member.Nick)}
	case i.User != nil:
		req.User = record.Player{ID: i.User.ID, Name: displayName(i.User, "")}
	default:
		return req, false
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		data := i.ApplicationCommandData()
		req.Kind = bot.Command
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			req.Kind = bot.Autocomplete
		}
		req.Command = data.Name
		req.Options, req.UserNames = map[string]string{}, map[string]string{}
		for _, o := range data.Options {
			req.Options[o.Name] = optionString(o)
			if o.Focused {
				req.Focused = o.Name
			}
			if o.Type == discordgo.ApplicationCommandOptionUser && data.Resolved != nil {
				if u, ok := data.Resolved.Users[req.Options[o.Name]]; ok {
					name := displayName(u, "")
					if mem, ok := data.Resolved.Members[u.ID]; ok && mem.Nick != "" {
						name = mem.Nick
					}
					req.UserNames[u.ID] = name
					if u.Bot {
						req.Options[o.Name+".bot"] = "true"
					}
				}
			}
		}
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		req.CustomID = data.CustomID
		req.Values = data.Values
		req.Kind = bot.Button
		if data.ComponentType == discordgo.SelectMenuComponent {
			req.Kind = bot.Select
		}
	default:
		return req, false
	}
	return req, true
}

func optionString(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	}
	return fmt.Sprint(o.Value)
}

func displayName(u *discordgo.User, nick string) string {
	switch {
	case nick != "":
		return nick
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

func responseData(m bot.Message) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: m.Content, Embeds: embeds(m), Components: components(m), Files: files(m),
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if m.Ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	return d
}

// noAttachments, sent with an edit, drops the message's earlier files, so
// the board picture of the move before does not linger beside the new one.
func noAttachments() *[]*discordgo.MessageAttachment { return &[]*discordgo.MessageAttachment{} }

func webhookEdit(m bot.Message) *discordgo.WebhookEdit {
	comps, embs := components(m), embeds(m)
	return &discordgo.WebhookEdit{Content: &m.Content, Components: &comps, Embeds: &embs, Files: files(m), Attachments: noAttachments()}
}

func webhookParams(m bot.Message) *discordgo.WebhookParams {
	p := &discordgo.WebhookParams{Content: m.Content, Embeds: embeds(m), Components: components(m), Files: files(m),
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if m.Ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return p
}

func embeds(m bot.Message) []*discordgo.MessageEmbed {
	if m.Embed == nil {
		return []*discordgo.MessageEmbed{}
	}
	e := &discordgo.MessageEmbed{Title: m.Embed.Title, Description: m.Embed.Description, Color: m.Embed.Color}
	for _, f := range m.Embed.Fields {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: f.Value, Inline: f.Inline})
	}
	if m.Embed.Footer != "" {
		e.Footer = &discordgo.MessageEmbedFooter{Text: m.Embed.Footer}
	}
	if m.Embed.Image != "" {
		e.Image = &discordgo.MessageEmbedImage{URL: m.Embed.Image}
	}
	return []*discordgo.MessageEmbed{e}
}

var buttonStyles = map[bot.ButtonStyle]discordgo.ButtonStyle{
	bot.Primary: discordgo.PrimaryButton, bot.Secondary: discordgo.SecondaryButton,
	bot.Success: discordgo.SuccessButton, bot.Danger: discordgo.DangerButton,
}

func components(m bot.Message) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, row := range m.Components {
		var items []discordgo.MessageComponent
		if row.Menu != nil {
			menu := discordgo.SelectMenu{CustomID: row.Menu.CustomID, Placeholder: row.Menu.Placeholder}
			for _, o := range row.Menu.Options {
				menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: o.Label, Value: o.Value})
			}
			items = append(items, menu)
		}
		for _, b := range row.Buttons {
			items = append(items, discordgo.Button{Label: b.Label, CustomID: b.CustomID, Style: buttonStyles[b.Style], Disabled: b.Disabled})
		}
		if len(items) > 0 {
			out = append(out, discordgo.ActionsRow{Components: items})
		}
	}
	return out
}

func files(m bot.Message) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range m.Files {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: "image/png", Reader: bytes.NewReader(f.Data)})
	}
	return out
}
