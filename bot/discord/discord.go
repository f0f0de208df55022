// Package discord connects the bot to Discord through discordgo: it
// registers the slash commands, turns interactions into bot.Requests, and
// delivers the bot.Responses: at once when they are quick, or deferred and
// edited in when the engine may think past Discord's 3-second limit.
package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/place"
	"othello-bot/record"
)

// Adapter is the Discord transport. It is also the service's Notifier.
type Adapter struct {
	session *discordgo.Session
	svc     *bot.Service
	guilds  []string
	log     *slog.Logger
	memory  Memory
	// timeout bounds the handling of one interaction (Discord keeps an
	// interaction token for 15 minutes).
	timeout time.Duration

	mu    sync.Mutex
	appID string
	// replies caches the channels where the bot is no member, with their
	// last interaction (see replies.go); the memory keeps them.
	replies map[string]place.Replies

	// inflight counts interactions being handled, up to their last reply,
	// so a shutdown can wait for every reply to be sent.
	inflight sync.WaitGroup
}

// Memory keeps small facts between runs (where the commands were
// registered). The store provides it.
type Memory interface {
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
}

// New returns an adapter over a session. Set the service with SetService
// before interactions arrive. memory may be nil (nothing is remembered).
func New(s *discordgo.Session, appID string, guilds []string, memory Memory, log *slog.Logger) *Adapter {
	if log == nil {
		log = slog.Default()
	}
	return &Adapter{session: s, appID: appID, guilds: guilds, memory: memory, log: log, timeout: 2 * time.Minute,
		replies: map[string]place.Replies{}}
}

// SetAppID sets the application id commands are registered under and
// replies are edited with (from the Ready event).
func (a *Adapter) SetAppID(id string) {
	a.mu.Lock()
	a.appID = id
	a.mu.Unlock()
}

// AppID returns the application id.
func (a *Adapter) AppID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.appID
}

// SetService gives the adapter the command logic.
func (a *Adapter) SetService(svc *bot.Service) { a.svc = svc }

// Wait returns once every interaction being handled has had its replies
// sent (or failed): call it after the gateway is closed, before the
// service shuts down.
func (a *Adapter) Wait() { a.inflight.Wait() }

var optionTypes = map[bot.OptionKind]discordgo.ApplicationCommandOptionType{
	bot.StringOption: discordgo.ApplicationCommandOptionString, bot.IntegerOption: discordgo.ApplicationCommandOptionInteger,
	bot.BooleanOption: discordgo.ApplicationCommandOptionBoolean, bot.UserOption: discordgo.ApplicationCommandOptionUser,
}

// Commands are bot's slash commands as Discord registers them. Global
// commands say where each works: installed to a server or to a user, in
// servers, the bot's DM and private channels; a command that needs the
// bot in the server (tournaments) only for server installs, in servers.
// Commands registered in one server (global false) take neither field:
// Discord keeps them to that server, for its members, and user installs
// never see them.
func Commands(global bool) []*discordgo.ApplicationCommand {
	var out []*discordgo.ApplicationCommand
	for _, c := range bot.Commands() {
		cmd := &discordgo.ApplicationCommand{Name: c.Name, Description: c.Description,
			NameLocalizations: locales(c.NameLocalizations), DescriptionLocalizations: locales(c.DescriptionLocalizations)}
		if global {
			cmd.Contexts, cmd.IntegrationTypes = reach(c.Need)
		}
		cmd.Options = options(c.Options)
		for _, sub := range c.Subcommands {
			cmd.Options = append(cmd.Options, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand,
				Name: sub.Name, Description: sub.Description, Options: options(sub.Options),
				NameLocalizations: *locales(sub.NameLocalizations), DescriptionLocalizations: *locales(sub.DescriptionLocalizations)})
		}
		out = append(out, cmd)
	}
	return out
}

// reach is where a global command is offered, for what it needs.
func reach(n place.Need) (*[]discordgo.InteractionContextType, *[]discordgo.ApplicationIntegrationType) {
	if n == place.BotMember {
		return &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
			&[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	}
	return &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM,
			discordgo.InteractionContextPrivateChannel},
		&[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
}

func options(specs []bot.OptionSpec) []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, o := range specs {
		opt := &discordgo.ApplicationCommandOption{Type: optionTypes[o.Kind], Name: o.Name, Description: o.Description,
			Required: o.Required, Autocomplete: o.Autocomplete, MaxLength: o.MaxLength,
			NameLocalizations: *locales(o.NameLocalizations), DescriptionLocalizations: *locales(o.DescriptionLocalizations)}
		if o.Max > 0 {
			min := float64(o.Min)
			opt.MinValue, opt.MaxValue = &min, float64(o.Max)
		}
		for _, ch := range o.Choices {
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value,
				NameLocalizations: *locales(ch.NameLocalizations)})
		}
		out = append(out, opt)
	}
	return out
}

