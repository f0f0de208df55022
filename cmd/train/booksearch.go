package main

// This file is the book's searchers: the position the expansion needs now,
// and, with more than one searcher, the ones next in the queue searched
// ahead of need. Every search is logged as it finishes.

import (
	"container/heap"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/book"
)

type bookResult struct {
	moves []book.Move
	secs  float64
	err   error
}

type bookSearcher struct {
	ctx    context.Context
	cancel context.CancelFunc
	o      bookOptions
	eng    *engine.Engine
	log    *os.File
	slots  chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	searched map[bookKey][]book.Move
	running  map[bookKey]chan bookResult
	active   int // searches started and not finished
}

func newBookSearcher(ctx context.Context, o bookOptions, log *os.File, searched map[bookKey][]book.Move) *bookSearcher {
	n := max(o.workers, 1)
	ctx, cancel := context.WithCancel(ctx)
	return &bookSearcher{ctx: ctx, cancel: cancel, o: o, eng: engine.New(engine.Options{Searches: n, NoBook: true}), log: log,
		slots: make(chan struct{}, n), searched: searched, running: map[bookKey]chan bookResult{}}
}

// done is a position's moves if it was searched (now or in an earlier run).
func (s *bookSearcher) done(k bookKey) ([]book.Move, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.searched[k]
	return m, ok
}

// wait searches a position (or waits for the look-ahead already on it),
// and has the other searchers look ahead at the next n positions of the
// queue meanwhile.
func (s *bookSearcher) wait(k bookKey, q *bookQueue, seen map[bookKey]bool) ([]book.Move, float64, error) {
	ch := s.start(k)
	s.lookAhead(q, seen)
	r := <-ch
	return r.moves, r.secs, r.err
}

// lookAhead starts searches of the next unsearched positions of the queue
// (as it stands) while searchers are free.
func (s *bookSearcher) lookAhead(q *bookQueue, seen map[bookKey]bool) {
	c := append(bookQueue(nil), *q...)
	for c.Len() > 0 {
		s.mu.Lock()
		busy := s.active >= cap(s.slots)
		s.mu.Unlock()
		if busy {
			return
		}
		it := heap.Pop(&c).(bookItem)
		if !seen[it.key] {
			s.start(it.key)
		}
	}
}

// start searches k unless it is searched or being searched; the channel
// hears the result once.
func (s *bookSearcher) start(k bookKey) chan bookResult {
	ch := make(chan bookResult, 1)
	s.mu.Lock()
	if m, ok := s.searched[k]; ok {
		s.mu.Unlock()
		ch <- bookResult{moves: m}
		return ch
	}
	if running, ok := s.running[k]; ok {
		s.mu.Unlock()
		return running
	}
	s.running[k] = ch
	s.active++
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.slots <- struct{}{}
		r := s.search(k)
		<-s.slots
		s.mu.Lock()
		if r.err == nil {
			s.searched[k] = r.moves
		}
		delete(s.running, k)
		s.active--
		s.mu.Unlock()
		ch <- r
	}()
	return ch
}

func (s *bookSearcher) search(k bookKey) bookResult {
	p, err := bookPosition(k)
	if err != nil {
		return bookResult{err: err}
	}
	t0 := time.Now()
	evals, err := s.eng.ScoreMoves(s.ctx, p, s.o.depth, 0)
	if err != nil {
		return bookResult{err: err}
	}
	secs := time.Since(t0).Seconds()
	moves := make([]book.Move, len(evals))
	fields := []string{strconv.FormatUint(k[0], 16), strconv.FormatUint(k[1], 16), strconv.FormatFloat(secs, 'f', 3, 64)}
	for i, e := range evals {
		moves[i] = book.Move{Square: e.Move.Row*8 + e.Move.Col, Value: e.Eval.Cents}
		fields = append(fields, fmt.Sprintf("%d:%d", moves[i].Square, moves[i].Value))
	}
	s.mu.Lock()
	_, err = s.log.WriteString(strings.Join(fields, " ") + "\n")
	s.mu.Unlock()
	if err != nil {
		return bookResult{err: err}
	}
	return bookResult{moves: moves, secs: secs}
}

// stop ends the searches under way (looked ahead of need: the book does
// not need them) and waits for them, so none writes after it.
func (s *bookSearcher) stop() {
	s.cancel()
	s.wg.Wait()
}
