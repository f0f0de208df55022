package storage

import (
	"context"
	"errors"
	"testing"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// Two processes drive one tournament: one reads it to pair the next
// round, the other pauses, cancels or finishes it (or pauses and resumes
// it) before the first writes. The pairing read from the old state must
// not land, and no game may open in a tournament that is not running.
func TestPairingAfterAnotherProcessChangedTheTournament(t *testing.T) {
	changes := []struct {
		name   string
		change func(*tournament.Tournament) []tournament.Status
	}{
		{"paused", func(*tournament.Tournament) []tournament.Status { return []tournament.Status{tournament.Paused} }},
		{"canceled", func(*tournament.Tournament) []tournament.Status { return []tournament.Status{tournament.Canceled} }},
		{"finished", func(*tournament.Tournament) []tournament.Status { return []tournament.Status{tournament.Finished} }},
		{"paused and resumed", func(*tournament.Tournament) []tournament.Status {
			return []tournament.Status{tournament.Paused, tournament.Running}
		}},
	}
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		first, _ := openIn(t, database)
		other, _ := openIn(t, database) // a second process on the same database
		control, _ := timecontrol.Parse("1+0")
		for _, c := range changes {
			t.Run(c.name, func(t *testing.T) {
				tour := &tournament.Tournament{GuildID: "guild1", ChannelID: "hall-" + c.name, Name: "Arena", Format: tournament.Arena,
					Size: 8, Control: control, StartsAt: t0, CreatedAt: t0}
				if err := first.CreateTournament(ctx, tour, alice); err != nil {
					t.Fatal(err)
				}
				for _, p := range []record.Player{alice, bob} {
					if err := first.JoinTournament(ctx, tour.ID, p, "", 1500, t0); err != nil {
						t.Fatal(err)
					}
				}
				tour.Status = tournament.Running
				if err := first.UpdateTournament(ctx, tour); err != nil {
					t.Fatal(err)
				}
				read, err := first.Tournament(ctx, tour.ID) // the pairing process reads...
				if err != nil {
					t.Fatal(err)
				}
				changed, err := other.Tournament(ctx, tour.ID) // ...the other changes it...
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range c.change(changed) {
					changed.Status = st
					if err := other.UpdateTournament(ctx, changed); err != nil {
						t.Fatal(err)
					}
				}
				// ...and the first pairs from what it read.
				next := []tournament.Pairing{{Game: tournament.Game{Round: 1, Black: alice.ID, White: bob.ID}, Board: 1}}
				if err := first.PairTournament(ctx, read, next); !errors.Is(err, record.ErrStale) {
					t.Fatalf("pairing from a read older than the tournament: %v", err)
				}
				ps, err := first.Pairings(ctx, tour.ID)
				if err != nil || len(ps) != 0 {
					t.Fatalf("pairings stored from a stale read: %+v, %v", ps, err)
				}
				after, _ := first.Tournament(ctx, tour.ID)
				if after.Round != 0 {
					t.Fatalf("round moved to %d", after.Round)
				}
				if after.Status != tournament.Running {
					return
				}
				// Paired afresh from a new read, it lands.
				if err := first.PairTournament(ctx, after, next); err != nil {
					t.Fatal(err)
				}
				if after.Round != 1 {
					t.Fatalf("the read's round after pairing: %d", after.Round)
				}
			})
		}

		// Paired, then paused by the other process before the game opens:
		// the game waits for the tournament to run again.
		tour := &tournament.Tournament{GuildID: "guild1", ChannelID: "hall-open", Name: "Arena", Format: tournament.Arena,
			Size: 8, Control: control, StartsAt: t0, CreatedAt: t0}
		if err := first.CreateTournament(ctx, tour, alice); err != nil {
			t.Fatal(err)
		}
		tour.Status = tournament.Running
		if err := first.UpdateTournament(ctx, tour); err != nil {
			t.Fatal(err)
		}
		next := []tournament.Pairing{{Game: tournament.Game{Round: 1, Black: alice.ID, White: bob.ID}, Board: 1}}
		if err := first.PairTournament(ctx, tour, next); err != nil {
			t.Fatal(err)
		}
		changed, _ := other.Tournament(ctx, tour.ID)
		changed.Status = tournament.Paused
		if err := other.UpdateTournament(ctx, changed); err != nil {
			t.Fatal(err)
		}
		start, _ := game.NewPosition(8)
		g := &record.Game{GuildID: "guild1", ChannelID: "thread-open", Black: record.Human(alice), White: record.Human(bob),
			State: game.NewGame(start), CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0, Control: control}
		if err := first.OpenPairingGame(ctx, tour.ID, 1, 1, g); !errors.Is(err, ErrNotRunning) {
			t.Fatalf("opening a game of a paused tournament: %v", err)
		}
		if _, err := first.ActiveGame(ctx, "thread-open"); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("the refused game was stored: %v", err)
		}
		changed.Status = tournament.Running
		if err := other.UpdateTournament(ctx, changed); err != nil {
			t.Fatal(err)
		}
		if err := first.OpenPairingGame(ctx, tour.ID, 1, 1, g); err != nil {
			t.Fatalf("opening it once running again: %v", err)
		}
	})
}
