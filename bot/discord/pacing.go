package discord

// This file is the pace of REST calls: under Discord's global limit of 50
// requests a second, and a hair after each bucket's reset.

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Global pacing: at most globalBurst at once and globalRate a second
// after, so no second ever holds more than globalBurst+globalRate (48)
// requests bound to the global limit (50), with room for the clocks of
// the bot and Discord to differ. Discord's limit applies per bot: several
// processes split it (ShareWith), or share it through a REST proxy (see
// APIBase).
const (
	globalRate  = 40
	globalBurst = 8
)

// resetMargin is added to the reset Discord gives a bucket (to the
// millisecond): discordgo waits until exactly then, and a request sent
// at that instant can reach Discord a hair before the bucket turns over.
const resetMargin = 20 * time.Millisecond

// paced is a transport that waits its turn under the global limit before
// each request that counts against it, and moves each bucket's reset on
// by resetMargin.
type paced struct {
	global *rate.Limiter
	next   http.RoundTripper

	mu     sync.Mutex
	shards float64 // the share of the shards this process runs (1: all)
	procs  int     // the processes sharing the limit (ShareWith; 1 alone)
}

func pace(next http.RoundTripper) *paced {
	return &paced{global: rate.NewLimiter(globalRate, globalBurst), next: next, shards: 1, procs: 1}
}

// share sets the pace to shards/count of the whole, for a process that
// runs those of the bot's shards (at least one request at a time).
func (p *paced) share(shards, count int) {
	if shards <= 0 || count <= 0 || shards >= count {
		return
	}
	p.mu.Lock()
	p.shards = float64(shards) / float64(count)
	p.apply()
	p.mu.Unlock()
}

// processes sets how many processes share the limit; it reports whether
// that changed.
func (p *paced) processes(n int) bool {
	n = max(n, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := n != p.procs
	p.procs = n
	p.apply()
	return changed
}

// apply sets the limiter to the smaller of the two shares; p.mu is held.
func (p *paced) apply() {
	part := min(p.shards, 1/float64(p.procs))
	p.global.SetLimit(rate.Limit(globalRate * part))
	p.global.SetBurst(max(1, int(globalBurst*part)))
}

// sendTimeout bounds a call once it is sent (the wait for its turn under
// the global limit is its caller's context's business).
const sendTimeout = 20 * time.Second

func (p *paced) RoundTrip(req *http.Request) (*http.Response, error) {
	if !interactionEndpoint(req.URL.Path) {
		if err := p.global.Wait(req.Context()); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(req.Context(), sendTimeout)
	resp, err := p.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return resp, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	if after, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64); err == nil {
		resp.Header.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after+resetMargin.Seconds(), 'f', 3, 64))
	}
	return resp, nil
}

// cancelOnClose is a response body that ends its call's timeout when
// closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// interactionEndpoint says a path is one of the interaction endpoints
// (an interaction's callback, its reply and follow-ups through the
// application's webhook), which Discord does not bind to the global
// limit. The bot uses no other webhook.
func interactionEndpoint(path string) bool {
	return strings.Contains(path, "/interactions/") || strings.Contains(path, "/webhooks/")
}
