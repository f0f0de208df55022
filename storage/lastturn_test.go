package storage

import (
	"context"
	"errors"
	"testing"
	"time"

	"othello-bot/record"
)

// The turn that ends a game is stored with the end, in one transaction:
// a reader sees the game running before the last move or finished after
// it, never the full board with the game still running; a stale version
// writes neither.
func TestLastTurnAndEndTogether(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, dir := openIn(t, database)
		// A 4x4 game played to one turn before its end.
		g := newGame(t, s, "d", record.Human(alice), record.Human(bob), 4)
		var last []record.Turn
		for !g.State.Over() {
			moves := g.Position().LegalMoves()
			plies, err := g.State.Play(moves[0])
			if err != nil {
				t.Fatal(err)
			}
			at := g.UpdatedAt.Add(time.Minute)
			turn := record.Turn{Plies: plies, At: at}
			if g.State.Over() {
				last = append(last, turn)
				break
			}
			if err := s.AppendTurn(ctx, g, turn); err != nil {
				t.Fatal(err)
			}
		}
		if len(last) != 1 {
			t.Fatal("the game never ended")
		}
		turn := last[0]
		b, w := g.Position().Count()
		end := record.Result{Reason: record.EndNormal, Winner: g.Position().Winner(), FinishedAt: turn.At, BlackDiscs: b, WhiteDiscs: w}

		// Stale: another write got there first; nothing of this one lands.
		stale := g.Clone()
		stale.Version--
		turn.End = &end
		if err := s.AppendTurn(ctx, stale, turn); !errors.Is(err, record.ErrStale) {
			t.Fatalf("a stale last turn: %v, want ErrStale", err)
		}
		if got, err := s.ActiveGame(ctx, "d"); err != nil || got.State.Over() || got.Version != g.Version {
			t.Fatalf("after a stale last turn: %v", err)
		}

		turn.End = &end
		if err := s.AppendTurn(ctx, g, turn); err != nil {
			t.Fatal(err)
		}
		if g.Status == record.Active || g.Result == nil || g.Result.Reason != record.EndNormal {
			t.Fatalf("in memory after the last turn: status %v, result %+v", g.Status, g.Result)
		}
		stored, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Status == record.Active || !stored.State.Over() || len(stored.Plies()) != len(g.Plies()) || stored.Version != g.Version {
			t.Fatalf("stored: status %v, over %v, %d plies of %d, version %d of %d", stored.Status, stored.State.Over(),
				len(stored.Plies()), len(g.Plies()), stored.Version, g.Version)
		}
		if _, err := s.ActiveGame(ctx, "d"); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("the channel still has an active game: %v", err)
		}
		if lines := logLines(t, dir+"/results.log"); countGame(lines, g.ID) != 1 {
			t.Fatalf("results log lines for the game: %d", countGame(lines, g.ID))
		}
	})
}
