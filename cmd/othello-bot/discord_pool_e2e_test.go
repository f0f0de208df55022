package main

import (
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
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
	var ping *discordtest.Message
	for deadline := time.Now().Add(5 * time.Second); ping == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, m := range srv.Messages(lobby, "") {
			if strings.Contains(m.Text(), "you are paired with bob: game #1 is on in <#") {
				ping = m
			}
		}
	}
	if ping == nil {
		t.Fatalf("alice was not told in the lobby; log:\n%s", r.logs)
	}
	if m := srv.Message(wait.ID); m == nil || !strings.Contains(m.Text(), "alice was paired with bob: game #1") || len(m.Components) != 0 {
		t.Errorf("alice's wait after the pairing: %+v", m)
	}
	checkClean(t, srv, r)
}
