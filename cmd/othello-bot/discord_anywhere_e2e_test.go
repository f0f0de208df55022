package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
	"othello-bot/place"
)

// The bot installed to users' accounts and used where it is no member:
// the DM with the bot, a group DM, a server that never added it. There
// the fake Discord refuses (and flags) any request to the channel itself,
// offers only the global commands registered for user installs, and lets
// an interaction have five follow-ups at most.

const (
	botDM         = "8100000000000000001"
	groupDM       = "8100000000000000002"
	otherServer   = "2100000000000000001"
	otherChannel  = "8100000000000000003"
	otherChannel2 = "8100000000000000004"
)

var (
	// Players who installed the app to their accounts.
	ann = discordtest.User{ID: "7100000000000000001", Name: "ann", UserInstall: true}
	ben = discordtest.User{ID: "7100000000000000002", Name: "ben", UserInstall: true}
	// cal did not: she can press buttons on the bot's messages, no more.
	cal = discordtest.User{ID: "7100000000000000003", Name: "cal"}
)

// startAnywhere runs the bot with its commands registered globally (the
// only commands user installs see) against a fake with the three places.
func startAnywhere(t *testing.T, tune func(*config.Config)) (*discordtest.Server, *botRun) {
	t.Helper()
	srv := newFake(t)
	srv.AddBotDM(botDM)
	srv.AddGroupDM(groupDM)
	srv.AddServerWithoutBot(otherServer, otherChannel, discordtest.AllText)
	srv.AddServerWithoutBot(otherServer, otherChannel2, discordtest.AllText)
	c := testBotConfig(srv, t.TempDir())
	c.GuildIDs = nil
	c.Threads = true // and still no thread where the bot is no member
	if tune != nil {
		tune(&c)
	}
	return srv, startBot(t, srv, c)
}

// noChannelCalls fails the test if the bot asked anything of a channel it
// is no member of.
func noChannelCalls(t *testing.T, srv *discordtest.Server, channels ...string) {
	t.Helper()
	for _, ch := range channels {
		if n := srv.ChannelCalls(ch); n != 0 {
			t.Errorf("%d requests to channel %s, where the bot is no member", n, ch)
		}
	}
}

// Games against the bot in its DM and in a server without it, each played
// to the end through the move menu; /help says what differs there.
func TestDiscordAnywhereAgainstTheBot(t *testing.T) {
	srv, r := startAnywhere(t, nil)
	for _, ch := range []string{botDM, otherChannel} {
		ia := r.do(srv.Command(ann, ch, "start", map[string]any{"level": 2, "size": 6, "color": "black"}))
		first := srv.Reply(ia)
		if first == nil || first.Ephemeral || !strings.Contains(first.Text(), "ann started a game against Bot (level 2).") {
			t.Fatalf("%s: start reply %+v", ch, first)
		}
		playToTheEnd(t, r, ch, map[string]discordtest.User{ann.ID: ann})
		final := srv.Message(first.ID)
		if !strings.Contains(final.Text(), "Result") {
			t.Fatalf("%s: the game's message does not show its end:\n%s", ch, final.Text())
		}
	}
	// The analysis's progress is the reply itself, edited in place by its
	// token until the report is there (game 2: the one in the server).
	an := r.do(srv.Command(ann, otherChannel, "analyze", map[string]any{"game": 2}))
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if rep := srv.Reply(an); rep != nil && strings.Contains(rep.Text(), "Analysis of game #2") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the analysis did not arrive in its reply: %+v", srv.Reply(an))
		}
	}
	help := srv.Reply(r.do(srv.Command(ann, otherChannel, "help", nil)))
	if help == nil || !help.Ephemeral || !strings.Contains(help.Text(), "Anywhere else") || !strings.Contains(help.Text(), "15 minutes") {
		t.Fatalf("help: %+v", help)
	}
	// Tournaments need the bot in the server: not offered to user installs.
	for _, c := range srv.Commands("") {
		if c["name"] == "tournament" && fmt.Sprint(c["integration_types"]) != "[0]" {
			t.Errorf("tournament registered for %v", c["integration_types"])
		}
	}
	noChannelCalls(t, srv, otherChannel)
	checkClean(t, srv, r)
}

