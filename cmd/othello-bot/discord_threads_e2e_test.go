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
