package storage

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

func TestRatedGamesUpdateBothScopes(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(5, 5))

		play := func(channel string, rated bool, reason record.EndReason, winner game.Color, white record.Side) {
			g := newGame(t, s, channel, record.Human(alice), white, 6)
			g.Rated = rated // FinishGame rates by the game it is given
			playRandom(t, s, g, 6, rng)
			b, w := g.Position().Count()
			r := record.Result{FinishedAt: g.UpdatedAt, BlackDiscs: b, WhiteDiscs: w, Winner: winner, Reason: reason}
			var rate *record.RatingUpdate
			if rated && reason != record.EndAbort && !white.IsBot() {
				rate = glickoUpdate(g, r) // the bot's rules: only these count
			}
			if err := s.FinishGame(ctx, g, r, rate); err != nil {
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
	})
}

// The deviation the leaderboard query grows in SQL for idle time is the
// one rating.Player.Idle computes, up to its cap.
func TestCurrentDeviationSQLAgreesWithIdle(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		ctx := context.Background()
		r := record.Rating{Player: alice, Scope: "g", Rating: 1600, Deviation: 60, Volatility: 0.09, Games: 30, UpdatedAt: t0}
		if err := s.SaveRating(ctx, r); err != nil {
			t.Fatal(err)
		}
		for _, days := range []float64{0, 0.5, 1, 3, 10, 100, 1000, 100000} {
			now := t0.Add(time.Duration(days * 24 * float64(time.Hour)))
			st, err := s.Standing(ctx, alice.ID, "g", growthAt(now))
			if err != nil {
				t.Fatal(err)
			}
			want := rating.Player{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}.Idle(days)
			if math.Abs(st.Deviation-want.Deviation) > 1e-6 {
				t.Errorf("after %g days: SQL %.9f, Go %.9f", days, st.Deviation, want.Deviation)
			}
			if st.Provisional != (want.Deviation > rating.ProvisionalDeviation) {
				t.Errorf("after %g days: provisional %v at deviation %.1f", days, st.Provisional, want.Deviation)
			}
		}
	})
}
