package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// Othello TV through the real run wiring and the fake Discord: set in
// #hall, it shows the game alice and bob play in the lobby on one screen,
// edited as the moves come (a whole game played as fast as the menus
// answer), ending on the result — and never a 429: the screen takes at
// most one edit per round.
func TestDiscordTVFollowsAGame(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	set := srv.Reply(r.do(srv.Command(alice, hall, "settings", map[string]any{"tv": "here"})))
	if set == nil || !strings.Contains(set.Text(), "Othello TV is on") {
		t.Fatalf("/settings tv: %+v", set)
	}
	plain := discordtest.User{ID: "7000000000000000009", Name: "dave", Permissions: "3072"} // view and send only
	if denied := srv.Reply(r.do(srv.Command(plain, hall, "settings", map[string]any{"tv": "off"}))); denied == nil ||
		!strings.Contains(denied.Text(), "Manage Server") {
		t.Fatalf("a member without Manage Server turned the TV off: %+v", denied)
	}
	challengeAccepted(t, srv, r, alice, bob)
	screen := func() *discordtest.Message {
		for _, m := range srv.Messages(hall, "") {
			if strings.Contains(m.Text(), "📺 Game #1") {
				return m
			}
		}
		return nil
	}
	for deadline := time.Now().Add(10 * time.Second); screen() == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no screen in #hall; log:\n%s", r.logs)
		}
	}
	began := time.Now()
	playToTheEnd(t, r, lobby, map[string]discordtest.User{"alice": alice, "bob": bob})
	played := time.Since(began)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(screen().Text(), "Result:"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen did not show the end:\n%s", screen().Text())
		}
	}
	s := screen()
	if _, _, menu := s.Menu(); menu || strings.Contains(fmt.Sprint(s.Components), "custom_id") {
		t.Errorf("the screen acts on the game: %v", s.Components)
	}
	rounds := int(time.Since(began)/(1250*time.Millisecond)) + 2
	t.Logf("a game of %s followed with %d edits", played.Round(time.Millisecond), s.Edits)
	if s.Edits < 2 || s.Edits > rounds {
		t.Errorf("%d edits of the screen over %d rounds", s.Edits, rounds)
	}
	if n := len(srv.RateLimited()); n > 0 {
		t.Errorf("%d requests answered 429: %q", n, srv.RateLimited())
	}
	checkClean(t, srv, r)
}
