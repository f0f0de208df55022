package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// On a clock past its target, a search whose best move holds starts no
// deeper iteration: it stops at the first depth (from 3) where the last
// two depths agreed, wherever the deadline is. Without a target it goes
// to its depth. The depths are read from the search itself, so this does
// not depend on the machine's speed.
func TestPastTargetStopsASettledSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 45))
	s := newSearcher()
	stopped := 0
	for range 12 {
		p := randomPosition(t, 8, 24, rng)
		mine, theirs := own(p)
		if len(p.LegalMoves()) < 2 {
			continue
		}
		// The best move at each depth, searched as iterate does.
		stop := s.start(context.Background(), 8, time.Time{})
		best, prev := []int{-1}, -1
		for d := 1; d <= 7; d++ {
			r := s.searchRoot(mine, theirs, d, prev, false)
			prev = r[0].x
			best = append(best, prev)
		}
		stop()
		want := 7
		for d := 3; d <= 7; d++ {
			if best[d-1] == best[d-2] {
				want = d - 1
				break
			}
		}
		stop = s.start(context.Background(), 8, time.Time{})
		s.target = time.Now().Add(-time.Second)
		got := s.iterate(mine, theirs, 7, p.Empties(), time.Time{})
		stop()
		if got.Depth != want || got.Move != square(best[want]) {
			t.Errorf("past its target: depth %d (%s), want %d (%s); best by depth %v", got.Depth, got.Move, want, square(best[want]), best[1:])
		}
		if want < 7 {
			stopped++
		}
		stop = s.start(context.Background(), 8, time.Time{})
		if full := s.iterate(mine, theirs, 7, p.Empties(), time.Time{}); full.Depth != 7 {
			t.Errorf("without a target: depth %d, want 7", full.Depth)
		}
		stop()
	}
	if stopped == 0 {
		t.Error("no position's search settled early: the test shows nothing")
	}
}
