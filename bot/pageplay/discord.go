package pageplay

// This file is showing a page's actions in Discord. The page hears of a
// move at once (the web server pushes the game); Discord is told after,
// one game at a time: a single worker per game edits its message to the
// newest board, and a move made while an edit is on its way replaces the
// board still to show. So a bullet game played on the page costs at most
// one edit in flight per game, never a queue of stale boards behind the
// channel's rate limit, and boards never land out of order. Posts (pings,
// a rematch's challenge) are all sent, in order.

import (
	"context"
	"errors"
	"sync"

	"othello-bot/bot"
	"othello-bot/record"
)

// showJob is what is still to show of a game's actions.
type showJob struct {
	game  *record.Game
	board *bot.Message  // the newest board, to edit the game message to; nil for none
	posts []bot.Message // to post in the game's channel, in order
	after []func()      // each response's Delivered, once shown
}

// showing holds each game's next job and whether a worker runs for it.
type showing struct {
	mu      sync.Mutex
	next    map[int64]*showJob
	running map[int64]bool
}

// enqueue adds a job for a game: merged into the one waiting (its board
// replacing the older), and run by the game's worker.
func (s *Service) enqueue(id int64, j showJob) {
	sh := &s.shows
	sh.mu.Lock()
	if w, ok := sh.next[id]; ok {
		if j.board != nil {
			w.game, w.board = j.game, j.board
		}
		w.posts = append(w.posts, j.posts...)
		w.after = append(w.after, j.after...)
	} else {
		sh.next[id] = &j
	}
	if sh.running[id] {
		sh.mu.Unlock()
		return
	}
	sh.running[id] = true
	sh.mu.Unlock()
	go s.core.Task(s.core.Background(), "showing a page's action in Discord", func(ctx context.Context) {
		defer func() { // even after a panic, the next job gets a worker
			sh.mu.Lock()
			delete(sh.running, id)
			sh.mu.Unlock()
		}()
		for {
			sh.mu.Lock()
			j, ok := sh.next[id]
			delete(sh.next, id)
			sh.mu.Unlock()
			if !ok {
				return
			}
			s.run(ctx, j)
		}
	})
}

func (s *Service) run(ctx context.Context, j *showJob) {
	if j.board != nil {
		s.show(ctx, j.game, j.board)
	}
	for i := range j.posts {
		s.send(ctx, j.game.ChannelID, &j.posts[i])
	}
	for _, f := range j.after {
		f()
	}
}

// show puts a game message where the game lives: its live message edited
// (as a press on it would have), else posted anew.
func (s *Service) show(ctx context.Context, g *record.Game, m *bot.Message) {
	if g.MessageID != "" {
		err := s.core.Edit(ctx, g.ChannelID, g.MessageID, *m)
		if err == nil {
			s.core.Posted(ctx, g.ChannelID, m, g.MessageID)
			return
		}
		if !errors.Is(err, bot.ErrUnreachable) {
			s.core.Logger(ctx).Warn("editing a game message after a page's move", "game", g.ID, "err", err)
		}
	}
	s.send(ctx, g.ChannelID, m)
}
