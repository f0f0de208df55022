package puzzle

import "time"

// Day names a UTC day as the daily puzzle keeps it: 2026-11-24.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// DailyDue says which day's puzzle a server posting at hour (UTC) should
// have out at now: today's from that hour on, else none yet (yesterday's
// stands until then).
func DailyDue(now time.Time, hour int) (day string, due bool) {
	now = now.UTC()
	return Day(now), now.Hour() >= hour
}

// PreviousDay is the day before day ("" for a day that does not read).
func PreviousDay(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return ""
	}
	return Day(t.AddDate(0, 0, -1))
}
