package main

import (
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
)

// The pairing pool through the real run wiring and the fake Discord:
// alice waits in the lobby (her wait shown with Play and Leave), bob asks
// for the same game in #hall and the game starts there — a thread of
// #hall where threads may be opened — while alice is pinged in the lobby
// with the way to it; her wait's message says she was paired.
func TestDiscordPoolPairsAcrossChannels(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	wait := srv.Reply(r.do(srv.Command(alice, lobby, "play", map[string]any{"time": "3+2"})))
	if wait == nil || wait.Ephemeral || !strings.Contains(wait.Text(), "alice is looking for a game: 3+2 · 8x8 · rated") {
		t.Fatalf("alice's wait: %+v; log:\n%s", wait, r.logs)
	}
	if _, ok := wait.Button("Leave"); !ok {
		t.Fatalf("no Leave button: %v", wait.Components)
	}
	paired := srv.Reply(r.do(srv.Command(bob, hall, "play", map[string]any{"time": "3+2"})))
	if paired == nil || !strings.Contains(paired.Text(), "alice and bob are paired from the pool.") {
		t.Fatalf("bob's /play: %+v; log:\n%s", paired, r.logs)
	}
	ping := messageSaying(srv, lobby, "", "you are paired with bob: game #1 is on in <#")
	if ping == nil {
		t.Fatalf("alice was not told in the lobby; log:\n%s", r.logs)
	}
	if m := srv.Message(wait.ID); m == nil || !strings.Contains(m.Text(), "alice was paired with bob: game #1") || len(m.Components) != 0 {
		t.Errorf("alice's wait after the pairing: %+v", m)
	}
	checkClean(t, srv, r)
}

// The pool's role ping through run and the fake Discord: an admin picks a
// role that is not mentionable, and is told the bot cannot ping it (as
// Discord would not notify it); made mentionable, a member's wait pings
// it — the fake's notifications say its members heard — and @everyone
// turns the ping off.
func TestDiscordPoolPingsARole(t *testing.T) {
	srv := newFake(t)
	players := srv.AddRole("Looking to play", 2)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	set := func(role string) string {
		m := srv.Reply(r.do(srv.Command(alice, lobby, "settings", map[string]any{"play-role": discordtest.RoleOption{ID: role}})))
		if m == nil || !m.Ephemeral {
			t.Fatalf("/settings play-role: %+v; log:\n%s", m, r.logs)
		}
		return m.Text()
	}
	if got := set(players); !strings.Contains(got, "I will ping <@&"+players+">") || !strings.Contains(got, "I cannot ping <@&"+players+"> as it is") {
		t.Errorf("an unmentionable role: %q", got)
	}
	srv.SetMentionable(players, true)
	if got := set(players); !strings.Contains(got, "I will ping <@&"+players+">") || strings.Contains(got, "cannot ping") {
		t.Errorf("a mentionable role: %q", got)
	}
	pinged := func(m *discordtest.Message) []string {
		for _, p := range srv.Pings() {
			if p.MessageID == m.ID {
				return p.Roles
			}
		}
		return nil // an edit notifies nobody
	}
	ia := r.do(srv.Command(bob, lobby, "play", map[string]any{"time": "3+2"}))
	wait := srv.Reply(ia)
	if wait == nil || !strings.Contains(wait.Text(), "bob is looking for a game") {
		t.Fatalf("bob's wait: %+v; log:\n%s", wait, r.logs)
	}
	if got := pinged(wait); len(got) != 0 {
		t.Errorf("the wait itself notified roles %v", got)
	}
	var call *discordtest.Message
	for _, m := range srv.Followups(ia) {
		if strings.Contains(m.Text(), "bob is looking for an opponent") {
			call = m
		}
	}
	if call == nil || call.Ephemeral {
		t.Fatalf("no public call for an opponent after bob's wait: %+v", srv.Followups(ia))
	}
	if got := pinged(call); len(got) != 1 || got[0] != players {
		t.Errorf("the call notified roles %v, want [%s]", got, players)
	}
	leave, _ := wait.Button("Leave")
	srv.Reply(r.do(srv.Click(bob, wait, leave)))
	// The call, read later, says the wait is over and since when.
	if got := srv.Message(call.ID).Text(); !strings.Contains(got, "bob was looking for an opponent — stopped waiting <t:") ||
		strings.Contains(got, "<@&") {
		t.Errorf("the call after bob left: %q", got)
	}
	if got := set(srv.GuildID); !strings.Contains(got, "/play pings no role any more.") {
		t.Errorf("@everyone: %q", got)
	}
	checkClean(t, srv, r)
}

