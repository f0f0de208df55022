package tournament

import (
	"errors"
	"testing"
	"time"
)

func TestParseStart(t *testing.T) {
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		err  error
	}{
		{"", time.Time{}, nil}, // by hand
		{"now", now, nil},
		{"NOW", now, nil},
		{"10m", now.Add(10 * time.Minute), nil},
		{"1h30m", now.Add(90 * time.Minute), nil},
		{"2026-11-30 20:00", time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC), nil},
		{"2026-11-30T20:00", time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC), nil},
		{"2026-11-30T21:00+01:00", time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC), nil},
		{"2026-11-24 17:59:30", time.Time{}, ErrStart},
		{"2026-11-24 17:59", now, nil}, // a minute late is now
		{"2026-11-24 17:58", time.Time{}, ErrStartPast},
		{"-5m", time.Time{}, ErrStartPast},
		{"2000h", time.Time{}, ErrStartFar},
		{"2027-06-01 00:00", time.Time{}, ErrStartFar},
		{"tomorrow", time.Time{}, ErrStart},
		{"20:00", time.Time{}, ErrStart},
	} {
		got, err := ParseStart(c.in, now)
		if !errors.Is(err, c.err) || !got.Equal(c.want) {
			t.Errorf("ParseStart(%q) = %v, %v; want %v, %v", c.in, got, err, c.want, c.err)
		}
	}
}

func FuzzParseStart(f *testing.F) {
	for _, s := range []string{"now", "10m", "2026-11-30 20:00", "2026-11-30T21:00+01:00", "-1h", "9999999h"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		at, err := ParseStart(s, now)
		if err != nil || at.IsZero() {
			return
		}
		if at.Before(now) || at.Sub(now) > MaxLead {
			t.Fatalf("ParseStart(%q) = %v, outside [now, now+%v]", s, at, MaxLead)
		}
	})
}
