package main

import (
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// Puzzles through the real run wiring and the fake Discord: the built-in
// set stored at start gives /puzzle an only-you puzzle with its move menu,
// and an answer is rated; the daily puzzle set with /settings is posted by
// the tick in the channel, once, its Solve button opening an only-you try;
// /openings answers in an embed within Discord's limits.
func TestDiscordPuzzleAndDailyPuzzle(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	r := startBot(t, srv, testBotConfig(srv, dir))

	var reply *discordtest.Message
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		reply = srv.Reply(r.do(srv.Command(bob, lobby, "puzzle", nil)))
		if reply != nil && strings.Contains(reply.Text(), "to move and") || time.Now().After(deadline) {
			break // the built-in set is stored just after start
		}
	}
	if reply == nil || !reply.Ephemeral || !strings.Contains(reply.Text(), "From the built-in set") {
		t.Fatalf("/puzzle: %+v; log:\n%s", reply, r.logs)
	}
	id, values, ok := reply.Menu()
	if !ok || len(values) == 0 {
		t.Fatalf("no move menu: %s", reply.Text())
	}
	r.do(srv.Select(bob, reply, id, values[0]))
	// The answer replaces the puzzle's message (an ephemeral update): rated,
	// or (the first move of a longer line) the reply played.
	if answer := srv.Message(reply.ID); answer == nil || !answer.Ephemeral ||
		!strings.Contains(answer.Text(), "Puzzle rating 1500 → ") && !strings.Contains(answer.Text(), "is right. The reply: ") {
		t.Fatalf("the answer: %+v; violations %q", answer, srv.Violations())
	}

	set := srv.Reply(r.do(srv.Command(alice, lobby, "settings", map[string]any{"puzzle-channel": "here", "puzzle-hour": 0})))
	if set == nil || !strings.Contains(set.Text(), "every day at 0:00 UTC") {
		t.Fatalf("/settings: %+v", set)
	}
	var post *discordtest.Message
	for deadline := time.Now().Add(15 * time.Second); post == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, m := range srv.Messages(lobby, "") {
			if strings.Contains(m.Text(), "Daily puzzle ·") {
				post = m
			}
		}
	}
	if post == nil {
		t.Fatalf("no daily puzzle posted; log:\n%s", r.logs)
	}
	solve, ok := post.Button("Solve")
	if !ok {
		t.Fatalf("no Solve button: %s", post.Text())
	}
	try := srv.Reply(r.do(srv.Click(carol, post, solve)))
	if try == nil || !try.Ephemeral || !strings.Contains(try.Text(), "to move and") {
		t.Fatalf("Solve: %+v", try)
	}
	time.Sleep(6 * time.Second) // another tick: still one post
	n := 0
	for _, m := range srv.Messages(lobby, "") {
		if strings.Contains(m.Text(), "Daily puzzle ·") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d daily posts", n)
	}
	if o := srv.Reply(r.do(srv.Command(bob, lobby, "openings", map[string]any{"moves": "f5d6a1"}))); o == nil || !o.Ephemeral ||
		!strings.Contains(o.Text(), "Move 3, a1, is not legal there.") {
		t.Errorf("/openings with an illegal line: %+v", o)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("requests Discord would refuse: %q", v)
	}
}
