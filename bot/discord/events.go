package discord

// This file is the server's scheduled events, where a tournament is listed.

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// ScheduleEvent lists a tournament among the server's events: an external
// event (it happens in a text channel, which no event type is), from its
// start to its expected end.
func (a *Poster) ScheduleEvent(ctx context.Context, guildID string, e bot.ScheduledEvent) (string, error) {
	start, end := e.Start.UTC(), e.End.UTC()
	ev, err := a.session.GuildScheduledEventCreate(guildID, &discordgo.GuildScheduledEventParams{
		Name: e.Name, Description: e.Description, ScheduledStartTime: &start, ScheduledEndTime: &end,
		PrivacyLevel: discordgo.GuildScheduledEventPrivacyLevelGuildOnly, EntityType: discordgo.GuildScheduledEventEntityTypeExternal,
		EntityMetadata: &discordgo.GuildScheduledEventEntityMetadata{Location: e.Location},
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("creating a scheduled event: %w", forbidden(err))
	}
	return ev.ID, nil
}

// SetEventStatus moves a scheduled event on: active, completed, canceled.
func (a *Poster) SetEventStatus(ctx context.Context, guildID, eventID string, status bot.EventStatus) error {
	if _, err := a.session.GuildScheduledEventEdit(guildID, eventID, &discordgo.GuildScheduledEventParams{
		Status: discordgo.GuildScheduledEventStatus(status)}, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("updating scheduled event %s: %w", eventID, err)
	}
	return nil
}
