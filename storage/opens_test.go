package storage

import (
	"context"
	"testing"
	"time"
)

// A "Watch in Discord" press is taken once, by whoever asks on the same
// database, and only while it is fresh; presses by another person or in
// another channel are theirs.
func TestOpeningStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		later := t0.Add(time.Minute)
		if err := s.RememberOpening(ctx, alice.ID, "c", "aaaa", t0, t0.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.RememberOpening(ctx, alice.ID, "c", "bbbb", later, t0.Add(-time.Hour)); err != nil { // pressed again: the newer game
			t.Fatal(err)
		}
		for _, who := range [][2]string{{bob.ID, "c"}, {alice.ID, "d"}} {
			if id, err := s.TakeOpening(ctx, who[0], who[1], t0); err != nil || id != "" {
				t.Fatalf("%s in %s takes %q (%v)", who[0], who[1], id, err)
			}
		}
		if id, err := s.TakeOpening(ctx, alice.ID, "c", t0); err != nil || id != "bbbb" {
			t.Fatalf("alice takes %q (%v), want bbbb", id, err)
		}
		if id, _ := s.TakeOpening(ctx, alice.ID, "c", t0); id != "" {
			t.Fatalf("taken twice: %q", id)
		}
		s.RememberOpening(ctx, alice.ID, "c", "cccc", t0, t0.Add(-time.Hour))
		if id, _ := s.TakeOpening(ctx, alice.ID, "c", later); id != "" {
			t.Fatalf("a stale press opens %q", id)
		}
		s.RememberOpening(ctx, bob.ID, "c", "dddd", t0, t0.Add(-time.Hour))
		s.RememberOpening(ctx, alice.ID, "c", "eeee", later.Add(time.Hour), later) // forgets bob's, older than a minute past t0
		if id, _ := s.TakeOpening(ctx, bob.ID, "c", t0.Add(-time.Hour)); id != "" {
			t.Fatalf("a forgotten press opens %q", id)
		}
	})
}