// commandOptions are the options of the command or, for a subcommand, of
// the subcommand chosen (Discord nests them under it).
func commandOptions(data discordgo.ApplicationCommandInteractionData) (sub string, opts []*discordgo.ApplicationCommandInteractionDataOption) {
	if len(data.Options) == 1 && data.Options[0].Type == discordgo.ApplicationCommandOptionSubCommand {
		return data.Options[0].Name, data.Options[0].Options
	}
	return "", data.Options
}

// locales keys a command's texts by Discord locale.
func locales(m map[string]string) *map[discordgo.Locale]string {
	out := make(map[discordgo.Locale]string, len(m))
	for k, v := range m {
		out[discordgo.Locale(k)] = v
	}
	return &out
}

// scopesKey is the setting that remembers where the commands are
// registered: "global" or server ids.
const scopesKey = "discord.command_scopes"

// Register overwrites the bot's commands in each configured server, or
// globally when none is configured, and clears the commands a former
// configuration left in the other scope (so no command shows twice).
func (a *Adapter) Register(ctx context.Context) error {
	want := a.guilds
	if len(want) == 0 {
		want = []string{"global"}
	}
	var before []string
	if a.memory != nil {
		prev, err := a.memory.Setting(ctx, scopesKey)
		if err != nil {
			return err
		}
		before = strings.Fields(prev)
	}
	app := a.AppID()
	for _, scope := range before {
		if slices.Contains(want, scope) {
			continue
		}
		if _, err := a.session.ApplicationCommandBulkOverwrite(app, guildOf(scope), []*discordgo.ApplicationCommand{},
			discordgo.WithContext(ctx)); err != nil {
			return fmt.Errorf("clearing the commands registered %s before: %w", where(scope), err)
		}
		a.log.Info("cleared old commands", "scope", scope)
	}
	for _, scope := range want {
		if _, err := a.session.ApplicationCommandBulkOverwrite(app, guildOf(scope), Commands(scope == "global"), discordgo.WithContext(ctx)); err != nil {
			return fmt.Errorf("registering commands %s: %w", where(scope), err)
		}
	}
	if a.memory != nil {
		return a.memory.SetSetting(ctx, scopesKey, strings.Join(want, " "))
	}
	return nil
}

func guildOf(scope string) string {
	if scope == "global" {
		return ""
	}
	return scope
}

func where(scope string) string {
	if scope == "global" {
		return "globally"
	}
	return "in server " + scope
}

// autocompleteTime is what an autocomplete answer may take: it cannot be
// deferred, and Discord waits 3 seconds.
const autocompleteTime = 2500 * time.Millisecond

// DispatchEvent is the discordgo handler for interactions, as raw gateway
// events: the interaction with its JSON, which holds what discordgo's
// struct does not (the channel's type, to know a thread). The session runs
// it in its event loop (SyncEvents): it counts the interaction before the
// loop goes on, so Wait after closing the gateway misses none, and
// handles it on its own goroutine.
func (a *Adapter) DispatchEvent(s *discordgo.Session, e *discordgo.Event) {
	ic, ok := e.Struct.(*discordgo.InteractionCreate)
	if e.Type != "INTERACTION_CREATE" || !ok || ic.Interaction == nil {
		return
	}
	a.inflight.Add(1)
	go func() {
		defer a.inflight.Done()
		a.handleRaw(s, ic, e.RawData)
	}()
}

func (a *Adapter) handleRaw(s *discordgo.Session, ic *discordgo.InteractionCreate, raw []byte) {
	a.process(ic.Interaction, raw, func(ctx context.Context, r *discordgo.InteractionResponse) error {
		return s.InteractionRespond(ic.Interaction, r, discordgo.WithContext(ctx))
	})
}

