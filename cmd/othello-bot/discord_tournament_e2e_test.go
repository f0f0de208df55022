package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// A round-robin of three through the real run wiring and the fake
// Discord: /tournament create as a subcommand, sign-up by the Join button,
// a start by the organiser, each round's game in its own thread pinging
// both players, a bye each round, the standings edited in place, the
// podium with the table attached, and every game in the results log with
// its tournament.
func TestDiscordRoundRobinOfThree(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	c.PublicURL = "https://othello.example"
	r := startBot(t, srv, c)

	if reply := srv.Reply(r.do(srv.Subcommand(bob, lobby, "tournament", "show", nil))); reply == nil ||
		!strings.Contains(reply.Text(), "No tournament is open in this channel.") {
		t.Fatalf("show before any tournament: %+v", reply)
	}
	reply := srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "create",
		map[string]any{"format": "roundrobin", "time": "1+0", "size": 4, "rated": false, "name": "Cup"})))
	if reply == nil || !reply.Ephemeral || !strings.Contains(reply.Text(), "Tournament #1 (Cup) is open for sign-up") {
		t.Fatalf("create: %+v; log:\n%s", reply, r.logs)
	}
	signup, join := signupMessage(t, srv, lobby, "Cup")
	players := map[string]discordtest.User{alice.ID: alice, bob.ID: bob, carol.ID: carol}
	for _, u := range []discordtest.User{alice, bob, carol} {
		r.do(srv.Click(u, signup, join))
	}
	if text := srv.Message(signup.ID).Text(); !strings.Contains(text, "**3 players**\nalice, bob, carol") {
		t.Fatalf("the sign-up after three joins:\n%s", text)
	}
	r.do(srv.Subcommand(alice, lobby, "tournament", "start", nil))
	for round := 1; round <= 3; round++ {
		threads := srv.Threads()
		if len(threads) != round {
			t.Fatalf("round %d: %d threads; log:\n%s", round, len(threads), r.logs)
		}
		th := threads[round-1]
		if th.Parent != lobby {
			t.Fatalf("round %d's thread is off %s", round, th.Parent)
		}
		pinged := 0
		for _, m := range srv.Messages(th.ID, "") {
			pinged += len(pingOf(srv, m.ID).Users)
		}
		if pinged < 2 {
			t.Errorf("round %d: %d players pinged into the thread", round, pinged)
		}
		playToTheEnd(t, r, th.ID, players)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "results.log"))
	if strings.Count(string(log), " tournament=1 ") != 3 {
		t.Fatalf("results log %q", log)
	}
	var podium *discordtest.Message
	for _, m := range srv.Messages(lobby, "") {
		if strings.Contains(m.Text(), "Tournament #1 (Cup) is over.") {
			podium = m
		}
	}
	if podium == nil || len(podium.Files) != 1 || !strings.Contains(podium.Text(), "🥇") ||
		!strings.Contains(podium.Text(), "https://othello.example/t/") {
		t.Fatalf("no podium with its table: %+v", podium)
	}
	standings := 0
	for _, m := range srv.Messages(lobby, "") {
		if strings.Contains(m.Text(), "Standings · tournament #1") {
			standings++
		}
	}
	if standings != 1 {
		t.Errorf("%d standings messages: edited in place, there should be one", standings)
	}
	checkClean(t, srv, r)
}