// Pairing across servers through run and the fake Discord: two servers
// open their pools; carol waits for a casual 1+0 in the second server's
// #den; bob's /play in the first server's lobby starts the game there, and
// carol is pinged in #den with the game's page to play on.
func TestDiscordPoolPairsAcrossServers(t *testing.T) {
	srv := newFake(t)
	const second, den = "1300000000000000001", "8300000000000000001"
	srv.AddGuildChannel(second, den, discordtest.AllText)
	c := testBotConfig(srv, t.TempDir())
	c.PublicURL = "https://othello.example"
	c.GuildIDs = []string{srv.GuildID, second}
	r := startBot(t, srv, c)
	for _, ch := range []string{lobby, den} {
		m := srv.Reply(r.do(srv.Command(alice, ch, "settings", map[string]any{"pool": "open"})))
		if m == nil || !strings.Contains(m.Text(), "also pair with players of other servers") {
			t.Fatalf("/settings pool:open in %s: %+v; log:\n%s", ch, m, r.logs)
		}
	}
	casual := map[string]any{"time": "1+0", "rated": false}
	wait := srv.Reply(r.do(srv.Command(carol, den, "play", casual)))
	if wait == nil || !strings.Contains(wait.Text(), "carol is looking for a game: 1+0 · 8x8 · casual") {
		t.Fatalf("carol's wait: %+v; log:\n%s", wait, r.logs)
	}
	ia := r.do(srv.Command(bob, lobby, "play", casual))
	if got := srv.Reply(ia); got == nil || !strings.Contains(got.Text(), "carol and bob are paired from the pool.") {
		t.Fatalf("bob's /play: %+v; log:\n%s", got, r.logs)
	}
	note := false
	for _, m := range srv.Followups(ia) {
		note = note || strings.Contains(m.Text(), "carol joins from another server and plays on the game's page.")
	}
	if !note {
		t.Errorf("bob is not told carol plays on the page: %+v", srv.Followups(ia))
	}
	ping := messageSaying(srv, den, "", "you are paired with bob from another server: game #1 is on.")
	if ping == nil {
		t.Fatalf("carol was not told in #den; log:\n%s", r.logs)
	}
	if url := linkButton(ping, "Watch"); !strings.HasPrefix(url, "https://othello.example/g/") {
		t.Errorf("carol's ping has no Watch button to the game's page: %q", url)
	}
	checkClean(t, srv, r)
}

// From the bot's DM through run and the fake Discord (global commands,
// as a user's install sees them): ann waits in her DM with the bot; bob's
// casual /play in the open lobby takes her wait, the game starts there,
// and ann is told in her DM with the game's page. /play is not offered in
// a group DM, where the bot could never tell anyone of a pairing.
func TestDiscordPoolFromTheBotsDM(t *testing.T) {
	srv, r := startAnywhere(t, func(c *config.Config) { c.PublicURL = "https://othello.example" })
	if m := srv.Reply(r.do(srv.Command(alice, lobby, "settings", map[string]any{"pool": "open"}))); m == nil ||
		!strings.Contains(m.Text(), "also pair with players of other servers") {
		t.Fatalf("/settings pool:open: %+v; log:\n%s", m, r.logs)
	}
	wait := srv.Reply(r.do(srv.Command(ann, botDM, "play", map[string]any{"time": "1+0"})))
	if wait == nil || !strings.Contains(wait.Text(), "You wait for a game: 1+0 · 8x8 · casual.") {
		t.Fatalf("ann's wait in the DM: %+v; log:\n%s", wait, r.logs)
	}
	if got := srv.Reply(r.do(srv.Command(bob, lobby, "play", map[string]any{"time": "1+0", "rated": false}))); got == nil ||
		!strings.Contains(got.Text(), "ann and bob are paired from the pool.") {
		t.Fatalf("bob's /play: %+v; log:\n%s", got, r.logs)
	}
	told := messageSaying(srv, botDM, ann.ID, "you are paired with bob from another server: game #1 is on.")
	if told == nil {
		t.Fatalf("ann was not told in her DM; log:\n%s", r.logs)
	}
	if url := linkButton(told, "Watch"); !strings.HasPrefix(url, "https://othello.example/g/") {
		t.Errorf("ann's message has no Watch button to the game's page: %q", url)
	}
	checkClean(t, srv, r)
}

// messageSaying waits up to 5 s for a message in channel (as viewer sees
// it: "" for everyone) that says text, and returns it (nil if none came).
func messageSaying(srv *discordtest.Server, channel, viewer, text string) *discordtest.Message {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, m := range srv.Messages(channel, viewer) {
			if strings.Contains(m.Text(), text) {
				return m
			}
		}
	}
	return nil
}
