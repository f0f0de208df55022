package discord

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// REST calls bound to Discord's global limit never reach 50 in any second
// however many start at once; an interaction's callbacks and follow-ups,
// which Discord does not bind, are not held back; a process running some
// of the shards keeps to its share.
func TestPacedUnderTheGlobalLimit(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		at = append(at, time.Now())
		mu.Unlock()
		return &http.Response{StatusCode: 204, Header: http.Header{}, Body: http.NoBody}, nil
	})
	send := func(rt http.RoundTripper, n int, path string) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest(http.MethodPost, "https://discord.com/api/v10"+path, nil)
				if _, err := rt.RoundTrip(req); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	busiest := func() int {
		most := 0
		for i := range at {
			n := 0
			for j := i; j < len(at) && at[j].Sub(at[i]) < time.Second; j++ {
				n++
			}
			most = max(most, n)
		}
		return most
	}

	rt, err := APIBase("https://discord.com/", next)
	if err != nil {
		t.Fatal(err)
	}
	send(rt, 100, "/channels/1/messages")
	if n := busiest(); n >= 50 {
		t.Fatalf("%d requests in one second", n)
	}
	at = nil
	if took := send(rt, 100, "/interactions/1/token/callback"); took > time.Second {
		t.Fatalf("interaction callbacks were held back %v", took)
	}
	at = nil
	rt, _ = APIBase("https://discord.com/", next)
	rt.ShareGlobalLimit(1, 4)
	send(rt, 30, "/channels/1/messages")
	if n := busiest(); n > 50/4 {
		t.Fatalf("one of four shards made %d requests in one second", n)
	}
}
