package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/storage"
)

// A game on a clock through the real wiring and the fake Discord: the game
// message carries the side to move's flag as a Discord timestamp (every
// reader's client counts it down), and a move is charged up to the time
// Discord received it (its interaction id's time), not its later arrival.
func TestDiscordClockChargesTheInteractionsOwnTime(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	c.Threads = false
	r := startBot(t, srv, c)
	r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "size": 8, "color": "black", "time": "1+0"}))
	msgs := srv.Messages(lobby, "")
	challenge := msgs[len(msgs)-1]
	if !strings.Contains(challenge.Content, "1+0 · Bullet") {
		t.Fatalf("the challenge does not name its clock: %q", challenge.Content)
	}
	accept, _ := challenge.Button("Accept")
	r.do(srv.Click(bob, challenge, accept))
	play := func(u discordtest.User) {
		t.Helper()
		m := liveGame(srv, lobby)
		id, values, _ := m.Menu()
		r.do(srv.Select(u, m, id, values[0]))
	}
	play(alice) // the first moves are not timed
	play(bob)

	store, err := storage.Open(context.Background(), filepath.Join(dir, "bot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g, err := store.ActiveGame(context.Background(), lobby)
	if err != nil {
		t.Fatal(err)
	}
	turnStart := g.TurnStartedAt
	// alice answers 3 s into her turn, but her move reaches the bot 2 s
	// after Discord received it: she is charged about 1 s, not 3.
	time.Sleep(3 * time.Second)
	srv.SetBackdate(2 * time.Second)
	play(alice)
	srv.SetBackdate(0)
	g, err = store.ActiveGame(context.Background(), lobby)
	if err != nil {
		t.Fatal(err)
	}
	charged := time.Minute - g.Left[0]
	if charged < time.Second || charged >= 2500*time.Millisecond {
		t.Fatalf("alice was charged %v for a move Discord received about 1 s into her turn (turn began %v)", charged, turnStart)
	}
	// The board shows both clocks and bob's flag, to the second, as a
	// timestamp.
	text := liveGame(srv, lobby).Text()
	if want := fmt.Sprintf("bob's flag falls <t:%d:R>.", g.Deadline.Unix()); !strings.Contains(text, want) || !strings.Contains(text, "Clocks: ⚫ 0:5") {
		t.Fatalf("the game message lacks %q and the clocks:\n%s", want, text)
	}
	checkClean(t, srv, r)
}
