package discord

// This file is an interaction's way through the adapter: read from the
// gateway or HTTP, acknowledged at once, handled by the service, its replies
// delivered; and a deleted channel or thread.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/place"
)

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
	parts, read := readRaw(raw)
	a.process(context.Background(), ic.Interaction, parts, read, time.Now(), func(ctx context.Context, r *discordgo.InteractionResponse) error {
		return s.InteractionRespond(ic.Interaction, r, discordgo.WithContext(ctx))
	})
}

// rawParts are what discordgo's Interaction drops, read in one pass over
// the raw interaction: its partial channel (its type and, for a thread,
// its parent), its context and the installs that authorized it
// (discordgo's struct cannot tell an absent context from a server's).
type rawParts struct {
	Channel *struct {
		Type     int    `json:"type"`
		ParentID string `json:"parent_id"`
	} `json:"channel"`
	Context *int              `json:"context"`
	Owners  map[string]string `json:"authorizing_integration_owners"`
}

// readRaw reads an interaction's rawParts; ok is false for unreadable JSON.
func readRaw(raw []byte) (v rawParts, ok bool) {
	return v, json.Unmarshal(raw, &v) == nil
}

// channelOf says whether the interaction came from a thread, and its parent.
func (v rawParts) channelOf() (inThread bool, parent string) {
	if v.Channel == nil {
		return false, ""
	}
	switch v.Channel.Type {
	case 10, 11, 12: // announcement, public and private threads
		return true, v.Channel.ParentID
	}
	return false, ""
}

// placeOf reads where an interaction comes from; read says whether its
// JSON could be read at all.
func (v rawParts) placeOf(read, inGuild bool) place.Place {
	if !read {
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
			a.memberChannel(ctx, req.ChannelID)
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

// process answers one interaction, received at received, in a context
// from parent (what the interaction's note brought back, if anything),
// with the parts of its JSON discordgo drops (read says whether they
// could be read): its first response through respond, the rest by the
// interaction's webhook.
func (a *Adapter) process(parent context.Context, i *discordgo.Interaction, parts rawParts, read bool, received time.Time, respond responder) {
	ic := &discordgo.InteractionCreate{Interaction: i}
	log := a.log.With("req", ic.ID)
	acked := false
	defer func() {
		if r := recover(); r != nil {
			log.Error("interaction panic", "panic", r, "stack", string(debug.Stack()))
			a.respondError(ic.Interaction, respond, acked)
		}
	}()
	if a.activity && i.Type == discordgo.InteractionApplicationCommand && i.ApplicationCommandData().CommandType == entryPointType {
		// The App Launcher's Entry Point: the Activity, at once.
		ctx, cancel := context.WithTimeout(context.Background(), autocompleteTime)
		defer cancel()
		a.logFailure(log, "opening the Activity from its Entry Point", respond(ctx, &discordgo.InteractionResponse{Type: launchActivity}))
		return
	}
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
	req.InThread, req.ParentID = parts.channelOf()
	req.Place = parts.placeOf(read, ic.GuildID != "")
	// Interactions in a server always say what the bot may do in the
	// channel; where it is no member it posts nothing of its own, so
	// there is nothing to check.
	req.AppPermissions, req.PermissionsKnown = ic.AppPermissions, ic.GuildID != "" && req.Place == place.Server
	a.track(req, ic.Interaction)
	ctx, cancel := context.WithTimeout(parent, a.timeout)
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
	if bot.OpensActivity(req) {
		a.launchActivity(ctx, log, req, respond)
		return
	}
	// The answer is worked out at once; Discord hears of it within its 3
	// seconds either way. A press answered within inlineWithin by an edit
	// of its own message (a move) or a line only the presser sees (a
	// refusal) is answered in the acknowledgement itself: one exchange with
	// Discord, not an acknowledgement and then an edit. Anything slower
	// (the engine thinking, a busy database) is acknowledged then, and its
	// answer follows by the interaction's webhook.
	component := req.Kind == bot.Button || req.Kind == bot.Select
	private := req.Kind == bot.Command && bot.PrivateCommand(req.Path())
	tracked := !req.Place.BotPosts()
	answered := make(chan bot.Response, 1)
	go func() { answered <- a.answer(ctx, log, ic.Interaction, req) }()
	var resp bot.Response
	have := false
	if component {
		select {
		case resp = <-answered:
			have = true
			if a.inline(ctx, log, ic.Interaction, resp, respond, tracked) {
				a.meter.Acknowledged(time.Since(received))
				acked = true
				a.followUp(ctx, log, ic.Interaction, resp.Followups, tracked)
				resp.Delivered()
				return
			}
		case <-time.After(inlineWithin):
		}
	}
	switch err := respond(ctx, deferred(component, private)); {
	case errors.Is(err, errAcknowledged): // by the HTTP endpoint, in this form, and metered there
	case err != nil:
		log.Error("acknowledging interaction", "err", err)
		return
	default:
		a.meter.Acknowledged(time.Since(received))
	}
	acked = true
	if !have {
		resp = <-answered
	}
	a.deliver(ctx, log, ic.Interaction, resp, component, private, tracked)
	resp.Delivered()
}

// launchActivity answers a press with the app's Activity (LAUNCH_ACTIVITY,
// which exists only as an interaction's first answer, so it is not
// acknowledged first: the service's answer is a quick read), or with what
// the service says instead, only to the one who pressed.
func (a *Adapter) launchActivity(ctx context.Context, log *slog.Logger, req bot.Request, respond responder) {
	ctx, cancel := context.WithTimeout(ctx, autocompleteTime)
	defer cancel()
	resp := a.svc.Handle(ctx, req)
	defer resp.Delivered()
	if resp.LaunchActivity {
		a.logFailure(log, "opening the Activity", respond(ctx, &discordgo.InteractionResponse{Type: launchActivity}))
		return
	}
	text := req.Me().T("error.apology")
	if resp.Message != nil && resp.Message.Content != "" {
		text = resp.Message.Content
	}
	a.logFailure(log, "answering a press for the Activity", respond(ctx, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{}}}))
}

