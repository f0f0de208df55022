package keyed

import (
	"sync"
	"testing"
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
