package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

func TestRatedGamesUpdateBothScopes(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 5))

	play := func(channel string, rated bool, reason record.EndReason, winner game.Color, white record.Side) {
		g := newGame(t, s, channel, record.Human(alice), white, 6)
		g.Rated = rated // FinishGame rates by the game it is given
		playRandom(t, s, g, 6, rng)
		b, w := g.Position.Count()
		if err := s.FinishGame(ctx, g, record.Result{FinishedAt: g.UpdatedAt, BlackDiscs: b, WhiteDiscs: w, Winner: winner, Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	play("c1", false, record.EndResign, game.Black, record.Human(bob))
	play("c2", true, record.EndAbort, game.Black, record.Human(bob))
	play("c3", true, record.EndNormal, game.Black, record.Bot(9))
	for _, scope := range []string{"guild1", record.GlobalScope} {
		if _, err := s.Rating(ctx, alice.ID, scope); !errors.Is(err, record.ErrNotFound) {
			t.Fatalf("%s: an unrated, aborted or bot game was rated: %v", scope, err)
		}
	}
	play("c4", true, record.EndResign, game.Black, record.Human(bob))
	for _, scope := range []string{"guild1", record.GlobalScope} {
		a, errA := s.Rating(ctx, alice.ID, scope)
		b, errB := s.Rating(ctx, bob.ID, scope)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", scope, errA, errB)
		}
		want := rating.New().Update([]rating.Result{{Opponent: rating.New(), Score: 1}})
		if a.Rating != want.Rating || a.Deviation != want.Deviation || a.Games != 1 || a.Wins != 1 ||
			b.Rating >= 1500 || b.Losses != 1 || b.Wins != 0 {
			t.Errorf("%s: alice %+v, bob %+v", scope, a, b)
		}
	}
}
