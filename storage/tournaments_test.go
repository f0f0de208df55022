package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// A tournament's life in the store: created, entered, paired once however
// many try, its games opened once and their results read back into the
// pairings, a withdrawal forfeiting what was not played, and the results
// line naming the tournament.
func TestTournamentStored(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, dir := openIn(t, database)
		control, _ := timecontrol.Parse("1+0")
		tour := &tournament.Tournament{GuildID: "guild1", ChannelID: "hall", Name: "Friday Swiss", Format: tournament.Swiss,
			Rounds: 3, Size: 8, Rated: true, Control: control, StartsAt: t0.Add(time.Hour), CreatedAt: t0}
		if err := s.CreateTournament(ctx, tour, alice); err != nil {
			t.Fatal(err)
		}
		carol := record.Player{ID: "333", Name: "carol"}
		for i, p := range []record.Player{alice, bob, carol} {
			if err := s.JoinTournament(ctx, tour.ID, p, "", 1500+float64(i), t0); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.JoinTournament(ctx, tour.ID, bob, "", 1500, t0); !errors.Is(err, ErrAlreadyEntered) {
			t.Fatalf("joining twice: %v", err)
		}
		es, err := s.Entrants(ctx, tour.ID)
		if err != nil || len(es) != 3 || es[0].ID != alice.ID || es[2].Name != "carol" || es[1].Rating != 1501 {
			t.Fatalf("entrants %+v, %v", es, err)
		}
		open, err := s.OpenTournaments(ctx, "hall")
		if err != nil || len(open) != 1 || open[0].Name != "Friday Swiss" || open[0].Control != control || !open[0].Rated {
			t.Fatalf("open tournaments %+v, %v", open, err)
		}

		// Start: a status change only from the version read.
		stale := *open[0]
		tour.Status = tournament.Running
		if err := s.UpdateTournament(ctx, tour); err != nil {
			t.Fatal(err)
		}
		stale.Status = tournament.Canceled
		if err := s.UpdateTournament(ctx, &stale); !errors.Is(err, record.ErrStale) {
			t.Fatalf("an update from an old read: %v", err)
		}

		// Round 1 is paired once, however many try at once.
		round1 := []tournament.Pairing{
			{Game: tournament.Game{Round: 1, Black: alice.ID, White: bob.ID}, Board: 1},
			{Game: tournament.Game{Round: 1, Black: carol.ID}, Board: 2},
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			read := *tour
			go func() { defer wg.Done(); errs[i] = s.PairTournament(ctx, &read, round1) }()
		}
		wg.Wait()
		paired := 0
		for _, err := range errs {
			switch {
			case err == nil:
				paired++
			case !errors.Is(err, record.ErrStale):
				t.Fatal(err)
			}
		}
		if paired != 1 {
			t.Fatalf("round 1 paired %d times", paired)
		}
		if tour, err = s.Tournament(ctx, tour.ID); err != nil || tour.Round != 1 {
			t.Fatalf("after round 1: %+v, %v", tour, err)
		}
		// A player in two games of one round is refused.
		twice := []tournament.Pairing{
			{Game: tournament.Game{Round: 2, Black: alice.ID, White: bob.ID}, Board: 1},
			{Game: tournament.Game{Round: 2, Black: alice.ID, White: carol.ID}, Board: 2},
		}
		if err := s.PairTournament(ctx, tour, twice); !errors.Is(err, ErrAlreadyPaired) {
			t.Fatalf("a player twice in a round: %v", err)
		}

		// The game for board 1 opens once.
		start, _ := game.NewPosition(8)
		newGame := func(channel string) *record.Game {
			return &record.Game{GuildID: "guild1", ChannelID: channel, Black: record.Human(alice), White: record.Human(bob),
				Rated: true, State: game.NewGame(start), CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0, Control: control,
				Left: [2]time.Duration{time.Minute, time.Minute}}
		}
		g := newGame("thread-1")
		if err := s.OpenPairingGame(ctx, tour.ID, 1, 1, g); err != nil {
			t.Fatal(err)
		}
		if err := s.OpenPairingGame(ctx, tour.ID, 1, 1, newGame("thread-2")); !errors.Is(err, ErrAlreadyPaired) {
			t.Fatalf("opening a pairing's game twice: %v", err)
		}
		if _, err := s.ActiveGame(ctx, "thread-2"); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("the refused game was stored: %v", err)
		}
		read, err := s.Game(ctx, g.ID)
		if err != nil || read.TournamentID != tour.ID {
			t.Fatalf("the game's tournament: %v, %v", read, err)
		}
		ps, err := s.Pairings(ctx, tour.ID)
		if err != nil || len(ps) != 2 || ps[0].GameID != g.ID || ps[0].Done() || !ps[1].Bye() {
			t.Fatalf("pairings before the result: %+v, %v", ps, err)
		}
		// White wins: the pairing reads the result with its discs.
		for _, sq := range []string{"f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"} {
			m, _ := game.ParseSquare(sq, 8)
			if _, err := g.State.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		res := record.Result{FinishedAt: t0.Add(time.Minute), Winner: game.White, Reason: record.EndResign}
		res.BlackDiscs, res.WhiteDiscs = g.Position().Count()
		if err := s.FinishGame(ctx, g, res, nil); err != nil {
			t.Fatal(err)
		}
		ps, _ = s.Pairings(ctx, tour.ID)
		if ps[0].Outcome != tournament.WhiteWins || ps[0].BlackDiscs != res.BlackDiscs || ps[0].WhiteDiscs != res.WhiteDiscs {
			t.Fatalf("pairing after the result: %+v", ps[0])
		}
		// A withdrawal: a later pairing not yet played is forfeited once.
		round2 := []tournament.Pairing{{Game: tournament.Game{Round: 2, Black: carol.ID, White: alice.ID}, Board: 1},
			{Game: tournament.Game{Round: 2, Black: bob.ID}, Board: 2}}
		if err := s.PairTournament(ctx, tour, round2); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.LeaveTournament(ctx, tour.ID, carol.ID, true, t0.Add(2*time.Minute)); !ok || err != nil {
			t.Fatalf("withdrawing: %v %v", ok, err)
		}
		if ok, _ := s.LeaveTournament(ctx, tour.ID, carol.ID, true, t0.Add(3*time.Minute)); ok {
			t.Fatal("withdrawn twice")
		}
		if ok, err := s.ForfeitPairing(ctx, tour.ID, 2, 1, carol.ID); !ok || err != nil {
			t.Fatalf("forfeit: %v %v", ok, err)
		}
		if ok, _ := s.ForfeitPairing(ctx, tour.ID, 2, 1, carol.ID); ok {
			t.Fatal("forfeited twice")
		}
		if err := s.OpenPairingGame(ctx, tour.ID, 2, 1, newGame("thread-3")); !errors.Is(err, ErrAlreadyPaired) {
			t.Fatalf("a game for a forfeited pairing: %v", err)
		}
		ps, _ = s.Pairings(ctx, tour.ID)
		if f := ps[2]; f.Outcome != tournament.WhiteWins || !f.Forfeit || f.ForfeitBy != carol.ID {
			t.Fatalf("forfeited pairing: %+v", f)
		}
		es, _ = s.Entrants(ctx, tour.ID)
		if !es[2].Withdrawn || es[0].Withdrawn {
			t.Fatalf("withdrawn flags: %+v", es)
		}
		// The results line names the tournament.
		log, err := os.ReadFile(dir + "/results.log")
		if err != nil {
			t.Fatal(err)
		}
		if want := " end=resign time=1+0 tournament=" + strconv.FormatInt(tour.ID, 10) + " transcript="; !strings.Contains(string(log), want) {
			t.Fatalf("results log %q lacks %q", log, want)
		}
		if id, ok := parseResultLine(strings.TrimSpace(string(log))); !ok || id != g.ID {
			t.Fatalf("the line does not parse back: %v %v", id, ok)
		}
	})
}

