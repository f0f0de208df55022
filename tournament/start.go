package tournament

import (
	"errors"
	"strings"
	"time"
)

// MaxLead is how far ahead a tournament may be scheduled.
const MaxLead = 60 * 24 * time.Hour

var (
	// ErrStart is a start time that reads as none of the accepted forms.
	ErrStart = errors.New("not a start time")
	// ErrStartPast is a start date already gone.
	ErrStartPast = errors.New("start time in the past")
	// ErrStartFar is a start more than MaxLead away.
	ErrStartFar = errors.New("start time too far ahead")
)

// ParseStart reads when a tournament starts, relative to now: nothing
// (the zero time: when its organiser starts it), "now", a delay ("10m",
// "1h30m"), or a date and time in UTC ("2026-11-30 20:00",
// "2026-11-30T20:00Z").
func ParseStart(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if strings.EqualFold(s, "now") {
		return now, nil
	}
	var at time.Time
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, ErrStartPast
		}
		if d > MaxLead {
			return time.Time{}, ErrStartFar
		}
		at = now.Add(d)
	} else {
		var parsed bool
		for _, layout := range []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02T15:04Z07:00", time.RFC3339} {
			if t, err := time.Parse(layout, s); err == nil {
				at, parsed = t.UTC(), true
				break
			}
		}
		if !parsed {
			return time.Time{}, ErrStart
		}
	}
	switch {
	case at.Before(now.Add(-time.Minute)):
		return time.Time{}, ErrStartPast
	case at.Sub(now) > MaxLead:
		return time.Time{}, ErrStartFar
	case at.Before(now):
		at = now
	}
	return at, nil
}
