package local_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/internal/pgtest"
	"othello-bot/record"
	"othello-bot/tournament"
)

// openShared opens a terminal bot, one "process", on a shared PostgreSQL
// database.
func openShared(t *testing.T, url, name string, now time.Time) *env {
	t.Helper()
	return openOn(t, t.TempDir(), url, name, now, true, nil)
}

// Two processes on one PostgreSQL database tick at the same moments
// through a whole Swiss: the start happens once, each round is paired
// once, and every pairing gets one game.
func TestTwoProcessesPairEachRoundOnce(t *testing.T) {
	url := pgtest.Database(t)
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	a, b := openShared(t, url, "a", t0), openShared(t, url, "b", t0)
	a.say("admin alice", "alice #lobby: /tournament create format:swiss rounds:3 time:60+0 size:4 start:1m")
	for _, p := range swissPlayers {
		a.say(p + " #lobby: /tournament join id:1")
	}
	both := func(line string) {
		var wg sync.WaitGroup
		for _, e := range []*env{a, b} {
			wg.Add(1)
			go func() { defer wg.Done(); e.adapter.Line(context.Background(), line) }()
		}
		wg.Wait()
	}
	both("wait 61s") // both see the start time pass at once
	for i := 0; i < 200; i++ {
		tour, err := a.store.Tournament(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if tour.Status == tournament.Finished {
			break
		}
		games := a.activeTournamentGames(1)
		// Every other game's last move is made by the other process,
		// while both tick.
		for k, g := range games {
			e := a
			if k%2 == 1 {
				e = b
			}
			e.playOutTyped(g.ID)
		}
		both("wait 1s")
	}
	tour, _ := a.store.Tournament(context.Background(), 1)
	if tour.Status != tournament.Finished {
		t.Fatalf("the tournament is %s after round %d", tour.Status, tour.Round)
	}
	ps, err := a.store.Pairings(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSwiss(t, ps, "")
	perRound := map[int]int{}
	for _, p := range ps {
		perRound[p.Round]++
		if !p.Bye() && p.GameID == 0 {
			t.Errorf("round %d board %d has no game", p.Round, p.Board)
		}
	}
	if len(perRound) != 3 || perRound[1] != 4 || perRound[2] != 4 || perRound[3] != 4 {
		t.Fatalf("pairings per round %v", perRound)
	}
	started := 0
	for _, e := range []*env{a, b} {
		started += strings.Count(e.out.String(), "has begun with 8 players")
	}
	if started != 1 {
		t.Errorf("the start was announced %d times", started)
	}
}

// playOutTyped plays game id to its end with typed /move commands, which
// any process can take (a menu is only in the process that showed it).
func (e *env) playOutTyped(id int64) {
	e.t.Helper()
	for n := 0; n < 100; n++ {
		g := e.gameByID(id)
		if g.Status != record.Active {
			return
		}
		e.say(g.ToMove().Player.ID + " #" + g.ChannelID + ": /move " + g.Position().LegalMoves()[0].String())
	}
	e.t.Fatalf("game %d did not end", id)
}