// channelOf reads the partial channel Discord sends with an interaction
// (its type and, for a thread, its parent), which discordgo drops.
func channelOf(raw []byte) (inThread bool, parent string) {
	var v struct {
		Channel *struct {
			Type     int    `json:"type"`
			ParentID string `json:"parent_id"`
		} `json:"channel"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Channel == nil {
		return false, ""
	}
	switch v.Channel.Type {
	case 10, 11, 12: // announcement, public and private threads
		return true, v.Channel.ParentID
	}
	return false, ""
}

// placeOf reads where an interaction comes from: its context and the
// installs that authorized it (discordgo's struct cannot tell an absent
// context from a server's).
func placeOf(raw []byte, inGuild bool) place.Place {
	var v struct {
		Context *int              `json:"context"`
		Owners  map[string]string `json:"authorizing_integration_owners"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return place.FromInteraction(-1, inGuild, nil)
	}
	context := -1
	if v.Context != nil {
		context = *v.Context
	}
	var installs []int
	for k := range v.Owners {
		if n, err := strconv.Atoi(k); err == nil {
			installs = append(installs, n)
		}
	}
	return place.FromInteraction(context, inGuild, installs)
}

// track makes an interaction where the bot is no member its channel's
// newest way to speak (for a button, the message it is on is the reply to
// edit), and forgets a server channel whose server has added the bot
// since (the stored tokens would keep it from posting there, in this
// process or another, after a restart too).
func (a *Adapter) track(req bot.Request, i *discordgo.Interaction) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if req.Place.BotPosts() {
		if req.GuildID != "" {
			if _, known := a.repliesOf(ctx, req.ChannelID); known {
				a.setReplies(ctx, req.ChannelID, nil)
			}
		}
		return
	}
	if req.Kind == bot.Autocomplete {
		return // no reply to edit, nothing to follow up
	}
	issued := req.At
	if issued.IsZero() {
		issued = time.Now()
	}
	r := place.Reply{Token: i.Token, Issued: issued}
	if i.Message != nil && (req.Kind == bot.Button || req.Kind == bot.Select) {
		r.Answered(i.Message.ID)
	}
	a.addReply(ctx, req.ChannelID, r)
}

// responder sends an interaction's first response: by the REST callback
// for interactions from the gateway, as the HTTP answer for interactions
// posted to the bot's endpoint.
type responder func(ctx context.Context, r *discordgo.InteractionResponse) error

// process answers one interaction: its first response through respond,
// the rest by the interaction's webhook.
func (a *Adapter) process(i *discordgo.Interaction, raw []byte, respond responder) {
	ic := &discordgo.InteractionCreate{Interaction: i}
	log := a.log.With("req", ic.ID)
	acked := false
	defer func() {
		if r := recover(); r != nil {
			log.Error("interaction panic", "panic", r, "stack", string(debug.Stack()))
			a.respondError(ic.Interaction, respond, acked)
		}
	}()
	req, refusal := toRequest(ic.Interaction)
	if refusal == ignore {
		return // not something Discord sends a bot: no answer is owed
	}
	if refusal != "" {
		// Nothing the service could act on: say why, change nothing.
		a.refuseUnread(ic.Interaction, respond, refusal)
		return
	}
	req.ID, req.Token = ic.ID, ic.Token
	// A snowflake carries the time Discord made it: when the interaction
	// was received, which a move on a clock is charged up to.
	if at, err := discordgo.SnowflakeTimestamp(ic.ID); err == nil {
		req.At = at.UTC()
	}
	req.InThread, req.ParentID = channelOf(raw)
	req.Place = placeOf(raw, ic.GuildID != "")
	// Interactions in a server always say what the bot may do in the
	// channel; where it is no member it posts nothing of its own, so
	// there is nothing to check.
	req.AppPermissions, req.PermissionsKnown = ic.AppPermissions, ic.GuildID != "" && req.Place == place.Server
	a.track(req, ic.Interaction)
	ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
	defer cancel()
	ctx = bot.WithLogger(ctx, log)

	if req.Kind == bot.Autocomplete {
		actx, cancel := context.WithTimeout(ctx, autocompleteTime)
		defer cancel()
		resp := a.svc.Handle(actx, req)
		choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(resp.Choices))
		for _, c := range resp.Choices {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value})
		}
		a.logFailure(log, "autocomplete", respond(ctx, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		}))
		return
	}
	// Acknowledge first, always: whatever the answer then waits for (a
	// channel's lock, the engine, the database), Discord hears back within
	// its 3 seconds.
	component := req.Kind == bot.Button || req.Kind == bot.Select
	private := req.Kind == bot.Command && bot.PrivateCommand(req.Path())
	deferred := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	switch {
	case component:
		deferred.Type = discordgo.InteractionResponseDeferredMessageUpdate
	case private:
		deferred.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	if err := respond(ctx, deferred); err != nil {
		log.Error("acknowledging interaction", "err", err)
		return
	}
	acked = true
	resp := a.svc.Handle(ctx, req)
	a.deliver(ctx, log, ic.Interaction, resp, component, private, !req.Place.BotPosts())
}

