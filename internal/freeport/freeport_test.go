package freeport

import (
	"net"
	"strconv"
	"sync"
	"testing"
)

// Ports are each handed out once, also to callers at once, below the
// kernel's range for outgoing connections' own ports, and free when
// handed out.
func TestPortsDistinctAndOutsideTheOutgoingRange(t *testing.T) {
	from, to := Range()
	if to-from < 1000 {
		t.Skipf("the outgoing range starts at %d: ports come from port 0 here", to)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				addr, err := Addr()
				if err != nil {
					t.Error(err)
					return
				}
				_, port, _ := net.SplitHostPort(addr)
				n, _ := strconv.Atoi(port)
				mu.Lock()
				twice := seen[addr]
				seen[addr] = true
				mu.Unlock()
				if twice || n < from || n >= to {
					t.Errorf("port %s: handed out before %v, or outside %d-%d", addr, twice, from, to-1)
					return
				}
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					t.Errorf("port %s handed out but not free: %v", addr, err)
					return
				}
				ln.Close()
			}
		})
	}
	wg.Wait()
}
