package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"othello-bot/record"
)

// runRefusedMoves: a move with the bot's reply in it (two plies, as an
// instant reply is stored) from an old version, on a finished game, or on
// a game that does not exist is refused with the error that says which,
// and writes no ply.
func runRefusedMoves(t *testing.T, s Games) {
	ctx := context.Background()
	g := created(t, s, "c1", record.Human(Ann), record.Bot(1))
	stale := *g
	if err := Play(t, s, g, T0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A move and its reply, from a copy of the game as it was before.
	twoPlies := func(from *record.Game) (*record.Game, record.Turn) {
		t.Helper()
		copied, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		copied.Version = from.Version
		var turn record.Turn
		for range 2 {
			plies, err := copied.State.Play(copied.Position().LegalMoves()[0])
			if err != nil {
				t.Fatal(err)
			}
			turn.Plies = append(turn.Plies, plies...)
		}
		turn.At = T0.Add(2 * time.Minute)
		return copied, turn
	}
	unchanged := func(what string, plies int) {
		t.Helper()
		got, err := s.Game(ctx, g.ID)
		if err != nil || len(got.Plies()) != plies {
			t.Errorf("after %s: %d plies (%v), want %d", what, len(got.Plies()), err, plies)
		}
	}

	old, turn := twoPlies(&stale)
	if err := s.AppendTurn(ctx, old, turn); !errors.Is(err, record.ErrStale) {
		t.Errorf("a move from an old version: %v, want record.ErrStale", err)
	}
	unchanged("a move from an old version", 1)

	if err := s.FinishGame(ctx, g, record.Result{FinishedAt: T0.Add(time.Hour), Reason: record.EndAbort}, nil); err != nil {
		t.Fatal(err)
	}
	over, turn := twoPlies(g)
	if err := s.AppendTurn(ctx, over, turn); !errors.Is(err, record.ErrNotActive) {
		t.Errorf("a move on a finished game: %v, want record.ErrNotActive", err)
	}
	unchanged("a move on a finished game", 1)

	gone, turn := twoPlies(g)
	gone.ID = g.ID + 1000
	if err := s.AppendTurn(ctx, gone, turn); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("a move on no game: %v, want record.ErrNotFound", err)
	}
}
