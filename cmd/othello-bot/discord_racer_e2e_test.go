package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/bot/storm"
	stormrules "othello-bot/storm"
)

// A 10-player Puzzle Racer through the real run wiring and the fake
// Discord: the race posted with /puzzle, nine join, the host starts it,
// each racer plays on an only-you message, all answering as fast as they
// can; the race's message is edited at most once a second (the fake's
// documented bucket for a channel's message edits is 5 per 5 s) and no
// request is answered 429.
func TestDiscordTenPlayerRace(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	r := startBot(t, srv, testBotConfig(srv, dir))

	racers := []discordtest.User{alice}
	for i := 1; i < stormrules.MaxRacers; i++ {
		racers = append(racers, discordtest.User{ID: fmt.Sprintf("70000000000000001%02d", i), Name: fmt.Sprintf("racer%d", i)})
	}
	var opened *discordtest.Message
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		opened = srv.Reply(r.do(srv.Command(alice, lobby, "puzzle", map[string]any{"mode": "race"})))
		if opened != nil && strings.Contains(opened.Text(), "Your race is open") || time.Now().After(deadline) {
			break // the built-in set is stored just after start
		}
	}
	if opened == nil || !opened.Ephemeral {
		t.Fatalf("/puzzle mode:race: %+v; log:\n%s", opened, r.logs)
	}
	var race *discordtest.Message
	for _, m := range srv.Messages(lobby, "") {
		if strings.Contains(m.Text(), "Puzzle Racer") && !m.Ephemeral {
			race = m
		}
	}
	if race == nil {
		t.Fatal("no race message")
	}
	join, _ := race.Button("Join")
	for _, u := range racers[1:] {
		r.do(srv.Click(u, srv.Message(race.ID), join))
	}
	if text := srv.Message(race.ID).Text(); !strings.Contains(text, "Racers (10/10)") {
		t.Fatalf("after nine joined: %s", text)
	}
	start, _ := srv.Message(race.ID).Button("Start")
	r.do(srv.Click(alice, srv.Message(race.ID), start))
	play, ok := srv.Message(race.ID).Button("Play")
	if !ok {
		t.Fatalf("no Play button: %s", srv.Message(race.ID).Text())
	}
	before := srv.Message(race.ID).Edits
	began := time.Now()
	var wg sync.WaitGroup
	answers := make([]int, len(racers))
	for i, u := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := srv.Reply(r.do(srv.Click(u, srv.Message(race.ID), play)))
			if m == nil || !m.Ephemeral {
				t.Errorf("%s pressing Play: %+v", u.Name, m)
				return
			}
			for time.Since(began) < 6*time.Second {
				id, values, ok := srv.Message(m.ID).Menu()
				if !ok || len(values) == 0 {
					return
				}
				r.do(srv.Select(u, srv.Message(m.ID), id, values[0]))
				answers[i]++
			}
		}()
	}
	wg.Wait()
	took := time.Since(began)
	edits := srv.Message(race.ID).Edits - before
	total := 0
	for _, n := range answers {
		total += n
	}
	t.Logf("%d answers by 10 racers in %s; the race's message edited %d times", total, took.Round(time.Millisecond), edits)
	if total < 20 {
		t.Fatalf("only %d answers", total)
	}
	if edits < 1 || edits > int(took/time.Second)+1 {
		t.Errorf("%d edits of the race's message in %s: want at least one and at most one a second", edits, took)
	}
	if limited := srv.RateLimited(); len(limited) > 0 {
		t.Errorf("answered 429: %q", limited)
	}
	checkClean(t, srv, r)

	// Discord holds the channel's message edits for five seconds (a
	// shared 429, short enough that a call would wait it out): a racer's
	// answer does not wait on the track's edit (it took 5.2 s when it did).
	srv.RefuseNext("PATCH /channels/{id}/messages/{message}", 5*time.Second)
	for _, u := range racers[:2] {
		time.Sleep(storm.EditEvery + 100*time.Millisecond) // the next edit is due
		m := srv.Reply(r.do(srv.Click(u, srv.Message(race.ID), play)))
		id, values, ok := m.Menu()
		if !ok {
			continue // this racer's puzzles ran out
		}
		asked := time.Now()
		r.do(srv.Select(u, m, id, values[0]))
		if took := time.Since(asked); took > 2*time.Second {
			t.Errorf("%s's answer took %s behind a 429 on the race's edits", u.Name, took)
		}
	}
	if len(srv.RateLimited()) == 0 {
		t.Error("the 429 never came: the test proved nothing")
	}
}
