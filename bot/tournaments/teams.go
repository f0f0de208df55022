package tournaments

// This file is team battles (lichess's): a Swiss or an arena whose
// players play for their servers. The host server opens it with
// teams:N (the best N of each team count) and invites other servers open
// to the pool with /tournament invite; a member with Manage Server
// accepts there, naming the team, in the channel its players hear of
// their games in. Players join from their own server and play for it;
// teammates never meet. A game is opened in the host's channel as any
// tournament game; a player from another server, who may not be on the
// host server, is pinged in their team's channel and plays on the game's
// page (as the pool's games across servers are played).

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
	"othello-bot/tournament"
)

// TeamStore keeps a team battle's teams.
type TeamStore interface {
	// InviteTeam invites a server; false if it was invited already.
	InviteTeam(ctx context.Context, id int64, guildID string, at time.Time) (bool, error)
	// AcceptTeam accepts a server's invitation; false if it was not
	// invited or accepted already.
	AcceptTeam(ctx context.Context, id int64, guildID, channelID, name string, at time.Time) (bool, error)
	// Teams lists a team battle's servers, the host's first.
	Teams(ctx context.Context, id int64) ([]tournament.Team, error)
	// PoolOpen says whether a server is open to others.
	PoolOpen(ctx context.Context, guildID string) (bool, error)
}

// teamOf is a server's team in a team battle, if it was invited.
func (s *Service) teamOf(ctx context.Context, t *tournament.Tournament, guildID string) (tournament.Team, bool, error) {
	if t.TeamTop == 0 {
		return tournament.Team{}, false, nil
	}
	teams, err := s.store.Teams(ctx, t.ID)
	if err != nil {
		return tournament.Team{}, false, err
	}
	for _, tm := range teams {
		if tm.GuildID == guildID {
			return tm, true, nil
		}
	}
	return tournament.Team{}, false, nil
}

// teams are a team battle's teams, none for another tournament.
func (s *Service) teams(ctx context.Context, t *tournament.Tournament) ([]tournament.Team, error) {
	if t.TeamTop == 0 {
		return nil, nil
	}
	return s.store.Teams(ctx, t.ID)
}

// teamOptions reads create's teams: and team: into t, or refuses.
func (s *Service) teamOptions(ctx context.Context, req bot.Request, t *tournament.Tournament) *bot.Response {
	me := req.Me()
	v := strings.TrimSpace(req.Options["teams"])
	if v == "" {
		return nil
	}
	top, err := strconv.Atoi(v)
	switch {
	case err != nil || top < 1 || top > tournament.MaxTeamTop:
		return bot.Refusal(me.T("tournament.bad_option", "Option", "teams"))
	case t.Format == tournament.RoundRobin:
		return bot.Refusal(me.T("team.teams_format"))
	case s.cfg.GamePage == nil:
		return bot.Refusal(me.T("team.teams_pages"))
	}
	if open, err := s.store.PoolOpen(ctx, req.GuildID); err != nil || !open {
		return bot.Refusal(me.T("team.teams_pool"))
	}
	t.TeamTop = top
	t.HostTeam = bot.Clip(strings.TrimSpace(req.Options["team"]), tournament.MaxTeamNameLen)
	if t.HostTeam == "" {
		t.HostTeam = req.Pub().T("team.host_default")
	}
	return nil
}