// A challenge in a group DM: ann challenges cal, who never installed the
// app; cal accepts with the button and they play it out by the menus. ben,
// also in the group, cannot move for them.
func TestDiscordAnywhereChallengeInAGroupDM(t *testing.T) {
	srv, r := startAnywhere(t, nil)
	ia := r.do(srv.Command(ann, groupDM, "challenge", map[string]any{"opponent": cal, "size": 4, "color": "black"}))
	if reply := srv.Reply(ia); reply == nil || !reply.Ephemeral || !strings.Contains(reply.Content, "Challenge sent to cal") {
		t.Fatalf("challenge reply: %+v", reply)
	}
	f := srv.Followups(ia)
	if len(f) != 1 || f[0].Ephemeral {
		t.Fatalf("the challenge is not a public follow-up: %+v", f)
	}
	challenge := f[0]
	accept, ok := challenge.Button("Accept")
	if !ok {
		t.Fatalf("no Accept button: %+v", challenge)
	}
	r.do(srv.Click(cal, challenge, accept))
	if got := srv.Message(challenge.ID); !strings.Contains(got.Text(), "cal accepted ann's challenge.") {
		t.Fatalf("after accept:\n%s", got.Text())
	}
	players := map[string]discordtest.User{ann.ID: ann, cal.ID: cal}
	moves := 0
	for m := liveGame(srv, groupDM); m != nil; m = liveGame(srv, groupDM) {
		id, values, _ := m.Menu()
		if moves == 0 {
			ref := srv.Reply(r.do(srv.Select(ben, m, id, values[0])))
			if ref == nil || !ref.Ephemeral || ref.VisibleTo != ben.ID {
				t.Fatalf("ben's move was not refused privately: %+v", ref)
			}
		}
		r.do(srv.Select(playerToMove(t, m, players), m, id, values[0]))
		if moves++; moves > 40 {
			t.Fatal("the game did not end")
		}
	}
	// Rated, in a group DM: it counts everywhere, and there is no server.
	board := srv.Reply(r.do(srv.Command(ann, groupDM, "leaderboard", nil)))
	if board == nil || !strings.Contains(board.Text(), "ann") || !strings.Contains(board.Text(), "cal") {
		t.Fatalf("leaderboard in the group DM: %+v", board)
	}
	noChannelCalls(t, srv, groupDM)
	checkClean(t, srv, r)
}

// A correspondence game in a server without the bot whose player to move
// lets the time run out when every reply token of the channel is about to
// die (each interaction came 14m40s before the bot got it: the fake stamps
// its id then): nothing can be posted, so the result waits, and the
// channel's next interaction shows it.
func TestDiscordAnywhereTimeoutShownAtTheNextInteraction(t *testing.T) {
	srv, r := startAnywhere(t, func(c *config.Config) {
		// A move counts from at most 10 s before the bot got it (a clock
		// out of step): 14 s leaves the players 4 s.
		c.MoveTimeout = config.Duration(14 * time.Second)
		c.ReminderBefore = 0
	})
	srv.SetBackdate(place.TokenLife - 20*time.Second)
	ia := r.do(srv.Command(ann, otherChannel2, "challenge", map[string]any{"opponent": ben, "size": 4, "color": "black"}))
	challenge := srv.Followups(ia)[0]
	accept, _ := challenge.Button("Accept")
	r.do(srv.Click(ben, challenge, accept))
	players := map[string]discordtest.User{ann.ID: ann, ben.ID: ben}
	for i := 0; i < 3; i++ { // ann, ben, ann: ben has moved, so he loses rather than the game being aborted
		m := liveGame(srv, otherChannel2)
		id, values, _ := m.Menu()
		r.do(srv.Select(playerToMove(t, m, players), m, id, values[0]))
	}
	srv.SetBackdate(0)
	before := len(srv.Messages(otherChannel2, ""))
	// The timers look every 5 s; the flag falls within two looks.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(r.logs.String(), "kept a notice for the channel's next interaction") {
		if time.Now().After(deadline) {
			t.Fatalf("the time-out was not kept for later; log:\n%s", r.logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(srv.Messages(otherChannel2, "")); n != before {
		t.Fatalf("%d messages appeared with the token about to die", n-before)
	}
	next := r.do(srv.Command(ann, otherChannel2, "board", nil))
	var shown []string
	for _, m := range srv.Followups(next) {
		shown = append(shown, m.Text())
	}
	text := strings.Join(shown, "\n")
	if !strings.Contains(text, "While I could not post here:") || !strings.Contains(text, "ran out of time") {
		t.Fatalf("the next interaction does not show the time-out; follow-ups:\n%s", text)
	}
	// Shown once.
	again := r.do(srv.Command(ann, otherChannel2, "board", nil))
	for _, m := range srv.Followups(again) {
		if strings.Contains(m.Text(), "ran out of time") {
			t.Fatalf("the notice came twice: %q", m.Text())
		}
	}
	noChannelCalls(t, srv, otherChannel2)
	checkClean(t, srv, r)
}