// Every table is copied into PostgreSQL by migrate --from, or is one that
// a new database starts without (leases, interactions seen, the game
// counter SQLite keeps).
func TestEveryTableIsCopied(t *testing.T) {
	s, _ := openTemp(t)
	rows, err := s.db.QueryContext(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	// What lives minutes (leases, seen interactions, Activity presses) or
	// is rebuilt (game numbers) is not copied.
	copied := map[string]bool{"leases": true, "seen_interactions": true, "game_numbers": true, "activity_opens": true}
	for _, c := range copyTables {
		copied[c.name] = true
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		if !copied[name] {
			t.Errorf("table %s is not in copyTables", name)
		}
	}
}

// Tournaments lists a server's tournaments, open and over, newest first,
// by channel or all of them.
func TestTournamentsListed(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		control, _ := timecontrol.Parse("5+3")
		var ids []int64
		for i, where := range []struct{ guild, channel string }{{"g1", "hall"}, {"g1", "lobby"}, {"g2", "hall"}, {"g1", "hall"}} {
			tour := &tournament.Tournament{GuildID: where.guild, ChannelID: where.channel, Name: fmt.Sprint("T", i), Format: tournament.Arena,
				Duration: time.Hour, Size: 8, Control: control, CreatedAt: t0}
			if err := s.CreateTournament(ctx, tour, alice); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, tour.ID)
		}
		finished, _ := s.Tournament(ctx, ids[0])
		finished.Status, finished.FinishedAt = tournament.Finished, t0.Add(time.Hour)
		if err := s.UpdateTournament(ctx, finished); err != nil {
			t.Fatal(err)
		}
		all, err := s.Tournaments(ctx, "g1", "", 10)
		if err != nil || len(all) != 3 || all[0].ID != ids[3] || all[2].ID != ids[0] || all[2].Status != tournament.Finished {
			t.Fatalf("g1's tournaments: %+v %v", all, err)
		}
		hall, _ := s.Tournaments(ctx, "g1", "hall", 1)
		if len(hall) != 1 || hall[0].ID != ids[3] {
			t.Errorf("g1's newest in hall: %+v", hall)
		}
	})
}
