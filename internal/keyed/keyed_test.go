package keyed

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// One key's holders run one at a time; another key's run beside them.
func TestLockIsPerKey(t *testing.T) {
	var k Mutex
	unlockA := k.Lock("a")
	done := make(chan struct{})
	go func() { // another key is not held up by a
		k.Lock("b")()
		close(done)
	}()
	<-done
	var wg sync.WaitGroup
	inside, most := 0, 0
	var mu sync.Mutex
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer k.Lock("c")()
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			mu.Lock()
			inside--
			mu.Unlock()
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d holders of one key at once", most)
	}
	got := make(chan bool)
	go func() {
		k.Lock("a")()
		got <- true
	}()
	select {
	case <-got:
		t.Fatal("a second holder of a while it was held")
	default:
	}
	unlockA()
	<-got
}

// A key goes once per pause, other keys beside it; keys whose pause is
// over are forgotten as the set grows past its bound.
func TestPace(t *testing.T) {
	p := Pace{Every: time.Second}
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	if !p.Take("a", t0) || p.Take("a", t0.Add(999*time.Millisecond)) || !p.Take("b", t0) || !p.Take("a", t0.Add(time.Second)) {
		t.Fatal("a key's pause is not kept, or another key is held by it")
	}
	for i := range 2 * forgetAbove {
		p.Take(fmt.Sprint(i), t0.Add(time.Duration(i)*time.Second))
	}
	if n := len(p.last); n > forgetAbove+1 {
		t.Fatalf("%d keys kept, want at most %d", n, forgetAbove+1)
	}
	if p.Take(fmt.Sprint(2*forgetAbove-1), t0.Add(time.Duration(2*forgetAbove-1)*time.Second)) {
		t.Fatal("a key still in its pause went again after the others were forgotten")
	}
}
