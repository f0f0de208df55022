package discord

// This file is the note of each interaction's id that refuses a replayed
// request (Discord sends an interaction once).

import (
	"context"
	"time"
)

// SeenInteractions remembers interaction ids where every process sharing
// the database sees them, so a replayed request is refused by all of them,
// before and after a restart.
type SeenInteractions interface {
	FirstSeen(ctx context.Context, id string, at time.Time) (bool, error)
	ForgetSeen(ctx context.Context, before time.Time) error
}

// seenIn is SeenInteractions that may bring back, with an interaction's
// note, what its channel's handler reads first (the store on PostgreSQL:
// one round trip instead of two); with, if not nil, puts it in the
// handler's context.
type seenIn interface {
	FirstSeenIn(ctx context.Context, id, channelID string, at time.Time) (first bool, with func(context.Context) context.Context, err error)
}

// first records an interaction id where every process sees it and says
// whether it is new. Now and then it forgets ids older than twice the
// signature age (their requests fail the age check anyway).
func (e *Endpoint) first(ctx context.Context, id, channelID string) (bool, func(context.Context) context.Context, error) {
	now := e.now()
	if last := e.forgotten.Load(); now.Unix()-last > int64(time.Minute/time.Second) && e.forgotten.CompareAndSwap(last, now.Unix()) {
		// In the background: no interaction waits on the clean-up, and a
		// shutdown (which waits for what is in flight) waits seconds at
		// most for it.
		e.a.inflight.Add(1)
		go func() {
			defer e.a.inflight.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := e.seen.ForgetSeen(ctx, now.Add(-2*signatureAge)); err != nil {
				e.log.Warn("forgetting old interactions", "err", err)
			}
		}()
	}
	if in, ok := e.seen.(seenIn); ok {
		return in.FirstSeenIn(ctx, id, channelID, now)
	}
	first, err := e.seen.FirstSeen(ctx, id, now)
	return first, nil, err
}