// tournamentInvite invites another server to a team battle.
func (s *Service) tournamentInvite(ctx context.Context, req bot.Request) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	me := req.Me()
	guild := strings.TrimSpace(req.Options["server"])
	switch {
	case !mayRun(req, t):
		return bot.Refuse(me.T("tournament.organiser_only")), nil
	case t.TeamTop == 0:
		return bot.Refuse(me.T("team.not_team_battle", "ID", t.ID)), nil
	case !t.Status.Open():
		return bot.Refuse(me.T("tournament.over", "ID", t.ID)), nil
	case !isSnowflake(guild):
		return bot.Refuse(me.T("team.bad_server")), nil
	case guild == t.GuildID:
		return bot.Refuse(me.T("team.invite_self")), nil
	}
	if open, err := s.store.PoolOpen(ctx, guild); err != nil || !open {
		return bot.Refuse(me.T("team.invite_closed")), err
	}
	teams, err := s.store.Teams(ctx, t.ID)
	if err != nil {
		return bot.Response{}, err
	}
	if len(teams) >= tournament.MaxTeams {
		return bot.Refuse(me.T("team.teams_full", "Max", tournament.MaxTeams)), nil
	}
	ok, err := s.store.InviteTeam(ctx, t.ID, guild, s.Now())
	if err != nil {
		return bot.Response{}, err
	}
	if !ok {
		return bot.Refuse(me.T("team.invited_already")), nil
	}
	s.Logger(ctx).Info("team battle invitation", "tournament", t.ID, "server", guild)
	return bot.Refuse(me.T("team.invited", "ID", t.ID)), nil
}

