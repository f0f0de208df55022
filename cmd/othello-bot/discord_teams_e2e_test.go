package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// A team battle through the run wiring and the fake Discord, the second
// server speaking Japanese: both servers open to the pool; the first
// creates an arena with teams:2 and invites the second, whose member with
// Manage Server accepts; two of the longest names join on each side; once
// started, every game pairs the two servers, each visitor is pinged in
// their team's channel with a Play button to the game's page, and every
// message — sign-up, standings with the teams, pings — passes the fake's
// checks of Discord's limits, in both languages.
func TestDiscordTeamBattle(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	const second, den = "1300000000000000001", "8300000000000000001"
	srv.AddGuildChannel(second, den, discordtest.AllText)
	srv.SetGuildLocale(second, "ja")
	c := testBotConfig(srv, t.TempDir())
	c.PublicURL = "https://othello.example"
	c.GuildIDs = []string{srv.GuildID, second}
	r := startBot(t, srv, c)
	for _, ch := range []string{lobby, den} {
		r.do(srv.Command(alice, ch, "settings", map[string]any{"pool": "open"}))
	}
	long := strings.Repeat("*_|", 11)[:32]
	created := srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "create", map[string]any{"format": "arena", "minutes": 5,
		"time": "1+0", "size": 4, "rated": false, "teams": 2, "team": long, "name": long})))
	if created == nil || !strings.Contains(created.Text(), "open for sign-up") {
		t.Fatalf("create: %+v; log:\n%s", created, r.logs)
	}
	if m := srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "invite", map[string]any{"server": second}))); m == nil ||
		!strings.Contains(m.Text(), "Invited.") {
		t.Fatalf("invite: %+v", m)
	}
	if m := srv.Reply(r.do(srv.Subcommand(carol, den, "tournament", "accept", map[string]any{"id": 1, "name": long}))); m == nil ||
		!strings.Contains(m.Text(), "チーム戦 #1") {
		t.Fatalf("accept: %+v; log:\n%s", m, r.logs)
	}
	var hosts, visitors []discordtest.User
	for i := 0; i < 2; i++ {
		hosts = append(hosts, discordtest.User{ID: fmt.Sprintf("71000000000000000%02d", i), Name: long})
		visitors = append(visitors, discordtest.User{ID: fmt.Sprintf("72000000000000000%02d", i), Name: long})
	}
	for _, u := range hosts {
		r.do(srv.Subcommand(u, lobby, "tournament", "join", map[string]any{"id": 1}))
	}
	for _, u := range visitors {
		if m := srv.Reply(r.do(srv.Subcommand(u, den, "tournament", "join", map[string]any{"id": 1}))); m == nil ||
			!strings.Contains(m.Text(), "You are in the team battle #1") { // only-you: in the member's language
			t.Fatalf("a visitor's join: %+v; log:\n%s", m, r.logs)
		}
	}
	r.do(srv.Subcommand(alice, lobby, "tournament", "start", map[string]any{"id": 1}))
	var pings []*discordtest.Message
	for deadline := time.Now().Add(15 * time.Second); len(pings) < 2 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		pings = pings[:0]
		for _, m := range srv.Messages(den, "") {
			if strings.Contains(m.Text(), "チーム戦の対局 #") {
				pings = append(pings, m)
			}
		}
	}
	if len(pings) < 2 {
		t.Fatalf("%d visitors pinged in their channel; log:\n%s", len(pings), r.logs)
	}
	for _, p := range pings {
		if url := linkButton(p, "対局する"); !strings.HasPrefix(url, "https://othello.example/g/") {
			t.Errorf("a ping without the game's page: %q", p.Text())
		}
	}
	show := srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "show", map[string]any{"id": 1})))
	if show == nil {
		t.Fatal("no standings")
	}
	checkClean(t, srv, r)
}
