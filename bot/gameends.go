package bot

// This file holds back the news of a game's end until its answer is shown:
// the listeners (a tournament's next step, its podium) hear of it once
// the adapter has delivered the response of the request that ended the
// game, so the players read the result before what follows from it.

import (
	"context"
	"sync"
	"time"

	"othello-bot/record"
)

// deliveredWithin is how long a response may take to be shown before the
// listeners hear of its games' ends anyway (an adapter that never says).
const deliveredWithin = 30 * time.Second

type heldEndsKey struct{}

// heldEnds are the news of the games ended under one request or timer,
// each told in the context the game ended in (a tournament's own step
// marks its context, and takes no second step for it).
type heldEnds struct {
	mu    sync.Mutex
	tells []func()
}

// holdEnds makes the ends of games under ctx wait for release.
func holdEnds(ctx context.Context) (context.Context, *heldEnds) {
	h := &heldEnds{}
	return context.WithValue(ctx, heldEndsKey{}, h), h
}

// gameEnded tells the listeners that g ended, or holds the news back for
// the request's delivery, to be told then as the service's own work.
func (s *Service) gameEnded(ctx context.Context, g *record.Game) {
	tell := func(ctx context.Context) {
		for _, l := range s.gameEnd {
			l.GameEnded(ctx, g)
		}
	}
	h, ok := ctx.Value(heldEndsKey{}).(*heldEnds)
	if !ok {
		tell(ctx)
		return
	}
	ctx = context.WithoutCancel(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tells = append(h.tells, func() { s.Task(ctx, "a game's end", tell) })
}

// release tells the listeners of the ends held so far.
func (s *Service) release(h *heldEnds) {
	h.mu.Lock()
	tells := h.tells
	h.tells = nil
	h.mu.Unlock()
	for _, tell := range tells {
		tell()
	}
}

// afterDelivery is what a response's Delivered does: release the held
// ends once, on delivery or after deliveredWithin, whichever is first.
func (s *Service) afterDelivery(h *heldEnds) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.tells) == 0 {
		return nil
	}
	var once sync.Once
	timer := time.AfterFunc(deliveredWithin, func() { once.Do(func() { s.release(h) }) })
	return func() {
		timer.Stop()
		once.Do(func() { s.release(h) })
	}
}
