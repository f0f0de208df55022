package puzzles

// This file is the search for puzzles in the server's finished games: the
// built-in set first, then one game at a time in the background.

import (
	"context"
	"sync"
	"time"

	"othello-bot/puzzle"
)

// SearchPuzzles searches up to n finished games for puzzles, oldest first,
// storing what it finds (each game once, whoever searches); it returns how
// many games it searched. The search job (searchDue) calls it in the
// background; the terminal, as it waits.
func (s *Service) SearchPuzzles(ctx context.Context, n int) (int, error) {
	ids, err := s.store.UnsearchedGames(ctx, n)
	if err != nil {
		return 0, err
	}
	searched := 0
	for _, id := range ids {
		g, err := s.store.Game(ctx, id)
		if err != nil {
			return searched, err
		}
		var found []puzzle.Puzzle
		// A game outside any server (a DM, a group DM) is its players'
		// own: its positions do not join the shared set every DM draws
		// from. It is marked searched all the same.
		if g.GuildID != "" {
			if found, err = puzzle.Find(ctx, s.eng, g.State.Start(), g.State.Moves(), s.puzzleSearch()); err != nil {
				return searched, err
			}
		}
		rated := make([]puzzle.Record, len(found))
		for i, p := range found {
			rated[i] = puzzle.Rated(p)
		}
		if _, err := s.store.SavePuzzles(ctx, g.GuildID, g.ID, rated, s.Now()); err != nil {
			return searched, err
		}
		s.Logger(ctx).Info("searched a game for puzzles", "game", id, "found", len(found))
		searched++
	}
	return searched, nil
}

// AddBuiltinPuzzles stores the built-in set once (each puzzle by its key).
func (s *Service) AddBuiltinPuzzles(ctx context.Context) error {
	set, err := puzzle.Builtin()
	if err != nil {
		return err
	}
	rated := make(map[string]puzzle.Record, len(set))
	for key, p := range set {
		rated[key] = puzzle.Rated(p)
	}
	n, err := s.store.AddBuiltinPuzzles(ctx, rated, s.Now())
	if n > 0 {
		s.Logger(ctx).Info("built-in puzzles added", "count", n)
	}
	return err
}

// searching is the puzzle search's state: one search at a time, at most
// every Config.SearchEvery, and each after a rest of three times the last
// one's length (see nextSearch).
type searching struct {
	mu       sync.Mutex
	last     time.Time // when the last search started
	next     time.Time // when the next may start
	running  bool
	builtins sync.Once
	wg       sync.WaitGroup
}

// searchDue starts, in the background, the search of one finished game
// for puzzles when one is due (the scheduler's job: a search takes the
// engine for seconds, which no tick waits for).
func (s *Service) searchDue(_ context.Context, now time.Time) {
	if s.cfg.SearchEvery <= 0 {
		return
	}
	s.search.mu.Lock()
	due := !s.search.running && (s.search.last.IsZero() || !now.Before(s.search.next))
	if due {
		s.search.running, s.search.last = true, now
	}
	s.search.mu.Unlock()
	if !due {
		return
	}
	s.search.wg.Add(1)
	go func() {
		defer s.search.wg.Done()
		ctx := s.Background()
		s.search.builtins.Do(func() {
			if err := s.AddBuiltinPuzzles(ctx); err != nil {
				s.Logger(ctx).Error("adding the built-in puzzles", "err", err)
			}
		})
		if _, err := s.SearchPuzzles(ctx, 1); err != nil && ctx.Err() == nil {
			s.Logger(ctx).Error("searching games for puzzles", "err", err)
		}
		s.search.mu.Lock()
		s.search.running = false
		s.search.next = nextSearch(s.search.last, s.Now(), s.cfg.SearchEvery)
		s.search.mu.Unlock()
	}()
}

// nextSearch is when a search may start after one that ran from started
// to ended: every apart at the most, and after a rest three times as long
// as it ran. A 10,000-game load showed why: the searches of finished games
// (exact solves, 20 s and more each) then followed one another without
// rest, a whole core taken from the moves.
func nextSearch(started, ended time.Time, every time.Duration) time.Time {
	next := started.Add(every)
	if rest := ended.Add(3 * ended.Sub(started)); rest.After(next) {
		next = rest
	}
	return next
}

// Drain waits for a search under way (it stops with the core's
// background context), for shutdown.
func (s *Service) Drain() { s.search.wg.Wait() }
