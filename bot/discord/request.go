package discord

// This file reads an interaction into the service's Request.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/record"
)

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
			if o.Type == discordgo.ApplicationCommandOptionRole && !isSnowflake(req.Options[o.Name]) {
				return req, "error.not_a_role"
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
		if data.CommandType == discordgo.UserApplicationCommand {
			// "Challenge to Othello" on a member: /challenge opponent:them.
			if !isSnowflake(data.TargetID) {
				return req, false
			}
			req.Command = "challenge"
			data.Options = []*discordgo.ApplicationCommandInteractionDataOption{{Name: "opponent",
				Type: discordgo.ApplicationCommandOptionUser, Value: data.TargetID}}
		}
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		req.Subcommand, opts = commandOptions(data)
		req.Options, req.UserNames, req.BotUsers = map[string]string{}, map[string]string{}, map[string]bool{}
		for _, o := range opts {
			req.Options[o.Name] = optionString(o)
			if o.Focused {
				req.Focused = o.Name
			}
			if o.Type == discordgo.ApplicationCommandOptionRole && data.Resolved != nil {
				if r, ok := data.Resolved.Roles[req.Options[o.Name]]; ok && !r.Mentionable {
					if req.UnmentionableRoles == nil {
						req.UnmentionableRoles = map[string]bool{}
					}
					req.UnmentionableRoles[r.ID] = true
				}
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
		if i.Message != nil && isSnowflake(i.Message.ID) {
			req.MessageID = i.Message.ID
		}
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
	return record.PlainName(rawName(u, nick))
}

func rawName(u *discordgo.User, nick string) string {
	switch {
	case nick != "":
		return nick
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}
