package bot

import (
	"testing"
	"time"
)

func TestRoundUp(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Minute:                  "10 minutes",
		24 * time.Hour:                    "1 day",
		90 * time.Minute:                  "1 hour 30 minutes",
		30*time.Minute + time.Millisecond: "30 minutes 1 second",
		45 * time.Second:                  "45 seconds",
		1500 * time.Millisecond:           "2 seconds",
		49*time.Hour + 30*time.Second:     "2 days 2 hours",
		time.Hour:                         "1 hour",
		59*time.Minute + 59*time.Second:   "59 minutes 59 seconds",
	} {
		if got := roundUp(d); got != want {
			t.Errorf("roundUp(%v) = %q, want %q", d, got, want)
		}
	}
}
