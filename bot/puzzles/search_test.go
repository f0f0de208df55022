package puzzles

import (
	"testing"
	"time"
)

// A quick search waits the configured interval from its start; a long one
// rests three times its length, so the searches of finished games take at
// most a quarter of a core however long each is.
func TestNextSearchRests(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	every := 20 * time.Second
	for _, c := range []struct {
		ran  time.Duration
		want time.Duration // from the start
	}{
		{time.Second, 20 * time.Second},
		{5 * time.Second, 20 * time.Second},
		{10 * time.Second, 40 * time.Second},
		{30 * time.Second, 120 * time.Second},
	} {
		if got := nextSearch(t0, t0.Add(c.ran), every).Sub(t0); got != c.want {
			t.Errorf("a search of %v: the next after %v, want %v", c.ran, got, c.want)
		}
	}
}