// isSnowflake says whether s reads as a Discord id.
func isSnowflake(s string) bool {
	if len(s) < 15 || len(s) > 20 {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// tournamentAccept accepts an invitation for the server it is used in.
func (s *Service) tournamentAccept(ctx context.Context, req bot.Request) (bot.Response, error) {
	t, refusal, err := s.findTournament(ctx, req)
	if refusal != nil || err != nil {
		return bot.Deref(refusal), err
	}
	me := req.Me()
	team, invited, err := s.teamOf(ctx, t, req.GuildID)
	switch {
	case err != nil:
		return bot.Response{}, err
	case !invited || t.GuildID == req.GuildID:
		return bot.Refuse(me.T("team.not_invited", "ID", t.ID)), nil
	case req.MemberPermissions&bot.PermManageGuild == 0:
		return bot.Refuse(me.T("team.accept_not_allowed")), nil
	case !t.Status.Open():
		return bot.Refuse(me.T("tournament.over", "ID", t.ID)), nil
	case team.Accepted():
		return bot.Refuse(me.T("team.accepted_already")), nil
	}
	name := bot.Clip(strings.TrimSpace(req.Options["name"]), tournament.MaxTeamNameLen)
	if name == "" {
		return bot.Refuse(me.T("tournament.bad_option", "Option", "name")), nil
	}
	ok, err := s.store.AcceptTeam(ctx, t.ID, req.GuildID, req.ChannelID, name, s.Now())
	if err != nil {
		return bot.Response{}, err
	}
	if !ok {
		return bot.Refuse(me.T("team.accepted_already")), nil
	}
	s.announce(ctx, t, s.PublicPrinter(ctx, t.GuildID).T("team.accepted_host", "Team", bot.Escape(name), "ID", t.ID))
	s.editSignup(ctx, t)
	pub := req.Pub()
	return bot.Reply(pub.T("team.accepted", "Team", bot.Escape(name), "ID", t.ID, "Name", bot.Escape(t.Name), "Top", t.TeamTop)), nil
}

// joinTeam is the team a player joins for, "" outside a team battle; a
// refusal where their server does not play in it.
func (s *Service) joinTeam(ctx context.Context, req bot.Request, t *tournament.Tournament) (string, *bot.Response, error) {
	if t.TeamTop == 0 {
		return "", nil, nil
	}
	team, ok, err := s.teamOf(ctx, t, req.GuildID)
	if err != nil || !ok || !team.Accepted() {
		return "", bot.Refusal(req.Me().T("team.not_playing", "ID", t.ID)), err
	}
	return team.GuildID, nil, nil
}

// pingGuests tells the players of a team battle game from other servers
// than the host's, in their team's channel, that it started, with the
// way to its page.
func (s *Service) pingGuests(ctx context.Context, t *tournament.Tournament, g *record.Game, black, white tournament.Entrant) error {
	if t.TeamTop == 0 {
		return nil
	}
	teams, err := s.store.Teams(ctx, t.ID)
	if err != nil {
		return err
	}
	var errs []error
	for _, pair := range [][2]tournament.Entrant{{black, white}, {white, black}} {
		me, them := pair[0], pair[1]
		if me.Team == "" || me.Team == t.GuildID {
			continue
		}
		for _, tm := range teams {
			if tm.GuildID != me.Team || tm.ChannelID == "" {
				continue
			}
			p := s.PublicPrinter(ctx, tm.GuildID)
			_, err := s.Send(ctx, tm.ChannelID, bot.Message{Content: p.T("team.game", "Mention", bot.Mention(me.ID), "ID", g.ID,
				"Opponent", bot.Escape(them.Name), "Name", bot.Escape(t.Name)), Mentions: []string{me.ID},
				Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: p.T("team.play"), URL: s.cfg.GamePage(g)}}}}})
			if err != nil {
				errs = append(errs, fmt.Errorf("team battle %d, game %d: %w", t.ID, g.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

// teamField is a team battle's standings by team: each team's points
// (its best TeamTop players') and who made them.
func (s *Service) teamField(ctx context.Context, t *catalog.Printer, tour *tournament.Tournament, rows []tournament.Standing, entrants []tournament.Entrant) ([]bot.Field, error) {
	if tour.TeamTop == 0 {
		return nil, nil
	}
	teams, err := s.store.Teams(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	return teamFields(t, tour, rows, entrants, teams), nil
}

// teamFields are the standings by team as a field of the standings'
// message (none before anyone plays).
func teamFields(t *catalog.Printer, tour *tournament.Tournament, rows []tournament.Standing, entrants []tournament.Entrant, teams []tournament.Team) []bot.Field {
	names := map[string]string{}
	for _, tm := range teams {
		if tm.Accepted() {
			names[tm.GuildID] = tm.Name
		}
	}
	teamOf := map[string]string{}
	for _, e := range entrants {
		teamOf[e.ID] = e.Team
	}
	var lines []string
	for _, ts := range tournament.TeamStandings(rows, teamOf, tour.TeamTop) {
		// A team's best three, names shortened as in the table: ten teams
		// of the longest names fit two fields.
		var players []string
		for _, p := range ts.Players[:min(ts.Counted, 3)] {
			players = append(players, bot.Escape(bot.Clip(p.Name, 12))+" "+pointsText(p.Points))
		}
		if more := ts.Counted - len(players); more > 0 {
			players = append(players, "+"+strconv.Itoa(more))
		}
		lines = append(lines, t.T("team.standing", "Rank", ts.Rank, "Team", bot.Escape(bot.Clip(names[ts.Team], 20)),
			"Points", pointsText(ts.Points), "Players", strings.Join(players, ", ")))
	}
	var fields []bot.Field
	for _, part := range chunks(lines, bot.MaxFieldValue) {
		fields = append(fields, bot.Field{Name: t.T("team.field", "Top", tour.TeamTop), Value: strings.Join(part, "\n")})
	}
	return fields
}

// teamsLine names a team battle's teams for its sign-up message.
func teamsLine(t *catalog.Printer, tour *tournament.Tournament, teams []tournament.Team) string {
	var names []string
	for _, tm := range teams {
		if tm.Accepted() {
			names = append(names, "**"+bot.Escape(tm.Name)+"**")
		}
	}
	return t.T("team.teams_line", "Top", tour.TeamTop, "Teams", strings.Join(names, ", "))
}

// pointsText writes points as the standings do: halves as ½.
func pointsText(v float64) string {
	whole := int(v)
	if v-float64(whole) >= 0.5 {
		if whole == 0 {
			return "½"
		}
		return strconv.Itoa(whole) + "½"
	}
	return strconv.Itoa(whole)
}
