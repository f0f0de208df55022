package discordtest

// This file is the fake's rate limits, as Discord documents them
// (developers/topics/rate-limits): per-route buckets, counted per
// top-level resource (a channel, a server, a webhook with its token) and
// named by X-RateLimit-Bucket; a global limit of 50 requests a second per
// bot, which interaction endpoints are not bound to; the X-RateLimit-*
// headers on every answer; and over a limit, 429 with Retry-After and a
// JSON body {message, retry_after, global}, X-RateLimit-Scope saying
// which limit it was. Discord does not publish each route's numbers ("rate
// limits should not be hard coded"), so the ones here are the fake's own,
// from what Discord has long answered with (5 messages per 5 s in a
// channel); a client that reads the headers, as it must, keeps under any.
// Every 429 is a violation: Discord counts them as invalid requests.

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// GlobalLimit is the requests a bot may make in one second, interaction
// endpoints aside.
const GlobalLimit = 50

// RateLimit is one bucket's allowance: Limit requests each Per.
type RateLimit struct {
	Limit int
	Per   time.Duration
}

// The fake's per-route limits (see the file's comment).
var (
	messagePosts = RateLimit{5, 5 * time.Second}
	messageEdits = RateLimit{5, 5 * time.Second}
	followUps    = RateLimit{5, 2 * time.Second}
	otherRoutes  = RateLimit{10, time.Second}
)

// ThreadStarts is how many threads may be started off one channel: the
// route default. Assumed: Discord publishes no figure for it.
var ThreadStarts = otherRoutes

// threadLimit is the server-wide limit on thread starts that field
// reports show and Discord does not publish: POST /channels/{id}/threads
// answered 429 with X-RateLimit-Scope "shared" and a retry_after of
// minutes (219 s in discord-api-docs#7816, 2025-09-06; 280 s in reports of
// 2026-08), on any channel of the server. How many starts set it off is
// assumed (the test chooses).
type threadLimit struct {
	limit      int           // starts allowed per window
	window     time.Duration // counted over
	retryAfter time.Duration // the wait a 429 asks, from the first
	starts     []time.Time   // the server's recent starts
	until      time.Time     // 429s until then
}

// RefuseNext answers the next request of route ("METHOD /path" with ids
// as {id}, as Requests names them) 429 with X-RateLimit-Scope "shared"
// and retryAfter: Discord's limits are dynamic ("rate limits should not be
// hard coded"), and a shared one can fall on any call, however well the
// bot keeps to its buckets.
func (s *Server) RefuseNext(route string, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rates.refuse == nil {
		s.rates.refuse = map[string]time.Duration{}
	}
	s.rates.refuse[route] = retryAfter
}

// LimitThreadStarts makes thread starts on the server beyond limit within
// window answered 429 (scope shared) for retryAfter, as field reports show
// Discord doing; limit 0 refuses the next start.
func (s *Server) LimitThreadStarts(limit int, window, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rates.threads = &threadLimit{limit: limit, window: window, retryAfter: retryAfter}
}

// threadStartLimited answers 429 (true) for a thread start over the
// server's limit; s.mu is held. A shared-scope 429 is not the bot's
// fault ("shared" limits do not count toward invalid requests), so it is
// no violation; asking again within the wait is.
func (s *Server) threadStartLimited(w http.ResponseWriter, r *http.Request, now time.Time) bool {
	tl := s.rates.threads
	if tl == nil {
		return false
	}
	if now.Before(tl.until) {
		s.tooMany(w, r, "shared", tl.until.Sub(now), false)
		s.violations = append(s.violations, fmt.Sprintf("%s %s: asked again within a shared 429's retry_after", r.Method, r.URL.Path))
		return true
	}
	cut := 0
	for cut < len(tl.starts) && now.Sub(tl.starts[cut]) >= tl.window {
		cut++
	}
	tl.starts = tl.starts[cut:]
	if len(tl.starts) >= tl.limit {
		tl.until = now.Add(tl.retryAfter)
		s.tooMany(w, r, "shared", tl.retryAfter, false)
		return true
	}
	tl.starts = append(tl.starts, now)
	return false
}

// bucket is one route's count for one top-level resource, in fixed windows
// from the first request of each.
type bucket struct {
	RateLimit
	id    string // X-RateLimit-Bucket: the route, without the resource
	start time.Time
	used  int
}

// rateState is the fake's counts.
type rateState struct {
	buckets map[string]*bucket       // route + resource
	global  []time.Time              // the requests of the last second that count globally
	peak    int                      // the most global requests seen in one second
	limited []string                 // every 429, as "scope METHOD path"
	threads *threadLimit             // the server's thread starts (one server's)
	refuse  map[string]time.Duration // RefuseNext's routes
	counts  map[string]int           // requests by route
}

