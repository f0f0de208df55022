package tournaments

// This file is what happens outside the bot's messages: a deleted channel,
// the server's scheduled events.

import (
	"context"
	"errors"
	"time"

	"othello-bot/bot"
	"othello-bot/record"
	"othello-bot/tournament"
)

// ChannelDeleted cancels the tournaments of a deleted channel
// and ends their games under way, whose threads went with it: nothing is
// left waiting on a channel nobody can see.
func (s *Service) ChannelDeleted(ctx context.Context, channelID string) {
	open, err := s.store.OpenTournaments(ctx, channelID)
	if err != nil {
		s.Logger(ctx).Error("channel deleted: its tournaments", "channel", channelID, "err", err)
		return
	}
	for _, t := range open {
		var games []int64
		func() {
			unlock := s.tournaments.lock(t.ID)
			defer unlock()
			t, err := s.store.Tournament(ctx, t.ID)
			ending := bot.EventCompleted
			if err == nil && t.Status == tournament.SignUp {
				ending = bot.EventCanceled
			}
			if err == nil && t.Status.Open() {
				t.Status, t.FinishedAt = tournament.Canceled, s.Now()
				err = s.store.UpdateTournament(ctx, t)
			}
			if err != nil {
				s.Logger(ctx).Error("channel deleted: canceling its tournament", "tournament", t.ID, "err", err)
				return
			}
			s.Logger(ctx).Info("tournament canceled: its channel was deleted", "tournament", t.ID, "channel", channelID)
			s.eventStatus(ctx, t, ending)
			pairings, err := s.store.Pairings(ctx, t.ID)
			if err != nil {
				s.Logger(ctx).Error("channel deleted: its tournament's games", "tournament", t.ID, "err", err)
				return
			}
			for _, p := range pairings {
				if p.GameID != 0 && !p.Done() {
					games = append(games, p.GameID)
				}
			}
		}()
		for _, id := range games {
			if g, err := s.store.Game(ctx, id); err == nil && g.Status == record.Active && g.ChannelID != channelID {
				s.ChannelDeleted(ctx, g.ChannelID)
			}
		}
	}
}

// PermCreateEvents is Discord's Create Events permission. Since
// 2026-02-23 it alone lets a bot create a scheduled event (and edit the
// ones it made): Manage Events no longer does (change log 2025-11-24,
// "Permission Changes Going into Effect February 2026").
const PermCreateEvents int64 = 1 << 44

// permAdministrator grants every permission.
const permAdministrator int64 = 1 << 3

// scheduleEvent lists a tournament that starts later among the server's
// events, where the transport can and the bot may; it returns the event's
// id ("" for none) and, when the tournament could have been listed but
// was not, the catalog id of a note for the organiser. A failure only
// costs the listing.
func (s *Service) scheduleEvent(ctx context.Context, req bot.Request, t *tournament.Tournament) (id, note string) {
	es, ok := s.Notifier().(bot.EventScheduler)
	if !ok || !t.StartsAt.After(s.Now().Add(time.Minute)) {
		return "", ""
	}
	if req.PermissionsKnown && req.AppPermissions&(PermCreateEvents|permAdministrator) == 0 {
		return "", "tournament.event_no_permission"
	}
	pub := req.Pub()
	location := s.tournamentURL(t)
	if location == "" {
		location = pub.T("tournament.event_location")
	}
	e := bot.ScheduledEvent{Name: bot.Clip(t.Name, 100), Location: bot.Clip(location, 100), Start: t.StartsAt, End: t.StartsAt.Add(expectedLength(t)),
		Description: bot.Clip(pub.T("tournament.event_description", "ID", t.ID, "Format", formatLine(pub, t),
			"Control", bot.ControlName(pub, t.Control)), 1000)}
	id, err := es.ScheduleEvent(ctx, t.GuildID, e)
	switch {
	case errors.Is(err, bot.ErrForbidden):
		s.Logger(ctx).Warn("listing a tournament among the server's events: refused", "tournament", t.ID, "err", err)
		return "", "tournament.event_no_permission"
	case err != nil:
		s.Logger(ctx).Warn("listing a tournament among the server's events", "tournament", t.ID, "err", err)
		return "", ""
	}
	return id, ""
}

// expectedLength is about how long a tournament runs: an arena its
// duration; a round a game with both clocks used up (about 30 moves each
// on a correspondence clock) and a few minutes between rounds.
func expectedLength(t *tournament.Tournament) time.Duration {
	if t.Format == tournament.Arena {
		return t.Duration
	}
	rounds := t.Rounds
	if t.Format == tournament.RoundRobin {
		rounds = 7 // the table's length is known at the start only
	}
	game := 2 * (t.Control.Base + 30*t.Control.Increment + 30*t.Control.PerMove)
	return time.Duration(max(rounds, 1)) * (game + 5*time.Minute)
}

// eventStatus moves a tournament's scheduled event on, if it has one.
func (s *Service) eventStatus(ctx context.Context, t *tournament.Tournament, status bot.EventStatus) {
	es, ok := s.Notifier().(bot.EventScheduler)
	if !ok || t.EventID == "" {
		return
	}
	if err := es.SetEventStatus(ctx, t.GuildID, t.EventID, status); err != nil {
		s.Logger(ctx).Warn("updating a tournament's scheduled event", "tournament", t.ID, "event", t.EventID, "err", err)
	}
}
