package web

import (
	"bufio"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"othello-bot/record"
)

// A thousand pages open on running games cost a bounded amount of memory
// and still get their moves. Client and server share this process, so the
// figure counts both ends.
func TestThousandIdleLivePages(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a thousand connections")
	}
	f := newFixture(t)
	g := f.newGame("c1", 8, 4)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	goBefore := runtime.NumGoroutine()
	const n = 1000
	pages := openPages(t, f, g, n, 512)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapInuse-before.HeapInuse) / (1 << 20)
	stacks := float64(after.StackInuse-before.StackInuse) / (1 << 20)
	t.Logf("%d idle live pages: heap +%.1f MB, stacks +%.1f MB, %d goroutines more (both ends)", n, heap, stacks, runtime.NumGoroutine()-goBefore)
	if heap+stacks > 200 {
		t.Errorf("%.0f MB for %d idle pages", heap+stacks, n)
	}
	// One move reaches them all.
	t0 := time.Now()
	f.play(g)
	for i, p := range pages {
		if d := readEvent(t, p); !strings.Contains(d, `"move":`) {
			t.Fatalf("page %d got %q", i, d)
		}
	}
	t.Logf("the move reached all %d pages in %v", n, time.Since(t0))
}

// openPages opens n live pages on g, all from this address (the caps are
// raised for it), each past its first event; they close with the test.
func openPages(t *testing.T, f *fixture, g *record.Game, n, bufSize int) []*bufio.Reader {
	t.Helper()
	f.web.MaxWatchers, f.web.MaxWatchersPerAddress = 2*n, 2*n
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * n, MaxConnsPerHost: 2 * n}}
	pages := make([]*bufio.Reader, 0, n)
	for i := 0; i < n; i++ {
		resp, err := client.Get(f.srv.URL + PagePath(g.PublicID) + "/events")
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		r := bufio.NewReaderSize(resp.Body, bufSize)
		readEvent(t, r) // the game, at once
		pages = append(pages, r)
	}
	return pages
}

// readEvent reads one event's data line, skipping comments.
func readEvent(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			return d
		}
	}
}

// A page that never reads holds nobody else up: the hub only marks it as
// behind, and the other pages get every move.
func TestAStuckPageHoldsNobodyUp(t *testing.T) {
	f := newFixture(t)
	f.web.WriteTimeout = 200 * time.Millisecond
	g := f.newGame("c1", 8, 2)
	stuck, err := http.Get(f.srv.URL + PagePath(g.PublicID) + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Body.Close() // never read
	resp, err := http.Get(f.srv.URL + PagePath(g.PublicID) + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	readEvent(t, r)
	for i := 0; i < 20 && !g.State.Over(); i++ {
		f.play(g)
		deadline := time.Now().Add(2 * time.Second)
		for {
			d := readEvent(t, r)
			if strings.Count(d, `"move":`) == len(g.Plies()) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("move %d did not arrive", i)
			}
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip("no getrusage")
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// With 2,000 pages watching one game, a move costs the process little CPU
// beyond writing it to each page: the game is loaded and encoded once per
// change, not once per watcher. (Client and server share the process, so
// the figure counts both ends; the reading side is the same before and
// after.)
func TestCPUPerMoveWithManyWatchers(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 2,000 connections")
	}
	f := newFixture(t)
	g := f.newGame("c1", 8, 4)
	const n, moves = 2000, 10
	readers := openPages(t, f, g, n, 4096)
	start := cpuTime(t)
	for range moves {
		f.play(g)
		want := len(g.Plies())
		for i, r := range readers {
			for {
				d := readEvent(t, r)
				if strings.Count(d, `"move":`) == want {
					break
				}
				if strings.Count(d, `"move":`) > want {
					t.Fatalf("page %d is ahead", i)
				}
			}
		}
	}
	perMove := (cpuTime(t) - start) / moves
	t.Logf("CPU per move with %d watchers: %v (both ends)", n, perMove)
}
