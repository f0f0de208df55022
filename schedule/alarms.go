package schedule

import (
	"sync"
	"time"
)

// Alarms keeps one timer per key (a game): armed at the thing's next due
// time, re-armed whenever that changes, so a flag falls at its time and
// not at the next tick. The store stays the truth; an alarm only makes
// the tick's work come on time.
type Alarms struct {
	mu     sync.Mutex
	armed  map[int64]alarm
	closed bool
}

type alarm struct {
	at    time.Time
	timer *time.Timer
}

// Set arms key's alarm to call fire at at (now is the clock's time, from
// which the wait is measured), replacing the one armed before; a zero at
// clears it. Setting the time already armed keeps that alarm.
func (a *Alarms) Set(key int64, at, now time.Time, fire func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.armed == nil {
		a.armed = map[int64]alarm{}
	}
	old, ok := a.armed[key]
	if ok && old.at.Equal(at) {
		return
	}
	if ok {
		old.timer.Stop()
		delete(a.armed, key)
	}
	if at.IsZero() || a.closed {
		return
	}
	var t *time.Timer
	t = time.AfterFunc(at.Sub(now), func() {
		a.mu.Lock()
		if cur, ok := a.armed[key]; ok && cur.timer == t {
			delete(a.armed, key)
		}
		a.mu.Unlock()
		fire()
	})
	a.armed[key] = alarm{at: at, timer: t}
}

// Armed says how many alarms are armed.
func (a *Alarms) Armed() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.armed)
}

// Close stops every alarm (at shutdown); none is armed after.
func (a *Alarms) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	for key, t := range a.armed {
		t.timer.Stop()
		delete(a.armed, key)
	}
}
