package tournaments

// This file keeps one step of a tournament at a time in this process.

import (
	"context"
	"sync"
)

// tournamentLocks keeps one step of a tournament at a time in this
// process; the store keeps it to one across processes.
type tournamentLocks struct {
	mu    sync.Mutex
	locks map[int64]*sync.Mutex
	// shown is the standings each tournament's message shows, as this
	// process last wrote them: a tick that changes nothing edits nothing.
	shown map[int64]string
}

// changedSince records text as tournament id's standings, reporting
// whether they differ from what was shown.
func (l *tournamentLocks) changedSince(id int64, text string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown == nil {
		l.shown = map[int64]string{}
	}
	if l.shown[id] == text {
		return false
	}
	l.shown[id] = text
	return true
}

// steppingKey marks a context whose caller holds a tournament's lock: a
// game of it ending there needs no step of its own (the caller steps).
type steppingKey struct{}

func steppingTournament(ctx context.Context, id int64) bool {
	held, _ := ctx.Value(steppingKey{}).(int64)
	return held == id
}

func holding(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, steppingKey{}, id)
}

func (l *tournamentLocks) lock(id int64) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[int64]*sync.Mutex{}
	}
	m := l.locks[id]
	if m == nil {
		m = &sync.Mutex{}
		l.locks[id] = m
	}
	l.mu.Unlock()
	m.Lock()
	return m.Unlock
}
