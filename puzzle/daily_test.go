package puzzle

import (
	"testing"
	"time"
)

func TestDailyDue(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		now  string
		hour int
		day  string
		due  bool
	}{
		{"2026-11-24T08:59:59Z", 9, "2026-11-24", false},
		{"2026-11-24T09:00:00Z", 9, "2026-11-24", true},
		{"2026-11-24T23:59:00Z", 0, "2026-11-24", true},
		{"2026-11-25T00:30:00+09:00", 12, "2026-11-24", true}, // 15:30 UTC the day before
	} {
		day, due := DailyDue(at(c.now), c.hour)
		if day != c.day || due != c.due {
			t.Errorf("%s at hour %d: %s %v, want %s %v", c.now, c.hour, day, due, c.day, c.due)
		}
	}
	if PreviousDay("2026-03-01") != "2026-02-28" || PreviousDay("2028-03-01") != "2028-02-29" || PreviousDay("x") != "" {
		t.Error("PreviousDay")
	}
}
