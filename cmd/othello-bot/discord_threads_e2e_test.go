package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// Where the bot may open threads, /start and an accepted challenge each
// open one, named after the game; both games run at once from one channel
// and are played to the end in their threads; a thread deleted mid-game
// ends its game.
func TestDiscordGamesInThreads(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	r := startBot(t, srv, c)

	reply := srv.Reply(r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 4, "color": "black"})))
	threads := srv.Threads()
	if len(threads) != 1 || threads[0].Parent != lobby || threads[0].Name != "Game #1 · alice vs Bot (level 1)" {
		t.Fatalf("threads after /start: %+v; log:\n%s", threads, r.logs)
	}
	first := threads[0].ID
	if reply == nil || !strings.Contains(reply.Text(), "<#"+first+">") {
		t.Fatalf("the /start reply does not point to the thread: %+v", reply)
	}
	if liveGame(srv, first) == nil || liveGame(srv, lobby) != nil {
		t.Fatal("the game message is not in the thread alone")
	}

	r.do(srv.Command(bob, lobby, "challenge", map[string]any{"opponent": carol, "size": 4, "color": "black", "rated": false}))
	challenge := srv.Messages(lobby, "")
	accept, _ := challenge[len(challenge)-1].Button("Accept")
	r.do(srv.Click(carol, challenge[len(challenge)-1], accept))
	threads = srv.Threads()
	if len(threads) != 2 || threads[1].Name != "Game #2 · bob vs carol" {
		t.Fatalf("threads after the challenge: %+v", threads)
	}
	second := threads[1].ID

	playToTheEnd(t, r, first, map[string]discordtest.User{alice.ID: alice})
	playToTheEnd(t, r, second, map[string]discordtest.User{bob.ID: bob, carol.ID: carol})
	log, _ := os.ReadFile(filepath.Join(dir, "results.log"))
	if strings.Count(string(log), "\n") != 2 {
		t.Fatalf("results log %q", log)
	}

	// A third game, its thread deleted by a moderator mid-game.
	r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 6, "color": "black"}))
	threads = srv.Threads()
	third := threads[len(threads)-1].ID
	srv.DeleteThread(third)
	deadline := time.Now().Add(10 * time.Second)
	for {
		log, _ = os.ReadFile(filepath.Join(dir, "results.log"))
		if strings.Contains(string(log), `note="its thread was deleted"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted thread's game did not end; results log %q; log:\n%s", log, r.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	checkClean(t, srv, r)
}

// memberThread is a thread a member opened off the lobby.
const memberThread = "8000000000000000020"

// Inside a thread a member opened (public or private), /start and an
// accepted challenge play right there: the bot never asks Discord for a
// thread in a thread (400 50024), and each game runs to its end.
func TestDiscordGamesInAMembersThread(t *testing.T) {
	for _, private := range []bool{false, true} {
		srv := newFake(t)
		srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
		srv.AddMemberThread(lobby, memberThread, private)
		r := startBot(t, srv, testBotConfig(srv, t.TempDir()))

		reply := srv.Reply(r.do(srv.Command(alice, memberThread, "start", map[string]any{"level": 1, "size": 4, "color": "black"})))
		if reply == nil || liveGame(srv, memberThread) == nil || len(srv.Threads()) != 1 {
			t.Fatalf("private=%v: /start in a member's thread: %+v, threads %+v; log:\n%s", private, reply, srv.Threads(), r.logs)
		}
		// The thread is busy: a second /start points to its channel.
		busy := srv.Reply(r.do(srv.Command(bob, memberThread, "start", map[string]any{"level": 1})))
		if busy == nil || !busy.Ephemeral || !strings.Contains(busy.Text(), "Start yours from <#"+lobby+">") {
			t.Fatalf("a second /start in the thread: %+v", busy)
		}
		playToTheEnd(t, r, memberThread, map[string]discordtest.User{alice.ID: alice})

		r.do(srv.Command(bob, memberThread, "challenge", map[string]any{"opponent": carol, "size": 4, "color": "black", "rated": false}))
		msgs := srv.Messages(memberThread, "")
		challenge := msgs[len(msgs)-1]
		accept, ok := challenge.Button("Accept")
		if !ok {
			t.Fatalf("no challenge in the thread: %s", challenge.Text())
		}
		r.do(srv.Click(carol, challenge, accept))
		if liveGame(srv, memberThread) == nil || len(srv.Threads()) != 1 {
			t.Fatalf("the accepted challenge did not play in the thread: threads %+v", srv.Threads())
		}
		playToTheEnd(t, r, memberThread, map[string]discordtest.User{bob.ID: bob, carol.ID: carol})
		checkClean(t, srv, r)
		r.stop()
	}
}

// In a thread where the bot may not post (no Send Messages in Threads,
// though Send Messages is granted: it has no effect in a thread), a
// challenge is refused up front, naming the permission, and nothing is
// posted that Discord would answer with 403.
func TestDiscordThreadWithoutSendMessagesInThreads(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText&^discordtest.SendMessagesInThreads)
	srv.AddMemberThread(lobby, memberThread, false)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	reply := srv.Reply(r.do(srv.Command(bob, memberThread, "challenge", map[string]any{"opponent": carol, "size": 4})))
	if reply == nil || !reply.Ephemeral || !strings.Contains(reply.Text(), "Send Messages in Threads") {
		t.Fatalf("a challenge where the bot may not post: %+v", reply)
	}
	checkClean(t, srv, r)
}

// A game played in its thread, then threads denied in the channel: the
// Rematch button starts the new game in the channel itself, without the
// thread Discord would refuse (403 50013, which counts toward its limit
// on invalid requests), and the thread got its final name in one call.
func TestDiscordRematchWhereThreadsAreDenied(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 4, "color": "black"}))
	threads := srv.Threads()
	if len(threads) != 1 || threads[0].Renames != 0 || threads[0].Name != "Game #1 · alice vs Bot (level 1)" {
		t.Fatalf("the thread: %+v", threads)
	}
	thread := threads[0].ID
	playToTheEnd(t, r, thread, map[string]discordtest.User{alice.ID: alice})
	msgs := srv.Messages(thread, "")
	final := msgs[len(msgs)-1]
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := msgs[i].Button("Rematch"); ok {
			final = msgs[i]
			break
		}
	}
	rematch, ok := final.Button("Rematch")
	if !ok {
		t.Fatalf("no Rematch button: %s", final.Text())
	}
	// A moderator takes threads away (the thread inherits the channel's).
	srv.AddChannel(lobby, discordtest.AllText)
	srv.AddChannel(thread, discordtest.AllText)
	r.do(srv.Click(alice, final, rematch))
	if len(srv.Threads()) != 1 || liveGame(srv, lobby) == nil {
		t.Fatalf("the rematch: threads %+v, game in the lobby %v; log:\n%s", srv.Threads(), liveGame(srv, lobby) != nil, r.logs)
	}
	checkClean(t, srv, r)
}