// launchActivity is the interaction callback type LAUNCH_ACTIVITY (12),
// which discordgo does not name.
const launchActivity discordgo.InteractionResponseType = 12

func (a *Adapter) logFailure(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Error("discord: "+what, "err", err)
	}
}

// refuseUnread answers an interaction the service never sees with one
// only-you line (catalog id why); an autocomplete gets no choices.
func (a *Adapter) refuseUnread(i *discordgo.Interaction, respond responder, why string) {
	a.log.Info("interaction refused at the edge", "req", i.ID, "why", why, "guild", i.GuildID)
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		a.logFailure(a.log, "refusing an interaction", respond(context.Background(), &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}))
		return
	}
	a.logFailure(a.log, "refusing an interaction", a.sayPrivately(i, respond, false, catalog.For(catalog.FromLocale(string(i.Locale))).T(why)))
}

func (a *Adapter) respondError(i *discordgo.Interaction, respond responder, acked bool) {
	apology := catalog.For(catalog.FromLocale(string(i.Locale))).T("error.apology")
	a.logFailure(a.log, "apologizing", a.sayPrivately(i, respond, acked, apology))
}

// sayPrivately answers with one only-you line: as the interaction's first
// response unless it was acknowledged (acked, or by the HTTP endpoint), else
// by a follow-up — after an only-you deferral, the first follow-up takes
// its place.
func (a *Adapter) sayPrivately(i *discordgo.Interaction, respond responder, acked bool, text string) error {
	var err error
	if !acked {
		err = respond(context.Background(), &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral,
				AllowedMentions: noMentions()},
		})
	}
	if acked || err != nil {
		_, err = a.session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: text,
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()})
	}
	return err
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
