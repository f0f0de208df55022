package engine

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"
)

// shallowLoop is the solver's last empties as one loop, as they were
// before solve3 was written out: every empty square next to
// an opponent disc, odd quadrants first, each group by square.
func (s *searcher) shallowLoop(p, o, empty uint64, n int, parity uint8, alpha, beta int) int {
	best := -65
	near := neighbours(o) & empty
	odd := s.ev.odd[parity]
	for _, m := range [2]uint64{near & odd, near &^ odd} {
		for ; m != 0; m &= m - 1 {
			x := bits.TrailingZeros64(m)
			f := s.t.Flips(x, p, o)
			if f == 0 {
				continue
			}
			var v int
			if rest := empty &^ (1 << x); n == 3 {
				v = -s.lastTwo(o^f, p^f|1<<x, bits.TrailingZeros64(rest), bits.TrailingZeros64(rest&(rest-1)), -beta, -alpha, false)
			} else {
				s.poll()
				v = -s.shallowLoop(o^f, p^f|1<<x, rest, n-1, parity^s.ev.quadrant[x], -beta, -alpha)
			}
			if v > best {
				best = v
				if v > alpha {
					if alpha = v; alpha >= beta {
						return best
					}
				}
			}
		}
	}
	if best == -65 {
		if movesOf(s, o, p) == 0 {
			return finalDiff(p, o, s.t.Mask)
		}
		s.poll() // the pass, a node as solve counts it
		return -s.shallowLoop(o, p, empty, n, parity, -beta, -alpha)
	}
	return best
}

func movesOf(s *searcher, p, o uint64) uint64 {
	var n uint64
	for m := s.t.Mask &^ (p | o); m != 0; m &= m - 1 {
		if s.t.Flips(bits.TrailingZeros64(m), p, o) != 0 {
			n |= m & -m
		}
	}
	return n
}

// The written-out solver for three empties searches the tree the
// loop searched: the same value and the same nodes, in any window, on
// every board size.
func TestShallowSolversSearchTheLoopsTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	s := newSearcher()
	compared := 0
	for i := 0; i < 3000; i++ {
		size := []int{4, 6, 8, 8}[i%4]
		empties := 3 + i%3
		if size == 4 && empties > 4 {
			empties = 4
		}
		pos := randomPosition(t, size, empties, rng)
		if pos.Empties() != empties {
			continue
		}
		mine, theirs := own(pos)
		alpha := rng.IntN(129) - 65
		beta := alpha + 1
		if i%2 == 0 {
			beta = min(alpha+1+rng.IntN(30), 65)
		}
		stop := s.start(context.Background(), size, time.Time{})
		empty := s.t.Mask &^ (mine | theirs)
		want := s.shallowLoop(mine, theirs, empty, empties, s.parity(empty), alpha, beta)
		wantNodes := s.nodes
		stop()
		stop = s.start(context.Background(), size, time.Time{})
		got := s.solve(mine, theirs, alpha, beta)
		gotNodes := s.nodes - 1 // solve counts the position itself; the loop was handed it
		stop()
		compared++
		if got != want || gotNodes != wantNodes {
			t.Fatalf("%s %s to move, window (%d,%d): %d in %d nodes, the loop %d in %d", pos.Board64(), pos.ToMove(), alpha, beta, got, gotNodes, want, wantNodes)
		}
	}
	if compared < 2500 {
		t.Fatalf("only %d positions compared", compared)
	}
}
