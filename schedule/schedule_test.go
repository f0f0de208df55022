package schedule

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Jobs run in the order registered, each with the tick's time, and one
// that panics stops neither the others nor the next tick.
func TestJobsRunInOrderAndSurvivePanics(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	s := New(func() time.Time { return at }, nil, quiet)
	var ran []string
	job := func(name string) Job {
		return Job{Name: name, Run: func(_ context.Context, now time.Time) {
			if !now.Equal(at) {
				t.Errorf("%s ran at %v, want %v", name, now, at)
			}
			ran = append(ran, name)
		}}
	}
	s.Register(job("challenges"), Job{Name: "boom", Run: func(context.Context, time.Time) { panic("boom") }})
	s.Register(job("tournaments"))
	if !s.Tick(context.Background()) || !s.Tick(context.Background()) {
		t.Fatal("a scheduler without a lease did not run its jobs")
	}
	if want := []string{"challenges", "tournaments", "challenges", "tournaments"}; !slices.Equal(ran, want) {
		t.Fatalf("ran %v, want %v", ran, want)
	}
	if want := []string{"challenges", "boom", "tournaments"}; !slices.Equal(s.Jobs(), want) {
		t.Fatalf("jobs %v, want %v", s.Jobs(), want)
	}
}

type fakeLease struct {
	mine bool
	err  error
}

func (l *fakeLease) Hold(context.Context) (bool, error) { return l.mine, l.err }

// Only the holder of the lease runs the jobs; a failed renewal runs none.
func TestOnlyTheLeaseHolderRuns(t *testing.T) {
	lease := &fakeLease{}
	s := New(time.Now, lease, quiet)
	runs := 0
	s.Register(Job{Name: "count", Run: func(context.Context, time.Time) { runs++ }})
	if s.Tick(context.Background()) || runs != 0 {
		t.Fatal("ran without the lease")
	}
	lease.mine = true
	if !s.Tick(context.Background()) || runs != 1 {
		t.Fatal("did not run with the lease")
	}
	lease.err = errors.New("database down")
	if s.Tick(context.Background()) || runs != 1 {
		t.Fatal("ran when the lease could not be renewed")
	}
}

type memLeases struct {
	holder  string
	expires time.Time
	now     time.Time
}

func (m *memLeases) Now(context.Context) (time.Time, error) { return m.now, nil }
func (m *memLeases) HoldLease(_ context.Context, _, holder string, ttl time.Duration, now time.Time) (bool, error) {
	if m.holder == holder || !now.Before(m.expires) {
		m.holder, m.expires = holder, now.Add(ttl)
		return true, nil
	}
	return false, nil
}

// Two processes' leases on one database: the first holds it while it
// renews; the second takes over once it stops for longer than the TTL.
func TestDatabaseLeaseTakeover(t *testing.T) {
	db := &memLeases{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	a := DatabaseLease{Store: db, Name: "timers", Holder: "a", TTL: 15 * time.Second}
	b := DatabaseLease{Store: db, Name: "timers", Holder: "b", TTL: 15 * time.Second}
	hold := func(l DatabaseLease) bool {
		ok, err := l.Hold(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !hold(a) || hold(b) {
		t.Fatal("the first asker should hold it alone")
	}
	db.now = db.now.Add(10 * time.Second)
	if !hold(a) || hold(b) {
		t.Fatal("a renewing holder keeps it")
	}
	db.now = db.now.Add(16 * time.Second) // a stopped renewing
	if !hold(b) || hold(a) {
		t.Fatal("b should take over once a's lease ran out")
	}
}

// An alarm fires once at its time; re-arming moves it, clearing or
// closing stops it.
func TestAlarms(t *testing.T) {
	var a Alarms
	fired := make(chan int64, 4)
	now := time.Now()
	a.Set(1, now.Add(time.Hour), now, func() { fired <- 1 })
	a.Set(1, now.Add(5*time.Millisecond), now, func() { fired <- 1 }) // moved earlier
	a.Set(2, now.Add(time.Hour), now, func() { fired <- 2 })
	a.Set(2, time.Time{}, now, nil) // cleared
	select {
	case k := <-fired:
		if k != 1 {
			t.Fatalf("alarm %d fired", k)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the moved alarm never fired")
	}
	if n := a.Armed(); n != 0 {
		t.Fatalf("%d alarms armed after the last fired", n)
	}
	a.Set(3, time.Now().Add(time.Hour), time.Now(), func() { fired <- 3 })
	a.Close()
	a.Set(4, time.Now(), time.Now(), func() { fired <- 4 })
	if n := a.Armed(); n != 0 {
		t.Fatalf("%d alarms armed after Close", n)
	}
	select {
	case k := <-fired:
		t.Fatalf("alarm %d fired after Close", k)
	case <-time.After(20 * time.Millisecond):
	}
}
