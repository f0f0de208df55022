package ratelimit

import (
	"context"
	"testing"
	"time"
)

func TestPausesLift(t *testing.T) {
	var p Pauses
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if p.Held("g", t0) {
		t.Fatal("held before any hold")
	}
	p.Hold("g", t0.Add(240*time.Second))
	if !p.Held("g", t0.Add(time.Minute)) || p.Held("other", t0) {
		t.Fatal("a hold of g: g held, others not")
	}
	if p.Held("g", t0.Add(240*time.Second)) {
		t.Fatal("still held once the wait is over")
	}
}

func TestWaitAtMost(t *testing.T) {
	if _, ok := MostWait(context.Background()); ok {
		t.Fatal("a plain context allows any wait")
	}
	if d, ok := MostWait(WaitAtMost(context.Background(), 2*time.Second)); !ok || d != 2*time.Second {
		t.Fatalf("MostWait %v %v", d, ok)
	}
}
