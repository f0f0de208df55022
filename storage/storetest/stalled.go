package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// runStalled: StalledGames finds the active games untouched since a time
// in which the bot is to move or no one can, and only those, loaded whole.
func runStalled(t *testing.T, s Games) {
	ctx := context.Background()
	create := created
	humanToMove := create(t, s, "c1", record.Human(Ann), record.Bot(3))
	botToMove := create(t, s, "c2", record.Bot(3), record.Human(Ben))
	recent := NewGame(t, "c3", record.Bot(2), record.Human(Cat), 6)
	recent.UpdatedAt = T0.Add(time.Hour)
	if err := s.CreateGame(ctx, recent); err != nil {
		t.Fatal(err)
	}
	over := NewGame(t, "c4", record.Human(Ann), record.Human(Ben), 8)
	full, err := game.ParseBoard64("XXXXXXXXXX------------------------------------------------------", game.White)
	if err != nil {
		t.Fatal(err)
	}
	over.State = game.NewGame(full) // no one can move, not yet finished
	if err := s.CreateGame(ctx, over); err != nil {
		t.Fatal(err)
	}
	ended := create(t, s, "c5", record.Bot(1), record.Human(Cat))
	if err := s.FinishGame(ctx, ended, record.Result{FinishedAt: T0, Reason: record.EndResign, Winner: game.Black}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.StalledGames(ctx, T0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, g := range got {
		ids = append(ids, g.ID)
		if len(g.Plies()) != len(g.State.Plies()) || g.Version == 0 {
			t.Errorf("stalled game %d not loaded whole: %+v", g.ID, g)
		}
	}
	slices.Sort(ids)
	if want := []int64{botToMove.ID, over.ID}; !slices.Equal(ids, want) {
		t.Fatalf("stalled games %v, want %v (not %d, the human to move)", ids, want, humanToMove.ID)
	}
}
