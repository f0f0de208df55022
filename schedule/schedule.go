// Package schedule runs the bot's timed work in one place. Each
// capability registers its jobs by name (challenges expire, clocks fall,
// threads are archived, daily puzzles posted, tournament rounds paired);
// a Scheduler runs them in the order registered on every tick. Every job
// reads what is due from the store and changes it conditionally, so a
// tick that runs twice, or in two processes, changes nothing twice; where
// several processes share a database, a Lease keeps the ticking to one of
// them at a time besides.
package schedule

import (
	"context"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"
)

// Job is one kind of timed work: Run does what is due at now.
type Job struct {
	Name string
	Run  func(ctx context.Context, now time.Time)
}

// Lease keeps a duty to one process at a time among those sharing a
// database.
type Lease interface {
	// Hold takes or renews the lease; true while this process has it.
	Hold(ctx context.Context) (bool, error)
}

// Scheduler runs the registered jobs.
type Scheduler struct {
	now   func() time.Time
	lease Lease // nil: this process is the only one
	log   *slog.Logger

	mu      sync.Mutex // one tick at a time
	jobs    []Job
	holding bool
}

// New returns a scheduler on a clock; lease may be nil.
func New(now func() time.Time, lease Lease, log *slog.Logger) *Scheduler {
	if log == nil {
		log = slog.Default()
	}
	return &Scheduler{now: now, lease: lease, log: log}
}

// Register adds jobs, run after those registered before.
func (s *Scheduler) Register(jobs ...Job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, jobs...)
}

// Jobs names the registered jobs in the order they run.
func (s *Scheduler) Jobs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(s.jobs))
	for i, j := range s.jobs {
		names[i] = j.Name
	}
	return names
}

// Tick runs every job once, in order, if this process holds the lease
// (or needs none). A job that panics is logged and the others still run.
// It reports whether the jobs ran.
func (s *Scheduler) Tick(ctx context.Context) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lease != nil {
		mine, err := s.lease.Hold(ctx)
		if err != nil {
			s.log.Error("timers: renewing the lease", "err", err)
			return false
		}
		if mine && !s.holding {
			s.log.Info("this process now fires the timers")
		}
		s.holding = mine
		if !mine {
			return false
		}
	}
	now := s.now()
	for _, j := range s.jobs {
		s.run(ctx, j, now)
	}
	return true
}

func (s *Scheduler) run(ctx context.Context, j Job, now time.Time) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("timer job panic", "job", j.Name, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	j.Run(ctx, now)
}

// Run ticks every so often until ctx ends; the jobs run in work (which
// may outlive ctx by a grace period, so a tick under way finishes). After
// each tick beat, if set, is called, whether the jobs ran here or not.
func (s *Scheduler) Run(ctx, work context.Context, every time.Duration, beat func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Tick(work)
			if beat != nil {
				beat()
			}
		}
	}
}
