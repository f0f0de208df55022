package tournaments

// This file is /tournament create and finding the tournament a subcommand is
// about.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/tournament"
)

// findTournament is the tournament a subcommand is about: the id given,
// else the newest open one in this channel (or the channel of this
// thread); for show, the newest one there whether open or over. The
// refusal says why there is none.
func (s *Service) findTournament(ctx context.Context, req bot.Request) (*tournament.Tournament, *bot.Response, error) {
	me := req.Me()
	if v := strings.TrimSpace(req.Options["id"]); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return nil, bot.Refusal(me.T("tournament.not_found", "ID", game.QuoteInput(v))), nil
		}
		t, err := s.store.Tournament(ctx, id)
		if err == nil && t.GuildID != req.GuildID {
			// A team battle is also its invited servers'.
			_, invited, terr := s.teamOf(ctx, t, req.GuildID)
			if terr != nil {
				return nil, nil, terr
			}
			if !invited {
				err = record.ErrNotFound
			}
		}
		if errors.Is(err, record.ErrNotFound) {
			return nil, bot.Refusal(me.T("tournament.not_found", "ID", id)), nil
		}
		return t, nil, err
	}
	channel := req.ChannelID
	if req.InThread && req.ParentID != "" {
		channel = req.ParentID
	}
	open, err := s.store.OpenTournaments(ctx, channel)
	if err != nil {
		return nil, nil, err
	}
	if sub, _ := bot.LookupCommand(req.Path()); len(open) == 0 && sub.Name == "show" {
		// Over, a tournament is still the channel's to show.
		if open, err = s.store.Tournaments(ctx, req.GuildID, channel, 1); err != nil {
			return nil, nil, err
		}
	}
	if len(open) == 0 {
		return nil, bot.Refusal(me.T("tournament.none_here")), nil
	}
	return open[0], nil, nil
}

// mayRun says whether the user may start, pause, cancel or kick in a
// tournament: its organiser, or a moderator of its channel — on its own
// server (a team battle's visiting servers see it, and their moderators'
// permissions are theirs).
func mayRun(req bot.Request, t *tournament.Tournament) bool {
	return req.GuildID == t.GuildID &&
		(req.User.ID == t.OrganiserID || req.MemberPermissions&(bot.PermManageMessages|PermManageEvents|bot.PermManageGuild) != 0)
}

