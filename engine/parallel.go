package engine

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"othello-bot/internal/threadcpu"
)

// The parallel search is young brothers wait (YBWC, as Edax uses): a node
// searches its first child alone, since that one usually decides the
// window or cuts; only then may its younger brothers be searched at once,
// by whichever searchers of the team are idle, a searcher waiting for the
// others' brothers included. The helpers share the leader's transposition
// tables (without locks, see slot). The answer is the one a search alone
// would give (up to which of equal moves comes first); it only comes
// sooner.
//
// Fairness: helpers are searchers no other search is using, lent only
// while no search waits for one; a search that finds none free takes them
// back at once (reclaim), and the leader finishes what they left.

// Splitting below these depths costs more in coordination than it gains.
const (
	splitMinEmpties = 10 // endgame solver
	splitMinDepth   = 4  // midgame search
)

// team is the helpers lent to one search.
type team struct {
	work   chan *splitPoint // an idle helper waits here
	idle   atomic.Int32
	stop   atomic.Bool // reclaimed or the search is over: helpers leave
	quit   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
	nodes  atomic.Uint64
	splits *atomic.Uint64 // the engine's count, for tests
}

// childSearch searches a child position from its side to move's view.
type childSearch func(s *searcher, p, o uint64, alpha, beta int32) int32

// solveChild is the endgame solver's child search.
func solveChild(s *searcher, p, o uint64, alpha, beta int32) int32 {
	return int32(s.solve(p, o, int(alpha), int(beta)))
}

// searchChild is the midgame search's child search to a depth.
func searchChild(depth int) childSearch {
	return func(s *searcher, p, o uint64, alpha, beta int32) int32 { return s.search(p, o, depth, alpha, beta) }
}

// splitPoint is a node whose younger brothers are searched in parallel.
type splitPoint struct {
	moves []scoredMove // the children left, flips filled in
	p, o  uint64
	child childSearch
	beta  int32
	all   bool // every child with a full window (root analysis)
	// the solver's stage, which the helpers search at too
	endLevel int8
	endT     float64
	next     atomic.Int32
	stop     atomic.Bool    // a child cut: the others stop
	stops    []*atomic.Bool // the stops of the splits above and this one's
	// active counts the searchers working here, the one that split
	// included (so it cannot reach 0 while helpers are still joining);
	// the last to leave closes finished.
	active      atomic.Int32
	finished    chan struct{}
	mu          sync.Mutex // guards what follows
	alpha, best int32
	bestMove    int
	done        []bool
	values      []int32
}

// helpSearch lends idle searchers to the search that s leads for as long as
// it runs; done stops them and returns how many nodes they searched. s must
// have been started (its tables cleared) before.
func (e *Engine) helpSearch(s *searcher) (done func() uint64) {
	var lent []*searcher
	for len(lent) < e.opts.Searches-1 && e.waiting.Load() == 0 {
		select {
		case h := <-e.slots:
			if h == nil {
				h = e.newSearcher()
			}
			lent = append(lent, h)
			continue
		default:
		}
		break
	}
	if len(lent) == 0 {
		return func() uint64 { return 0 }
	}
	t := &team{work: make(chan *splitPoint), quit: make(chan struct{}), splits: &e.splits}
	e.mu.Lock()
	e.lent[t] = struct{}{}
	e.mu.Unlock()
	if e.waiting.Load() > 0 { // a search began to wait meanwhile
		t.halt()
	}
	s.tt.shared, s.ett.shared = true, true // before any helper starts
	for _, h := range lent {
		own, ownEnd := h.tt, h.ett
		h.reset(s.t.Size, s.stop)
		h.tt, h.ett, h.mpc, h.deadline = s.tt, s.ett, s.mpc, s.deadline
		h.team, h.quit = t, &t.stop
		t.wg.Go(func() {
			cpu := threadcpu.Start()
			h.cpu, h.cpuSpent = &cpu, &e.cpu
			defer func() {
				h.cpu, h.cpuSpent = nil, nil
				e.cpu.Add(int64(cpu.Stop()))
				h.tt, h.ett, h.team, h.quit = own, ownEnd, nil, nil
				t.nodes.Add(h.nodes)
				e.slots <- h
			}()
			h.serve(t)
		})
	}
	s.team = t
	return func() uint64 {
		s.team = nil
		t.halt()
		t.wg.Wait()
		s.tt.shared, s.ett.shared = false, false
		e.mu.Lock()
		delete(e.lent, t)
		e.mu.Unlock()
		return t.nodes.Load()
	}
}

// reclaim stops every helper, so their searchers come back to the pool
// for a search that is waiting for one.
func (e *Engine) reclaim() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for t := range e.lent {
		t.halt()
	}
}

// halt sends the helpers home: idle ones at once, busy ones at their next
// poll.
func (t *team) halt() {
	t.stop.Store(true)
	t.once.Do(func() { close(t.quit) })
}

// serve is a helper's life: take a split point's children until the team
// is stopped.
func (h *searcher) serve(t *team) {
	for !t.stop.Load() {
		t.idle.Add(1)
		select {
		case sp := <-t.work:
			t.idle.Add(-1)
			h.helpAt(sp)
		case <-t.quit:
			t.idle.Add(-1)
			return
		}
	}
}

// canSplit says whether a node may share its younger brothers now.
func (s *searcher) canSplit(left int) bool {
	return s.team != nil && left >= 2 && !s.inProbCut && s.team.idle.Load() > 0 && !s.team.stop.Load()
}