func (a *Adapter) logFailure(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Error("discord: "+what, "err", err)
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
	for k := range resp.Followups {
		m := &resp.Followups[k]
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

// refuseUnread answers an interaction the service never sees with one
// only-you line (catalog id why); an autocomplete gets no choices.
func (a *Adapter) refuseUnread(i *discordgo.Interaction, respond responder, why string) {
	a.log.Info("interaction refused at the edge", "req", i.ID, "why", why, "guild", i.GuildID)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: catalog.For(catalog.FromLocale(string(i.Locale))).T(why),
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}}
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}
	}
	a.logFailure(a.log, "refusing an interaction", respond(context.Background(), resp))
}

func (a *Adapter) respondError(i *discordgo.Interaction, respond responder, acked bool) {
	apology := catalog.For(catalog.FromLocale(string(i.Locale))).T("error.apology")
	var err error
	if !acked {
		err = respond(context.Background(), &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: apology, Flags: discordgo.MessageFlagsEphemeral,
				AllowedMentions: noMentions()},
		})
	}
	if acked || err != nil {
		_, err = a.session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: apology,
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()})
	}
	a.logFailure(a.log, "apologizing", err)
}

// Send posts a message in a channel (the Notifier side); where the bot is
// no member, as a follow-up of the channel's last interaction.
func (a *Adapter) Send(ctx context.Context, channelID string, m bot.Message) (string, error) {
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
func (a *Adapter) Edit(ctx context.Context, channelID, messageID string, m bot.Message) error {
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
func (a *Adapter) RemoveComponents(ctx context.Context, channelID, messageID string) error {
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
func (a *Adapter) CreateThread(ctx context.Context, parentID, name string) (string, error) {
	if _, ok := a.repliesOf(ctx, parentID); ok {
		return "", fmt.Errorf("opening a thread in %s: %w (the bot is no member there)", parentID, bot.ErrThreadsNotAllowed)
	}
	ch, err := a.session.ThreadStartComplex(parentID, &discordgo.ThreadStart{Name: name,
		AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx))
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

// ArchiveThread archives a finished game's thread.
func (a *Adapter) ArchiveThread(ctx context.Context, threadID string) error {
	archived := true
	if _, err := a.session.ChannelEdit(threadID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("archiving thread %s: %w", threadID, err)
	}
	return nil
}

// OnThreadDelete ends the game of a thread deleted mid-game; OnChannelDelete
// that of a deleted channel. Both events come with the Guilds intent.
func (a *Adapter) OnThreadDelete(_ *discordgo.Session, e *discordgo.ThreadDelete) {
	a.channelGone(e.Channel)
}

func (a *Adapter) OnChannelDelete(_ *discordgo.Session, e *discordgo.ChannelDelete) {
	a.channelGone(e.Channel)
}

func (a *Adapter) channelGone(ch *discordgo.Channel) {
	if ch == nil || ch.ID == "" || a.svc == nil {
		return
	}
	a.inflight.Add(1)
	go func() {
		defer a.inflight.Done()
		defer func() {
			if r := recover(); r != nil {
				a.log.Error("channel delete panic", "panic", r, "stack", string(debug.Stack()))
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
		defer cancel()
		a.svc.ChannelDeleted(ctx, ch.ID)
	}()
}

// EditReply finishes an interaction's reply by its token (valid for 15
// minutes), as after a restart.
func (a *Adapter) EditReply(ctx context.Context, token string, m bot.Message) (string, error) {
	i := &discordgo.Interaction{AppID: a.AppID(), Token: token}
	msg, err := a.session.InteractionResponseEdit(i, webhookEdit(m), discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("finishing an earlier reply: %w", err)
	}
	return msg.ID, nil
}

// ignore is toRequest's answer for what needs none.
const ignore = "-"

// isSnowflake says whether s can be a Discord id: a decimal 64-bit number.
func isSnowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 || strings.Trim(s, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// toRequest reads what the bot needs from an interaction, or the catalog
// id of why it cannot be taken: from no user, or with ids that are not
// Discord's. Interactions outside a server (DMs, group DMs) have no guild.
func toRequest(i *discordgo.Interaction) (bot.Request, string) {
	req, ok := readRequest(i)
	switch {
	case !ok:
		return req, ignore
	case !isSnowflake(req.User.ID) || req.GuildID != "" && !isSnowflake(req.GuildID) || !isSnowflake(req.ChannelID):
		return req, ignore
	}
	if req.Kind == bot.Command || req.Kind == bot.Autocomplete {
		_, opts := commandOptions(i.ApplicationCommandData())
		for _, o := range opts {
			if o.Type == discordgo.ApplicationCommandOptionUser && !isSnowflake(req.Options[o.Name]) {
				return req, "error.not_a_user"
			}
		}
	}
	return req, ""
}

func readRequest(i *discordgo.Interaction) (bot.Request, bool) {
	req := bot.Request{GuildID: i.GuildID, ChannelID: i.ChannelID, Locale: string(i.Locale)}
	if i.GuildLocale != nil {
		req.GuildLocale = string(*i.GuildLocale)
	}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = record.Player{ID: i.Member.User.ID, Name: displayName(i.Member.User, i.Member.Nick)}
		req.MemberPermissions = i.Member.Permissions
		req.Roles = i.Member.Roles
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
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		req.Subcommand, opts = commandOptions(data)
		req.Options, req.UserNames, req.BotUsers = map[string]string{}, map[string]string{}, map[string]bool{}
		for _, o := range opts {
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
						req.BotUsers[u.ID] = true
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

// mentions allows exactly the message's deliberate pings: nobody else,
// whatever the text holds (a nickname such as "@everyone" or "<@123>").
func mentions(m bot.Message) *discordgo.MessageAllowedMentions {
	am := noMentions()
	am.Users = m.Mentions
	return am
}

func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// attachments lists a message's files as its attachments: on an edit this
// replaces the earlier ones (the board of the move before) with these, by
// their place among the uploaded files, as API v10 requires and v9 allows.
func attachments(m bot.Message) *[]*discordgo.MessageAttachment {
	list := []*discordgo.MessageAttachment{}
	for i, f := range m.Files {
		list = append(list, &discordgo.MessageAttachment{ID: strconv.Itoa(i), Filename: f.Name})
	}
	return &list
}

func webhookEdit(m bot.Message) *discordgo.WebhookEdit {
	comps, embs := components(m), embeds(m)
	return &discordgo.WebhookEdit{Content: &m.Content, Components: &comps, Embeds: &embs, Files: files(m), Attachments: attachments(m),
		AllowedMentions: mentions(m)}
}

func webhookParams(m bot.Message) *discordgo.WebhookParams {
	p := &discordgo.WebhookParams{Content: m.Content, Embeds: embeds(m), Components: components(m), Files: files(m),
		Attachments: *attachments(m), AllowedMentions: mentions(m)}
	if m.Ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return p
}

func embeds(m bot.Message) []*discordgo.MessageEmbed {
	if m.Embed == nil {
		return []*discordgo.MessageEmbed{}
	}
	e := &discordgo.MessageEmbed{Title: m.Embed.Title, Description: m.Embed.Description, Color: m.Embed.Color, URL: m.Embed.URL}
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
		kind := mime.TypeByExtension(path.Ext(f.Name))
		if kind == "" {
			kind = "application/octet-stream"
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: kind, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// ScheduleEvent lists a tournament among the server's events: an external
// event (it happens in a text channel, which no event type is), from its
// start to its expected end.
func (a *Adapter) ScheduleEvent(ctx context.Context, guildID string, e bot.ScheduledEvent) (string, error) {
	start, end := e.Start.UTC(), e.End.UTC()
	ev, err := a.session.GuildScheduledEventCreate(guildID, &discordgo.GuildScheduledEventParams{
		Name: e.Name, Description: e.Description, ScheduledStartTime: &start, ScheduledEndTime: &end,
		PrivacyLevel: discordgo.GuildScheduledEventPrivacyLevelGuildOnly, EntityType: discordgo.GuildScheduledEventEntityTypeExternal,
		EntityMetadata: &discordgo.GuildScheduledEventEntityMetadata{Location: e.Location},
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("creating a scheduled event: %w", err)
	}
	return ev.ID, nil
}

// SetEventStatus moves a scheduled event on: active, completed, canceled.
func (a *Adapter) SetEventStatus(ctx context.Context, guildID, eventID string, status bot.EventStatus) error {
	if _, err := a.session.GuildScheduledEventEdit(guildID, eventID, &discordgo.GuildScheduledEventParams{
		Status: discordgo.GuildScheduledEventStatus(status)}, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("updating scheduled event %s: %w", eventID, err)
	}
	return nil
}
