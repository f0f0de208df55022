package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"othello-bot/record"
	"othello-bot/storm"
)

// Races on each backend: a race opens with its host in it; twelve join at
// once and only nine more get in (ten in all), none twice; it starts once,
// every run's clock with it, and takes nobody after; it is due at its end
// (a lobby when it lapses) and ends once; its message's edits are claimed
// once a second whoever asks.
func TestRaces(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		race := storm.Race{GuildID: "guild1", ChannelID: "c1", Host: alice, Puzzles: []int64{4, 5, 6}, Created: t0}
		id, hostRun, err := s.CreateRace(ctx, race)
		if err != nil {
			t.Fatal(err)
		}
		race.ID = id
		if err := s.SetRaceMessage(ctx, id, "m1"); err != nil {
			t.Fatal(err)
		}
		got, err := s.Race(ctx, id)
		if err != nil || got.Host != alice || got.MessageID != "m1" || got.Status != storm.Lobby || len(got.Puzzles) != 3 || !got.Starts.IsZero() {
			t.Fatalf("the race: %+v %v", got, err)
		}
		if _, err := s.JoinRace(ctx, race.Join(alice, t0)); !errors.Is(err, storm.ErrJoined) {
			t.Fatalf("the host joining again: %v", err)
		}
		var in int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := record.Player{ID: fmt.Sprint("r", i), Name: fmt.Sprint("racer", i)}
				_, err := s.JoinRace(ctx, race.Join(p, t0))
				switch {
				case err == nil:
					mu.Lock()
					in++
					mu.Unlock()
				case !errors.Is(err, storm.ErrRaceClosed):
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		runs, err := s.RaceRuns(ctx, id)
		if in != storm.MaxRacers-1 || err != nil || len(runs) != storm.MaxRacers || runs[0].ID != hostRun || runs[0].Mode != storm.Racer || runs[0].Race != id {
			t.Fatalf("%d joined; runs %d %v", in, len(runs), err)
		}

		if due, _ := s.DueRaces(ctx, t0.Add(storm.LobbyLife-time.Second)); len(due) != 0 {
			t.Fatalf("a fresh lobby is due: %v", due)
		}
		end := t0.Add(time.Minute + storm.RaceDuration)
		if ok, err := s.StartRace(ctx, id, t0.Add(time.Minute), end); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if ok, _ := s.StartRace(ctx, id, t0.Add(2*time.Minute), end); ok {
			t.Fatal("a race started twice")
		}
		runs, _ = s.RaceRuns(ctx, id)
		for _, r := range runs {
			if !r.Ends.Equal(end) {
				t.Fatalf("a run's clock ends at %v, the race at %v", r.Ends, end)
			}
		}
		if _, err := s.JoinRace(ctx, race.Join(bob, t0)); !errors.Is(err, storm.ErrRaceClosed) {
			t.Fatalf("joining a race under way: %v", err)
		}
		if due, _ := s.DueRaces(ctx, end.Add(-time.Millisecond)); len(due) != 0 {
			t.Fatal("a race is due before its end")
		}
		due, err := s.DueRaces(ctx, end)
		if err != nil || len(due) != 1 || due[0].ID != id || !due[0].End.Equal(end) {
			t.Fatalf("due at the end: %v %v", due, err)
		}
		if ok, _ := s.EndRace(ctx, id, storm.Racing, storm.Finished); !ok {
			t.Fatal("not ended")
		}
		if ok, _ := s.EndRace(ctx, id, storm.Racing, storm.Finished); ok {
			t.Fatal("ended twice")
		}
		if due, _ := s.DueRaces(ctx, end.Add(time.Hour)); len(due) != 0 {
			t.Fatal("a finished race is due")
		}

		// A lobby nobody started lapses.
		other, _, _ := s.CreateRace(ctx, storm.Race{GuildID: "guild1", ChannelID: "c2", Host: bob, Puzzles: []int64{1}, Created: t0})
		if due, _ := s.DueRaces(ctx, t0.Add(storm.LobbyLife)); len(due) != 1 || due[0].ID != other {
			t.Fatalf("the lapsed lobby: %v", due)
		}

		// Edits: one claim a second.
		if ok, _ := s.ClaimRaceEdit(ctx, id, t0, time.Second); !ok {
			t.Fatal("the first edit refused")
		}
		if ok, _ := s.ClaimRaceEdit(ctx, id, t0.Add(999*time.Millisecond), time.Second); ok {
			t.Fatal("two edits within a second")
		}
		if ok, _ := s.ClaimRaceEdit(ctx, id, t0.Add(time.Second), time.Second); !ok {
			t.Fatal("an edit a second later refused")
		}
	})
}