// split searches the younger brothers moves of (p, o) with the idle
// helpers, given the best found so far and the window. It returns the
// best and its move, and with all set each move's score (0 for those not
// searched). The searcher is aborted after it only if the search above
// this node was stopped.
func (s *searcher) split(p, o uint64, moves []scoredMove, child childSearch, alpha, beta, best int32, bestMove int, all bool) (int32, int, []int32) {
	sp := &splitPoint{moves: moves, p: p, o: o, child: child, beta: beta, all: all, endLevel: s.endLevel, endT: s.endT,
		alpha: alpha, best: best, bestMove: bestMove, done: make([]bool, len(moves)), values: make([]int32, len(moves)),
		finished: make(chan struct{})}
	sp.active.Store(1)
	for i := range moves {
		if moves[i].flips == 0 {
			moves[i].flips = s.t.Flips(int(moves[i].x), p, o)
		}
	}
	s.team.splits.Add(1)
	above := s.stops
	sp.stops = append(slices.Clip(above), &sp.stop)
	for s.team.idle.Load() > 0 {
		sp.active.Add(1)
		select {
		case s.team.work <- sp:
			continue
		default:
			sp.active.Add(-1)
		}
		break
	}
	s.stops = sp.stops
	sp.work(s)
	s.stops = above
	sp.leave()
	if s.aborted && s.stoppedAbove() {
		sp.stop.Store(true)
		s.waitFor(sp)
		s.aborted = true
		return 0, -1, nil
	}
	s.aborted = false
	s.waitFor(sp)
	// What helpers left when they were reclaimed, the leader finishes.
	for i := range moves {
		if !sp.stop.Load() && !sp.done[i] {
			sp.search(s, i)
			if s.aborted {
				return 0, -1, nil
			}
		}
	}
	return sp.best, sp.bestMove, sp.values
}

// stoppedAbove says whether the search was stopped for a reason other
// than a cut at a split point below: the end of the search or a cut above.
func (s *searcher) stoppedAbove() bool {
	if s.stop.Load() || s.quit != nil && s.quit.Load() || !s.deadline.IsZero() && time.Now().After(s.deadline) {
		return true
	}
	for _, st := range s.stops {
		if st.Load() {
			return true
		}
	}
	return false
}

// waitFor waits until the helpers at sp are done, searching meanwhile
// what they split off to it (the helpful master: a searcher that waits
// for others is idle, and the work they share is below its own).
func (s *searcher) waitFor(sp *splitPoint) {
	t := s.team
	for {
		t.idle.Add(1)
		select {
		case <-sp.finished:
			t.idle.Add(-1)
			return
		case sub := <-t.work:
			t.idle.Add(-1)
			aborted := s.aborted
			s.helpAt(sub)
			s.aborted = aborted
		}
	}
}

// helpAt searches children of another searcher's split point.
func (s *searcher) helpAt(sp *splitPoint) {
	stops, level, t := s.stops, s.endLevel, s.endT
	s.stops, s.endLevel, s.endT = sp.stops, sp.endLevel, sp.endT
	sp.work(s)
	s.stops, s.aborted, s.endLevel, s.endT = stops, false, level, t
	sp.leave()
}

// leave is a searcher's last step at a split point.
func (sp *splitPoint) leave() {
	if sp.active.Add(-1) == 0 {
		close(sp.finished)
	}
}

// work takes children until none is left or the split point is cut.
func (sp *splitPoint) work(s *searcher) {
	for !sp.stop.Load() {
		i := int(sp.next.Add(1)) - 1
		if i >= len(sp.moves) {
			return
		}
		sp.search(s, i)
		if s.aborted {
			return
		}
	}
}

// search searches child i as the sequential search would: a null window
// at the best score so far, searched again in full when it fails high.
func (sp *splitPoint) search(s *searcher, i int) {
	m := sp.moves[i]
	x, f := int(m.x), m.flips
	cp, co := sp.o^f, sp.p^f|1<<x
	sp.mu.Lock()
	a := sp.alpha
	sp.mu.Unlock()
	var v int32
	if sp.all {
		v = -sp.child(s, cp, co, -sp.beta, -a)
	} else {
		v = -sp.child(s, cp, co, -a-1, -a)
		if !s.aborted && v > a && v < sp.beta {
			sp.mu.Lock()
			a = max(a, sp.alpha)
			sp.mu.Unlock()
			v = -sp.child(s, cp, co, -sp.beta, -a)
		}
	}
	if s.aborted {
		return // left undone
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.done[i], sp.values[i] = true, v
	if v > sp.best {
		sp.best, sp.bestMove = v, x
		if v > sp.alpha && !sp.all {
			sp.alpha = v
			if v >= sp.beta {
				sp.stop.Store(true)
			}
		}
	}
}

// rootSplit searches the root moves after the first in parallel, when
// helpers are idle, and adds them to out; ok false means it did not split.
func (s *searcher) rootSplit(p, o uint64, list []scoredMove, child childSearch, alpha, beta int32, all bool, out []rootResult) ([]rootResult, bool) {
	if !s.canSplit(len(list)) {
		return out, false
	}
	_, _, values := s.split(p, o, list, child, alpha, beta, -infinity, -1, all)
	if values == nil {
		return out, true
	}
	for i, m := range list {
		out = append(out, rootResult{int(m.x), values[i]})
	}
	return out, true
}

// younger copies a node's moves after the first for a split point, which
// outlives the node's frame: passing the node's own array would move it
// to the heap at every node, split or not (10-20% of the solver's time).
func younger(list []scoredMove) []scoredMove {
	out := make([]scoredMove, len(list))
	copy(out, list)
	return out
}
