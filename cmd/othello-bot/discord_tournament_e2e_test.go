package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	msgs := srv.Messages(lobby, "")
	signup := msgs[len(msgs)-1]
	join, ok := signup.Button("Join")
	if !ok {
		t.Fatalf("no Join button: %s", signup.Text())
	}
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