// Where the bot may manage events, a tournament that starts later is
// listed among the server's events (an external event, as Discord
// requires for one in a text channel), made active when it starts and
// completed when it ends; one canceled before its start is canceled. Where
// the bot may not, nothing is asked of Discord that it would refuse.
func TestDiscordTournamentEvents(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	dir := t.TempDir()
	r := startBot(t, srv, testBotConfig(srv, dir))

	r.do(srv.Subcommand(alice, lobby, "tournament", "create", map[string]any{"format": "swiss", "start": "30m", "name": "No events"}))
	if ev := srv.Events(); len(ev) != 0 {
		t.Fatalf("events without the permission: %+v", ev)
	}
	r.do(srv.Subcommand(alice, lobby, "tournament", "cancel", map[string]any{"id": 1}))

	// Since 2026-02-23 Manage Events alone no longer creates events (change
	// log 2025-11-24): no event, and the organiser hears what to grant.
	srv.SetGuildPermissions(discordtest.ManageEvents)
	reply := srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "create",
		map[string]any{"format": "swiss", "start": "30m", "name": "Manage Events only"})))
	if ev := srv.Events(); len(ev) != 0 {
		t.Fatalf("events with Manage Events only: %+v", ev)
	}
	if reply == nil || !strings.Contains(reply.Text(), "Create Events permission") {
		t.Fatalf("no note on the missing Create Events: %+v", reply)
	}
	r.do(srv.Subcommand(alice, lobby, "tournament", "cancel", map[string]any{"id": 2}))

	srv.SetGuildPermissions(discordtest.CreateEvents)
	reply = srv.Reply(r.do(srv.Subcommand(alice, lobby, "tournament", "create",
		map[string]any{"format": "roundrobin", "start": "30m", "name": "Evening Cup", "time": "1+0", "size": 4, "rated": false})))
	if reply == nil || strings.Contains(reply.Text(), "Create Events") {
		t.Fatalf("a note on events where the bot may create them: %+v", reply)
	}
	ev := srv.Events()
	if len(ev) != 1 || ev[0].Name != "Evening Cup" || ev[0].Status != discordtest.EventScheduled ||
		!strings.Contains(ev[0].Description, "Othello tournament #3") || time.Until(ev[0].Start) < 29*time.Minute {
		t.Fatalf("events after create: %+v; log:\n%s", ev, r.logs)
	}
	signup, join := signupMessage(t, srv, lobby, "Evening Cup")
	for _, u := range []discordtest.User{alice, bob} {
		r.do(srv.Click(u, signup, join))
	}
	r.do(srv.Subcommand(alice, lobby, "tournament", "start", map[string]any{"id": 3}))
	if ev := srv.Events(); ev[0].Status != discordtest.EventActive {
		t.Fatalf("the event after the start: %+v", ev[0])
	}
	playToTheEnd(t, r, srv.Threads()[0].ID, map[string]discordtest.User{alice.ID: alice, bob.ID: bob})
	// The tournament ends after its last game's answer, in the background:
	// wait for it (30 s at most; a busy machine takes its time).
	for end := time.Now().Add(30 * time.Second); srv.Events()[0].Status != discordtest.EventCompleted; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the event 30 s after the end: %+v; log:\n%s", srv.Events()[0], r.logs)
		}
	}

	r.do(srv.Subcommand(alice, lobby, "tournament", "create", map[string]any{"format": "arena", "start": "2h", "minutes": 30, "time": "3+2"}))
	r.do(srv.Subcommand(alice, lobby, "tournament", "cancel", map[string]any{"reason": "rain"}))
	if ev := srv.Events(); len(ev) != 2 || ev[1].Status != discordtest.EventCanceled || ev[1].End.Sub(ev[1].Start) != 30*time.Minute {
		t.Fatalf("the canceled arena's event: %+v", ev)
	}
	checkClean(t, srv, r)
}

// Creating a tournament takes Manage Events (or Manage Server), or a role
// the config names: a member with neither is refused, one with the role is
// not.
func TestDiscordTournamentRole(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	c := testBotConfig(srv, t.TempDir())
	c.TournamentRoles = []string{"6000000000000000001"}
	r := startBot(t, srv, c)
	plain := discordtest.User{ID: "7000000000000000009", Name: "dave", Permissions: "3072"} // view and send only
	if reply := srv.Reply(r.do(srv.Subcommand(plain, lobby, "tournament", "create", map[string]any{"format": "swiss"}))); reply == nil ||
		!strings.Contains(reply.Text(), "Only members who may manage events") {
		t.Fatalf("a plain member: %+v", reply)
	}
	plain.Roles = []string{"6000000000000000002", "6000000000000000001"}
	if reply := srv.Reply(r.do(srv.Subcommand(plain, lobby, "tournament", "create", map[string]any{"format": "swiss"}))); reply == nil ||
		!strings.Contains(reply.Text(), "is open for sign-up") {
		t.Fatalf("a member with the tournament role: %+v; log:\n%s", reply, r.logs)
	}
	checkClean(t, srv, r)
}

// signupMessage waits for a tournament's sign-up message, named name, in
// a channel: the bot posts it beside its reply to the command, and on a
// busy machine it may come well after the reply.
func signupMessage(t *testing.T, srv *discordtest.Server, channel, name string) (*discordtest.Message, string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		msgs := srv.Messages(channel, "")
		for i := len(msgs) - 1; i >= 0; i-- {
			if join, ok := msgs[i].Button("Join"); ok && strings.Contains(msgs[i].Text(), name) {
				return msgs[i], join
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no sign-up message with a Join button for %s among the channel's %d messages", name, len(msgs))
		}
	}
}
