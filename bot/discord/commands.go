package discord

// This file is the commands as Discord registers them: the table's commands
// with their options, names in every language, the places each can be used,
// and where they are registered.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/place"
)

var optionTypes = map[bot.OptionKind]discordgo.ApplicationCommandOptionType{
	bot.StringOption: discordgo.ApplicationCommandOptionString, bot.IntegerOption: discordgo.ApplicationCommandOptionInteger,
	bot.BooleanOption: discordgo.ApplicationCommandOptionBoolean, bot.UserOption: discordgo.ApplicationCommandOptionUser,
	bot.RoleOption: discordgo.ApplicationCommandOptionRole, bot.AttachmentOption: discordgo.ApplicationCommandOptionAttachment,
}

// Commands are bot's slash commands as Discord registers them. Global
// commands say where each works: installed to a server or to a user, in
// servers, the bot's DM and private channels; a command that needs the
// bot in the server (tournaments) only for server installs, in servers.
// Commands registered in one server (global false) take neither field:
// Discord keeps them to that server, for its members, and user installs
// never see them.
func Commands(specs []bot.CommandSpec, global bool) []*discordgo.ApplicationCommand {
	var out []*discordgo.ApplicationCommand
	for _, c := range specs {
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
		if c.Name == "challenge" {
			out = append(out, challengeUserCommand(cmd))
		}
	}
	return out
}

// challengeUserCommand is /challenge on a member's profile and name (a
// user command, "Apps → Challenge to Othello"): it challenges that member,
// wherever /challenge itself is offered.
func challengeUserCommand(slash *discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	names := map[string]string{}
	for _, l := range catalog.Supported()[1:] {
		names[string(l)] = catalog.For(l).T("cmd.challenge.user_command")
	}
	return &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand,
		Name: catalog.For(catalog.English).T("cmd.challenge.user_command"), NameLocalizations: locales(names),
		Contexts: slash.Contexts, IntegrationTypes: slash.IntegrationTypes}
}

// reach is where a global command is offered, for what it needs.
func reach(n place.Need) (*[]discordgo.InteractionContextType, *[]discordgo.ApplicationIntegrationType) {
	switch n {
	case place.BotMember:
		return &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
			&[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	case place.BotPosts:
		// A server it is in, or its own DM (reached through either
		// install; a server reached only through a member's install is
		// refused with the reason).
		return &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
			&[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
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

// The Activity's Entry Point: the app's command in the App Launcher
// (PRIMARY_ENTRY_POINT, type 4), answered by the app (APP_HANDLER) with
// LAUNCH_ACTIVITY. Discord makes a default one when Activities are
// enabled, and a bulk overwrite of the global commands replaces every
// type: one that leaves the Entry Point out is refused (error 50240).
const (
	entryPointType discordgo.ApplicationCommandType = 4
	appHandler                                      = 1
)

// command is a command as registered, with the field discordgo lacks.
type command struct {
	*discordgo.ApplicationCommand
	Handler int `json:"handler,omitempty"`
}

// entryPoint is the bot's own Entry Point: the Activity, from the App
// Launcher, wherever an Activity can run (servers, DMs, group DMs).
func entryPoint(id string) command {
	names, descs := map[string]string{}, map[string]string{}
	for _, l := range catalog.Supported()[1:] {
		names[string(l)], descs[string(l)] = catalog.For(l).T("cmd.launch.name"), catalog.For(l).T("cmd.launch.desc")
	}
	en := catalog.For(catalog.English)
	return command{Handler: appHandler, ApplicationCommand: &discordgo.ApplicationCommand{ID: id, Type: entryPointType,
		Name: en.T("cmd.launch.name"), Description: en.T("cmd.launch.desc"), NameLocalizations: locales(names),
		DescriptionLocalizations: locales(descs),
		Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM,
			discordgo.InteractionContextPrivateChannel},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall,
			discordgo.ApplicationIntegrationUserInstall}}}
}

// Register overwrites the bot's commands in each configured server, or
// globally when none is configured, and clears the commands a former
// configuration left in the other scope (so no command shows twice). The
// global set always keeps an Entry Point the app has: the bot's own with
// the Activity on, else the one there was, unchanged; it is never cleared.
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
	var scopes []string // the old ones cleared first, then the new
	for _, scope := range before {
		if !slices.Contains(want, scope) {
			scopes = append(scopes, scope)
		}
	}
	scopes = append(scopes, want...)
	if a.activity && !slices.Contains(scopes, "global") {
		scopes = append(scopes, "global") // where the Entry Point lives
	}
	for _, scope := range scopes {
		var set []any
		if slices.Contains(want, scope) {
			for _, c := range Commands(a.svc.Commands(), scope == "global") {
				set = append(set, c)
			}
		}
		if scope == "global" {
			ep, err := a.entryPointFor(ctx)
			if err != nil {
				return err
			}
			if ep != nil {
				set = append(set, ep)
			}
		}
		if err := a.overwrite(ctx, guildOf(scope), set); err != nil {
			return fmt.Errorf("registering commands %s: %w", where(scope), err)
		}
		if !slices.Contains(want, scope) {
			a.log.Info("cleared old commands", "scope", scope)
		}
	}
	if a.memory != nil {
		return a.memory.SetSetting(ctx, scopesKey, strings.Join(want, " "))
	}
	return nil
}

// entryPointFor is the Entry Point the global set keeps: the bot's own
// with the Activity on (taking the id of the one there is, so Discord
// updates it in place), or else the one there is, unchanged; nil for
// none.
func (a *Adapter) entryPointFor(ctx context.Context) (any, error) {
	data, err := a.session.RequestWithBucketID(http.MethodGet, discordgo.EndpointApplicationGlobalCommands(a.AppID()), nil,
		discordgo.EndpointApplicationGlobalCommands(""), discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading the global commands: %w", err)
	}
	var there []map[string]any
	if err := json.Unmarshal(data, &there); err != nil {
		return nil, fmt.Errorf("reading the global commands: %w", err)
	}
	var old map[string]any
	for _, c := range there {
		if t, _ := c["type"].(float64); int(t) == int(entryPointType) {
			old = c
		}
	}
	switch {
	case a.activity:
		id, _ := old["id"].(string)
		return entryPoint(id), nil
	case old != nil:
		for _, k := range []string{"application_id", "version", "guild_id"} {
			delete(old, k)
		}
		return old, nil
	}
	return nil, nil
}

// overwrite replaces the commands of a scope (guild "" for global).
func (a *Adapter) overwrite(ctx context.Context, guild string, set []any) error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(a.AppID())
	if guild != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(a.AppID(), guild)
	}
	if set == nil {
		set = []any{}
	}
	_, err := a.session.RequestWithBucketID(http.MethodPut, endpoint, set, endpoint, discordgo.WithContext(ctx))
	return err
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
