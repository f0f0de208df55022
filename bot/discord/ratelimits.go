package discord

// This file is Discord's rate limits as the transport keeps them, instead
// of discordgo: discordgo sleeps until a bucket's reset and through a 429's
// retry_after with time.Sleep, deaf to the caller's context, so one 429
// asking for minutes (thread starts: 219 s in discord-api-docs#7816, 280 s
// in other field reports of 2026) held an Accept for minutes and a
// shutdown with it. Here a wait is bounded by the caller's context, by
// maxWait and by Close; a wait that cannot be afforded fails at once with
// *ratelimit.RetryLater, which the caller turns into something else to do.
//
// The rules read (developers/topics/rate-limits): a route's bucket counts
// per top-level resource (channel, server, webhook with its token), is
// named by X-RateLimit-Bucket and told by X-RateLimit-Remaining and
// X-RateLimit-Reset-After on every answer; a 429 carries retry_after (JSON
// body) and X-RateLimit-Scope (user, global or shared), and with
// X-RateLimit-Global it holds every request bound to the global limit.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/bot/ratelimit"
)

// maxWait is the longest the transport waits for a bucket or a 429 before
// sending: longer, and the caller hears ratelimit.RetryLater at once. discordgo
// holds its own lock of the route while the transport waits, so a long
// wait here would hold every other call of the route, whatever their
// contexts allow.
const maxWait = 10 * time.Second

// maxTries is how many times one call is sent when Discord answers 429.
const maxTries = 3

// errClosed is a wait cut short by the transport's Close.
var errClosed = errors.New("discord: the transport is shutting down")

// limits is what Discord's headers told of each bucket.
type limits struct {
	log *slog.Logger

	mu       sync.Mutex
	bucketOf map[string]string   // route → Discord's bucket id
	state    map[string]*limited // bucket (or route) + resource → its state
	global   time.Time           // no globally limited request before this
	closed   chan struct{}
	once     sync.Once
}

// limited is one bucket's state for one resource.
type limited struct {
	remaining int
	reset     time.Time // when remaining no longer holds
	scope     string    // of the 429 that set reset, if one did
}

func newLimits() *limits {
	return &limits{log: slog.Default(), bucketOf: map[string]string{}, state: map[string]*limited{}, closed: make(chan struct{})}
}

// close ends every wait at once, and any later one.
func (l *limits) close() { l.once.Do(func() { close(l.closed) }) }

// call is one REST call as the limits see it.
type call struct {
	route    string // "METHOD /channels/{id}/messages/{id}"
	resource string // the top-level resource's id ("" for none)
	global   bool   // bound to the global limit
}

