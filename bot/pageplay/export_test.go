package pageplay

import "time"

// WatchFor is how long a "Watch in Discord" press waits, for the tests.
const WatchFor = watchFor

// SetWatchClock gives a service's remembered presses a test's clock.
func SetWatchClock(s *Service, now func() time.Time) {
	s.watching.mu.Lock()
	defer s.watching.mu.Unlock()
	s.watching.now = now
}
