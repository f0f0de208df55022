package discord

// This file writes the service's Message as Discord's: embeds, components,
// files, and who may be pinged.

import (
	"bytes"
	"mime"
	"path"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// mentions allows exactly the message's deliberate pings: nobody else,
// whatever the text holds (a nickname such as "@everyone" or "<@123>").
func mentions(m bot.Message) *discordgo.MessageAllowedMentions {
	am := noMentions()
	am.Users = m.Mentions
	am.Roles = m.RoleMentions
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
			if b.URL != "" {
				items = append(items, discordgo.Button{Label: b.Label, Style: discordgo.LinkButton, URL: b.URL, Disabled: b.Disabled})
				continue
			}
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
