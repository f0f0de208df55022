package downtime

import (
	"context"
	"testing"
	"time"
)

// An outage while the bot runs: no flag falls while a source is away, and
// once it is back its span is given back, once, to the games it kept
// from their players.
func TestOutages(t *testing.T) {
	ctx := context.Background()

	t.Run("the database away and back, as the watch sees it", func(t *testing.T) {
		due := newGame(1, t0.Add(3*time.Second), true, false) // would fall during the outage
		later := newGame(2, t0.Add(time.Minute), true, false)
		f, s := setUp(t0, 0, false, due, later)
		w := watch{last: f.now}
		s.look(ctx, &w, 500*time.Millisecond)
		f.now = t0.Add(500 * time.Millisecond) // last answer
		s.look(ctx, &w, 500*time.Millisecond)
		f.down = true
		for range 8 { // 4 s away
			f.now = f.now.Add(500 * time.Millisecond)
			s.look(ctx, &w, 500*time.Millisecond)
			if s.Settle(ctx) {
				t.Fatalf("a flag may fall at %v with the database away", f.now)
			}
		}
		if len(f.stood) != 0 {
			t.Fatalf("given back while still away: %+v", f.stood)
		}
		f.down = false
		f.now = f.now.Add(500 * time.Millisecond)
		back := f.now
		s.look(ctx, &w, 500*time.Millisecond)
		if len(f.stood) != 2 {
			t.Fatalf("stood still: %+v", f.stood)
		}
		for _, sp := range f.stood {
			if !sp.from.Equal(t0.Add(500 * time.Millisecond)) {
				t.Errorf("game %d stood still from %v, want the last answer %v", sp.game, sp.from, t0.Add(500*time.Millisecond))
			}
		}
		// A 4.5 s outage is short: the clock near its flag gets the grace,
		// the other stands still until the database was back.
		if !f.stood[0].until.Equal(back.Add(Grace)) || !f.stood[1].until.Equal(back) {
			t.Fatalf("stood still until %v and %v, want %v and %v", f.stood[0].until, f.stood[1].until, back.Add(Grace), back)
		}
		if !s.Settle(ctx) || len(f.stood) != 2 {
			t.Fatalf("given back twice: %+v", f.stood)
		}
	})

	t.Run("a move that comes before the watch sees the database back settles first", func(t *testing.T) {
		f, s := setUp(t0, 0, false, newGame(1, t0.Add(time.Minute), true, false))
		var tries []time.Duration // what else runs on a clock: puzzle tries
		s.Also(func(_ context.Context, since time.Time, away time.Duration) error {
			tries = append(tries, away)
			return nil
		})
		s.Away(Database, t0, nil)
		f.now = t0.Add(2 * time.Second)
		if !s.Settle(ctx) || len(f.stood) != 1 || !f.stood[0].until.Equal(f.now) {
			t.Fatalf("settled: stood %+v", f.stood)
		}
		if len(tries) != 1 || tries[0] != 2*time.Second {
			t.Fatalf("puzzle tries given %v, want 2s once", tries)
		}
	})

	t.Run("a shard's gateway: only its servers' games, from its last sign of life until ready", func(t *testing.T) {
		mine, other := newGame(1, t0.Add(time.Minute), true, false), newGame(2, t0.Add(time.Minute), true, false)
		other.GuildID = "elsewhere"
		f, s := setUp(t0, 0, false, mine, other)
		onShard := func(guild string) bool { return guild == "g" }
		s.Away("gateway/0", t0, onShard)
		f.now = t0.Add(time.Second)
		s.Away("gateway/0", f.now, onShard) // dropped again while away: the first since holds
		if s.Settle(ctx) {
			t.Fatal("settled with the gateway away")
		}
		f.now = t0.Add(9 * time.Second)
		s.Back("gateway/0", f.now)
		f.now = f.now.Add(300 * time.Millisecond)
		if !s.Settle(ctx) {
			t.Fatal("not settled once back")
		}
		if len(f.stood) != 1 || f.stood[0].game != 1 || !f.stood[0].from.Equal(t0) || !f.stood[0].until.Equal(t0.Add(9*time.Second)) {
			t.Fatalf("stood still: %+v", f.stood)
		}
	})

	t.Run("away again before its span was given back: one span from the first", func(t *testing.T) {
		f, s := setUp(t0, 0, false, newGame(1, t0.Add(time.Minute), true, false))
		s.Away("gateway/0", t0, nil)
		s.Back("gateway/0", t0.Add(time.Second))
		s.Away("gateway/0", t0.Add(2*time.Second), nil)
		s.Back("gateway/0", t0.Add(3*time.Second))
		f.now = t0.Add(3 * time.Second)
		if !s.Settle(ctx) || len(f.stood) != 1 || !f.stood[0].from.Equal(t0) || !f.stood[0].until.Equal(t0.Add(3*time.Second)) {
			t.Fatalf("stood still: %+v", f.stood)
		}
	})

	t.Run("nothing away costs nothing", func(t *testing.T) {
		var s *Service
		if !s.Settle(ctx) {
			t.Fatal("a bot without downtime holds its flags")
		}
		f, s2 := setUp(t0, 0, false, newGame(1, t0.Add(time.Minute), true, false))
		if !s2.Settle(ctx) || len(f.stood) != 0 {
			t.Fatalf("stood still with no outage: %+v", f.stood)
		}
	})
}
