package threadcpu

import (
	"testing"
	"time"
)

// Work counts; sleeping does not.
func TestCountsWorkNotWaiting(t *testing.T) {
	tm := Start()
	time.Sleep(50 * time.Millisecond)
	if slept := tm.Stop(); slept > 20*time.Millisecond {
		t.Errorf("a 50 ms sleep cost %v of CPU", slept)
	}
	tm = Start()
	x := 0
	for i := range 200_000_000 {
		x ^= i * i
	}
	if worked := tm.Stop(); worked <= 0 {
		t.Errorf("200 million multiplications cost %v of CPU (%d)", worked, x)
	}
}
