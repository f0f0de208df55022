package local_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/tournament"
)

// A team battle between two servers through the terminal: the host opens
// an arena with teams:2, invites the other server, whose Manage Server
// accepts it as a team; three players join on each server (a third
// server's player cannot); the arena never pairs teammates, pings the
// visitors in their own channel with their game's page, and the team
// standings add each team's best two.
func TestTeamArenaBetweenTwoServers(t *testing.T) {
	e := openThreads(t, 5)
	e.cfg.PageURL = func(id string) string { return "https://othello.example/g/" + id }
	e.adapter.SetService(rebuild(e, quiet))
	const other = "900000000000000002"
	admin := func(user, guild, channel string, sub string, opts map[string]string) string {
		resp := e.handle(user, guild, channel, bot.Request{Kind: bot.Command, Command: "tournament", Subcommand: sub, Options: opts,
			MemberPermissions: bot.PermManageGuild})
		if resp.Message == nil {
			t.Fatalf("%s's /tournament %s: no answer", user, sub)
		}
		return resp.Message.Content
	}
	e.say("admin alice")
	expect(t, e.say("alice #lobby: /tournament create format:arena minutes:10 time:1+0 size:4 rated:false teams:2 team:Lions"),
		"needs this server open to others")
	e.openPool(local.GuildID)
	expect(t, e.say("alice #lobby: /tournament create format:roundrobin time:1+0 size:4 teams:2"), "A team battle is an arena or a Swiss")
	out := e.say("alice #lobby: /tournament create format:arena minutes:10 time:1+0 size:4 rated:false teams:2 team:Lions")
	expect(t, out, "Team battle: the best 2 of each server count · Lions")
	expect(t, e.say("alice #lobby: /tournament invite server:"+other), "is not open to others")
	e.openPool(other)
	expect(t, e.say("alice #lobby: /tournament invite server:12345"), "That is not a server ID")
	expect(t, e.say("alice #lobby: /tournament invite server:"+other), "Invited.")
	expect(t, e.say("alice #lobby: /tournament invite server:"+other), "invited already")

	// The other server: a member without Manage Server cannot accept; a
	// player cannot join before the team plays; then it accepts.
	resp := e.handle("g1", other, "den2", bot.Request{Kind: bot.Command, Command: "tournament", Subcommand: "accept",
		Options: map[string]string{"id": "1", "name": "Tigers"}})
	expect(t, resp.Message.Content, "needs Manage Server")
	join := func(user, guild, channel string) string {
		resp := e.handle(user, guild, channel, bot.Request{Kind: bot.Command, Command: "tournament", Subcommand: "join",
			Options: map[string]string{"id": "1"}})
		return resp.Message.Content
	}
	expect(t, join("g1", other, "den2"), "does not play in team battle #1")
	expect(t, admin("admin2", other, "den2", "accept", map[string]string{"id": "1", "name": "Tigers"}),
		"**Tigers** plays for this server in the team battle #1", "The best 2 of each team count")
	expect(t, admin("admin2", other, "den2", "accept", map[string]string{"id": "1", "name": "Again"}), "accepted already")
	expect(t, join("x1", "900000000000000003", "far"), "no tournament #1")
	// The visiting server's moderators run nothing of the host's.
	for _, sub := range []string{"pause", "cancel", "start"} {
		expect(t, admin("admin2", other, "den2", sub, map[string]string{"id": "1"}), "Only the tournament's organiser or a moderator")
	}
	expect(t, admin("admin2", other, "den2", "invite", map[string]string{"id": "1", "server": "900000000000000004"}), "Only the tournament's organiser or a moderator")

	for _, p := range []string{"bob", "carol", "dave"} {
		e.say(p + " #lobby: click Join")
	}
	for _, p := range []string{"g1", "g2", "g3"} {
		expect(t, join(p, other, "den2"), "You are in the team battle #1", "played on their web pages")
	}
	team := map[string]string{"bob": "lions", "carol": "lions", "dave": "lions", "g1": "tigers", "g2": "tigers", "g3": "tigers"}
	e.say("alice #lobby: /tournament start")
	start := e.clock.Now()
	pinged := false
	for e.clock.Now().Sub(start) < 10*time.Minute {
		games := e.activeTournamentGames(1)
		if len(games) == 0 {
			if strings.Contains(e.say("wait 5s"), "your team battle game #") {
				pinged = true
			}
			continue
		}
		for _, g := range games {
			e.playOut(g.ID)
		}
		if strings.Contains(e.say("wait 20s"), "your team battle game #") {
			pinged = true
		}
	}
	for _, g := range e.activeTournamentGames(1) {
		e.playOut(g.ID)
	}
	e.say("wait 5s")
	ps, err := e.store.Pairings(context.Background(), 1)
	if err != nil || len(ps) < 10 {
		t.Fatalf("%d games: %v", len(ps), err)
	}
	for _, p := range ps {
		if team[p.Black] == team[p.White] {
			t.Fatalf("teammates %s and %s were paired", p.Black, p.White)
		}
	}
	if !pinged {
		t.Error("no visitor was told of a game in their own channel")
	}
	entrants, _ := e.store.Entrants(context.Background(), 1)
	rows := tournament.Standings(tournament.Arena, entrants, tournament.Games(ps))
	teamOf := map[string]string{}
	for _, en := range entrants {
		teamOf[en.ID] = en.Team
	}
	teams := tournament.TeamStandings(rows, teamOf, 2)
	if len(teams) != 2 || teams[0].Counted != 2 || teams[0].Points != teams[0].Players[0].Points+teams[0].Players[1].Points {
		t.Fatalf("team standings %+v", teams)
	}
	out = e.say("alice #lobby: /tournament show id:1")
	names := map[string]string{local.GuildID: "Lions", other: "Tigers"}
	for _, ts := range teams {
		expect(t, out, fmt.Sprintf("%d. %s %v: %s %v, %s %v", ts.Rank, names[ts.Team], ts.Points,
			ts.Players[0].Name, ts.Players[0].Points, ts.Players[1].Name, ts.Players[1].Points))
	}
	expect(t, out, "Teams (best 2 count)")
	t.Logf("%d games; teams %s %v and %s %v", len(ps), teams[0].Team, teams[0].Points, teams[1].Team, teams[1].Points)
}
