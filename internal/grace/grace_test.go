package grace

import (
	"context"
	"testing"
	"time"
)

// Work detached from a stopped parent goes on for the grace period, then
// ends; cancel ends it at once.
func TestDetach(t *testing.T) {
	parent, stop := context.WithCancel(context.Background())
	work, cancel := Detach(parent, 50*time.Millisecond)
	defer cancel()
	stop()
	select {
	case <-work.Done():
		t.Fatal("work ended with its parent, before its grace")
	case <-time.After(10 * time.Millisecond):
	}
	select {
	case <-work.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("work outlived its grace")
	}
	other, cancelOther := Detach(context.Background(), time.Hour)
	cancelOther()
	if other.Err() == nil {
		t.Fatal("cancel did not end the work")
	}
}