// callOf reads a call's route and resource from its path (after /api/vN).
func callOf(method, path string) call {
	if i := strings.Index(path, "/api/v"); i >= 0 {
		if j := strings.IndexByte(path[i+6:], '/'); j >= 0 {
			path = path[i+6+j:]
		}
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	c := call{global: !interactionEndpoint(path)}
	var b strings.Builder
	b.WriteString(method + " ")
	for i, p := range parts {
		b.WriteByte('/')
		switch {
		case i == 1 && (parts[0] == "channels" || parts[0] == "guilds" || parts[0] == "webhooks" || parts[0] == "interactions"):
			c.resource = p
			b.WriteString("{resource}")
		case i == 2 && (parts[0] == "webhooks" || parts[0] == "interactions"):
			c.resource += "/" + p // a webhook's (an interaction's) token
			b.WriteString("{token}")
		case isSnowflake(p):
			b.WriteString("{id}")
		default:
			b.WriteString(p)
		}
	}
	c.route = b.String()
	return c
}

// key is the call's bucket for its resource: Discord's bucket id once a
// response has named it, its route until then.
func (l *limits) key(c call) string {
	if id, ok := l.bucketOf[c.route]; ok {
		return id + " " + c.resource
	}
	return c.route + " " + c.resource
}

// wait returns once c may be sent under what the limits know, taking one
// of its bucket's remaining requests; or *ratelimit.RetryLater, at once, when
// that is further off than ctx's deadline, maxWait or what ratelimit.WaitAtMost
// said of ctx; or ctx's error, or errClosed.
func (l *limits) wait(ctx context.Context, c call) error {
	for {
		l.mu.Lock()
		now := time.Now()
		var until time.Time
		scope := "user"
		b := l.state[l.key(c)]
		if b != nil && b.remaining <= 0 && b.reset.After(now) {
			until, scope = b.reset, cmp.Or(b.scope, "user")
		}
		if c.global && l.global.After(now) && l.global.After(until) {
			until, scope = l.global, "global"
		}
		if until.IsZero() {
			if b != nil && b.reset.After(now) {
				b.remaining--
			}
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		after, most := until.Sub(now), maxWait
		if d, ok := ratelimit.MostWait(ctx); ok {
			most = min(most, d)
		}
		if deadline, ok := ctx.Deadline(); after > most || ok && deadline.Before(until) {
			return &ratelimit.RetryLater{After: after, Scope: scope}
		}
		t := time.NewTimer(after)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-l.closed:
			t.Stop()
			return errClosed
		case <-t.C:
		}
	}
}

// tooMany is a 429's body.
type tooMany struct {
	RetryAfter float64 `json:"retry_after"`
	Global     bool    `json:"global"`
	Message    string  `json:"message"`
}

// heard reads an answer's rate limit headers into the limits and hides
// them from discordgo (whose own limiter would otherwise sleep on them).
// For a 429 it logs it and returns how long Discord asked to wait.
func (l *limits) heard(c call, resp *http.Response) (retry *ratelimit.RetryLater) {
	h := resp.Header
	now := time.Now()
	bucket := h.Get("X-RateLimit-Bucket")
	// A 429's body is read, and the 429 logged, outside the lock every
	// call's wait takes.
	var body tooMany
	if resp.StatusCode == http.StatusTooManyRequests {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		_ = json.Unmarshal(raw, &body)
	}
	defer func() {
		if retry != nil {
			l.log.Warn("discord: rate limited (429)", "route", c.route, "resource", c.resource,
				"bucket", bucket, "scope", retry.Scope, "retry_after", retry.After.Round(time.Millisecond),
				"message", body.Message)
		}
	}()
	l.mu.Lock()
	defer l.mu.Unlock()
	if bucket != "" {
		l.bucketOf[c.route] = bucket
	}
	key := l.key(c)
	b := l.state[key]
	if b == nil {
		if len(l.state) >= sweepAt {
			l.sweep(now)
		}
		b = &limited{}
		l.state[key] = b
	}
	remaining, errR := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	after, errA := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
	if errR == nil && errA == nil {
		b.remaining, b.reset, b.scope = remaining, now.Add(seconds(after)+resetMargin), ""
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		wait := seconds(body.RetryAfter)
		if wait <= 0 {
			if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil {
				wait = seconds(s)
			}
		}
		wait = max(wait, time.Millisecond) + resetMargin
		scope := cmp.Or(h.Get("X-RateLimit-Scope"), "user")
		global := body.Global || h.Get("X-RateLimit-Global") != ""
		if global {
			scope = "global"
			l.global = now.Add(wait)
		} else {
			b.remaining, b.reset, b.scope = 0, now.Add(wait), scope
		}
		retry = &ratelimit.RetryLater{After: wait, Scope: scope}
	}
	for k := range h {
		if strings.HasPrefix(k, "X-Ratelimit-") || k == "Retry-After" {
			h.Del(k)
		}
	}
	return retry
}

// sweepAt is how many buckets are kept before those whose reset has
// passed (which hold nothing any more) are let go: every interaction and
// webhook token is a resource of its own, so they would pile up.
const sweepAt = 4096

// sweep lets go of the buckets whose reset has passed; l.mu is held.
func (l *limits) sweep(now time.Time) {
	for k, b := range l.state {
		if !b.reset.After(now) {
			delete(l.state, k)
		}
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// limitedRoundTrip sends one call under the limits: it waits its turn
// (bounded as wait says), sends, reads the headers, and sends again after
// a 429 that can be waited for.
func (l *limits) limitedRoundTrip(req *http.Request, send func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	c := callOf(req.Method, req.URL.Path)
	for try := 1; ; try++ {
		if err := l.wait(req.Context(), c); err != nil {
			return nil, err
		}
		resp, err := send(req)
		if err != nil {
			return nil, err
		}
		retry := l.heard(c, resp)
		if retry == nil {
			return resp, nil
		}
		resp.Body.Close()
		if try == maxTries || req.Body != nil && req.GetBody == nil {
			return nil, retry
		}
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, retry
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}
