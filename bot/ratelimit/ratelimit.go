// Package ratelimit is what the bot and its transports share of a
// platform's rate limits: the error for a wait longer than a call can
// afford, how long a caller allows, and pauses learned from them.
package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// RetryLater is what a transport returns when the platform asks the bot to
// wait (a rate limit) longer than the call could: After is how long,
// Scope the platform's word for whose limit it is (Discord's
// X-RateLimit-Scope: user, global or shared).
type RetryLater struct {
	After time.Duration
	Scope string
}

func (e *RetryLater) Error() string {
	return fmt.Errorf("asked to wait %v (%s rate limit)", e.After.Round(time.Millisecond), e.Scope).Error()
}

// waitKey is the context key of WaitAtMost.
type waitKey struct{}

// WaitAtMost says a call under ctx may wait at most d for rate limits (a
// transport answers RetryLater beyond it): for a call whose caller has
// something else to do, such as a game in its channel instead of a thread.
func WaitAtMost(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, waitKey{}, d)
}

// MostWait is what WaitAtMost said of ctx, if it did.
func MostWait(ctx context.Context) (time.Duration, bool) {
	d, ok := ctx.Value(waitKey{}).(time.Duration)
	return d, ok
}

// Pauses are the keys (servers, say) a limit holds back until a time.
type Pauses struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// Hold holds key back until then.
func (p *Pauses) Hold(key string, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.until == nil {
		p.until = map[string]time.Time{}
	}
	p.until[key] = until
}

// Held says whether key is still held back at now.
func (p *Pauses) Held(key string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	until, ok := p.until[key]
	if ok && !now.Before(until) {
		delete(p.until, key)
		return false
	}
	return ok
}
