// Package threadcpu measures the CPU time one goroutine spends, by pinning
// it to its OS thread and reading that thread's CPU clock: what a piece of
// work cost, apart from everything else the process does at the time, and
// the same on an idle machine or a busy one.
package threadcpu

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// Timer measures the calling goroutine from Start to Stop, which must be
// called on the same goroutine.
type Timer struct {
	start time.Duration
	ok    bool
}

// Start pins the goroutine to its thread and notes the thread's CPU time.
func Start() Timer {
	runtime.LockOSThread()
	t, ok := now()
	return Timer{start: t, ok: ok}
}

// Stop unpins the goroutine and returns the CPU time it used since Start
// or the last Lap (0 where the thread's clock cannot be read).
func (t *Timer) Stop() time.Duration {
	d := t.Lap()
	runtime.UnlockOSThread()
	return d
}

// Lap returns the CPU time used since Start or the last Lap, and goes on
// counting: what a long piece of work has cost so far.
func (t *Timer) Lap() time.Duration {
	end, ok := now()
	if !ok || !t.ok || end < t.start {
		return 0
	}
	d := end - t.start
	t.start = end
	return d
}

func now() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