// routeLimit names the bucket of a request (path p, after /api/vN) and
// its top-level resource, its limit, and whether it is an interaction
// endpoint (not bound to the global limit).
func (s *Server) routeLimit(method string, p []string) (route, resource string, limit RateLimit, interaction bool) {
	switch {
	case len(p) >= 3 && p[0] == "interactions":
		return method + " /interactions/{id}/{token}/callback", p[1], otherRoutes, true
	case len(p) >= 3 && p[0] == "webhooks":
		// An interaction's follow-ups and reply: the webhook with its token.
		return method + " /webhooks/{id}/{token}" + tail(p[3:]), p[1] + "/" + p[2], followUps, p[1] == s.AppID
	case len(p) >= 3 && p[0] == "channels" && p[2] == "messages":
		if len(p) == 3 && method == http.MethodPost {
			return "POST /channels/{id}/messages", p[1], messagePosts, false
		}
		return method + " /channels/{id}/messages/{message}", p[1], messageEdits, false
	case len(p) >= 3 && p[0] == "channels" && p[2] == "threads":
		return method + " /channels/{id}/threads", p[1], ThreadStarts, false
	case len(p) >= 2 && (p[0] == "channels" || p[0] == "guilds"):
		return method + " /" + p[0] + "/{id}" + tail(p[2:]), p[1], otherRoutes, false
	}
	for i := 0; i+1 < len(p); i++ {
		if p[i] == "guilds" { // a server further in the path: still its own
			return method + " /" + tail(p)[1:], p[i+1], otherRoutes, false
		}
	}
	return method + " /" + tail(p)[1:], "", otherRoutes, false
}

// tail is a path's remaining parts with ids as {id}.
func tail(p []string) string {
	out := ""
	for _, part := range p {
		if _, err := strconv.ParseUint(part, 10, 64); err == nil {
			part = "{id}"
		}
		out += "/" + part
	}
	if out == "" {
		return "/"
	}
	return out
}

// rateLimited counts a request against its bucket and the global limit,
// sets the rate limit headers, and answers 429 (true) when it is over
// either.
func (s *Server) rateLimited(w http.ResponseWriter, r *http.Request, p []string) bool {
	route, resource, limit, interaction := s.routeLimit(r.Method, p)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := &s.rates
	if rs.buckets == nil {
		rs.buckets, rs.counts = map[string]*bucket{}, map[string]int{}
	}
	rs.counts[route]++
	if !interaction {
		cut := 0
		for cut < len(rs.global) && now.Sub(rs.global[cut]) >= time.Second {
			cut++
		}
		rs.global = rs.global[cut:]
		if len(rs.global) >= GlobalLimit {
			wait := rs.global[0].Add(time.Second).Sub(now)
			s.tooMany(w, r, "global", wait, true)
			return true
		}
	}
	if wait, ok := rs.refuse[route]; ok {
		delete(rs.refuse, route)
		s.tooMany(w, r, "shared", wait, false)
		return true
	}
	if route == "POST /channels/{id}/threads" && s.threadStartLimited(w, r, now) {
		return true
	}
	b := rs.buckets[route+" "+resource]
	if b == nil {
		sum := sha1.Sum([]byte(route))
		b = &bucket{RateLimit: limit, id: hex.EncodeToString(sum[:8])}
		rs.buckets[route+" "+resource] = b
	}
	if now.Sub(b.start) >= b.Per {
		b.start, b.used = now, 0
	}
	reset := b.start.Add(b.Per)
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.Limit))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(reset.Sub(now).Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", b.id)
	if b.used >= b.Limit {
		h.Set("X-RateLimit-Remaining", "0")
		s.tooMany(w, r, "user", reset.Sub(now), false)
		return true
	}
	b.used++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, b.Limit-b.used)))
	if !interaction {
		rs.global = append(rs.global, now)
		rs.peak = max(rs.peak, len(rs.global))
	}
	return false
}

// tooMany answers 429 as Discord does; s.mu is held.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, scope string, wait time.Duration, global bool) {
	s.rates.limited = append(s.rates.limited, scope+" "+r.Method+" "+r.URL.Path)
	if scope != "shared" {
		s.violations = append(s.violations, fmt.Sprintf("%s %s: 429, over the %s rate limit", r.Method, r.URL.Path, scope))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	h.Set("X-RateLimit-Scope", scope)
	if global {
		h.Set("X-RateLimit-Global", "true")
	}
	w.WriteHeader(http.StatusTooManyRequests)
	json.NewEncoder(w).Encode(map[string]any{"message": "You are being rate limited.", "retry_after": math.Round(wait.Seconds()*1000) / 1000, "global": global})
}

// RateLimited lists every request answered 429, as "scope METHOD path".
func (s *Server) RateLimited() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rates.limited...)
}

// PeakPerSecond is the most requests bound to the global limit the bot
// made within one second.
func (s *Server) PeakPerSecond() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rates.peak
}

// Requests counts the requests made of each route (as "METHOD /path" with
// ids as {id}).
func (s *Server) Requests() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.rates.counts {
		out[k] = v
	}
	return out
}