func (s *Service) tournamentCreate(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if req.GuildID == "" {
		return bot.Refuse(me.T("tournament.server_only")), nil
	}
	if req.MemberPermissions&(PermManageEvents|bot.PermManageGuild) == 0 && !s.hasTournamentRole(req) {
		return bot.Refuse(me.T("tournament.create_not_allowed")), nil
	}
	format, err := tournament.ParseFormat(strings.TrimSpace(req.Options["format"]))
	if err != nil {
		return bot.Refuse(me.T("tournament.bad_format")), nil
	}
	now := s.Now()
	startsAt, err := tournament.ParseStart(req.Options["start"], now)
	if err != nil {
		return bot.Refuse(startError(me, req.Options["start"], err)), nil
	}
	control := tournamentControl
	if strings.TrimSpace(req.Options["time"]) != "" {
		var refusal *bot.Response
		if control, refusal = s.TimeOption(req, false); refusal != nil {
			return *refusal, nil
		}
	}
	if format == tournament.Arena && !control.Live() {
		return bot.Refuse(me.T("tournament.arena_live")), nil
	}
	size, err := bot.IntOption(req, "size", s.cfg.DefaultSize)
	if err != nil || !game.ValidSize(size) {
		return bot.Refuse(me.T("start.bad_size")), nil
	}
	rated, double := true, false
	for name, dst := range map[string]*bool{"rated": &rated, "double": &double} {
		if v := strings.TrimSpace(req.Options[name]); v != "" {
			if *dst, err = strconv.ParseBool(v); err != nil {
				return bot.Refuse(me.T("tournament.bad_option", "Option", name)), nil
			}
		}
	}
	rounds, err := bot.IntOption(req, "rounds", 5)
	if err != nil || rounds < 1 || rounds > tournament.MaxRounds {
		return bot.Refuse(me.T("tournament.bad_rounds", "Max", tournament.MaxRounds)), nil
	}
	minutes, err := bot.IntOption(req, "minutes", 60)
	if err != nil || minutes < tournament.MinArenaMinutes || minutes > tournament.MaxArenaMinutes {
		return bot.Refuse(me.T("tournament.bad_minutes", "Min", tournament.MinArenaMinutes, "Max", tournament.MaxArenaMinutes)), nil
	}
	if !bot.ThreadsAllowed(req) { // a tournament's games always have threads
		return bot.Refuse(me.T("tournament.needs_threads")), nil
	}
	if missing := s.MissingPermission(req, size, record.StyleEmoji); missing != "" {
		return bot.Refuse(me.T("challenge.no_permission", "Permission", me.T(missing))), nil
	}
	pub := req.Pub()
	title := strings.TrimSpace(req.Options["name"])
	if title == "" {
		title = pub.T("tournament.default_name", "Format", pub.T("choice.format."+string(format)))
	}
	t := &tournament.Tournament{GuildID: req.GuildID, ChannelID: req.ChannelID, Name: bot.Clip(title, tournament.MaxNameLength),
		Format: format, Size: size, Rated: rated, Control: control, StartsAt: startsAt, CreatedAt: now}
	switch format {
	case tournament.Swiss:
		t.Rounds = rounds
	case tournament.RoundRobin:
		t.Double = double
	case tournament.Arena:
		t.Duration = time.Duration(minutes) * time.Minute
	}
	if refusal := s.teamOptions(ctx, req, t); refusal != nil {
		return *refusal, nil
	}
	if err := s.store.CreateTournament(ctx, t, req.User); err != nil {
		return bot.Response{}, err
	}
	var teams []tournament.Team
	if t.TeamTop > 0 {
		teams = []tournament.Team{{GuildID: t.GuildID, ChannelID: t.ChannelID, Name: t.HostTeam, InvitedAt: now, AcceptedAt: now}}
	}
	id, err := s.Send(ctx, t.ChannelID, s.signupMessage(pub, t, nil, teams))
	if err != nil {
		t.Status = tournament.Canceled
		if uerr := s.store.UpdateTournament(ctx, t); uerr != nil {
			err = errors.Join(err, uerr)
		}
		return bot.Response{}, fmt.Errorf("posting tournament %d: %w", t.ID, err)
	}
	t.SignupMessageID = id
	var eventNote string
	t.EventID, eventNote = s.scheduleEvent(ctx, req, t)
	if err := s.store.UpdateTournament(ctx, t); err != nil {
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("tournament created", "tournament", t.ID, "format", string(t.Format), "organiser", req.User.ID,
		"starts", t.StartsAt, "time", t.Control.String())
	text := me.T("tournament.created", "ID", t.ID, "Name", bot.Escape(t.Name))
	if eventNote != "" {
		text += "\n" + me.T(eventNote)
	}
	return bot.Refuse(text), nil
}

// hasTournamentRole reports whether the user has a role the config lets
// create tournaments.
func (s *Service) hasTournamentRole(req bot.Request) bool {
	for _, r := range req.Roles {
		if slices.Contains(s.cfg.Roles, r) {
			return true
		}
	}
	return false
}

// startError says why a typed start was refused.
func startError(t *catalog.Printer, typed string, err error) string {
	quoted := bot.Typed(typed)
	switch {
	case errors.Is(err, tournament.ErrStartPast):
		return t.T("tournament.start_past", "Typed", quoted)
	case errors.Is(err, tournament.ErrStartFar):
		return t.T("tournament.start_far", "Typed", quoted, "Days", int(tournament.MaxLead.Hours()/24))
	}
	return t.T("tournament.start_syntax", "Typed", quoted)
}

// entriesOpen says whether a player may still join: before the start; in
// a Swiss until its second round is paired; in an arena until its end.
func entriesOpen(t *tournament.Tournament, now time.Time) bool {
	switch {
	case t.Status == tournament.SignUp:
		return true
	case t.Status != tournament.Running && t.Status != tournament.Paused:
		return false
	case t.Format == tournament.Swiss:
		return t.Round < 2
	case t.Format == tournament.Arena:
		return now.Before(t.EndsAt)
	}
	return false
}
