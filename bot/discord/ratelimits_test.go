package discord

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/bot/ratelimit"
)

// discordAnswer answers as Discord does over a limit or within it.
func discordAnswer(status int, remaining, resetAfter, retryAfter, scope string) *http.Response {
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", "abcd")
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", remaining)
	h.Set("X-RateLimit-Reset-After", resetAfter)
	body := "{}"
	if status == http.StatusTooManyRequests {
		h.Set("Retry-After", retryAfter)
		h.Set("X-RateLimit-Scope", scope)
		body = `{"message": "You are being rate limited.", "retry_after": ` + retryAfter + `, "global": false}`
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

func post(t *testing.T, rt http.RoundTripper, ctx context.Context, path string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://discord.com/api/v10"+path, bytes.NewBufferString(`{"name":"x"}`))
	return rt.RoundTrip(req)
}

// A 429 asking for minutes (thread starts, as field reports show) is not
// slept through: the call fails at once with RetryLater, is logged with its
// route, bucket, scope and wait, and the next call of the same bucket does
// not go to Discord at all until it lifts; another channel's does.
func TestLongRateLimitFailsFast(t *testing.T) {
	var sent atomic.Int32
	rt, _ := APIBase("https://discord.com/", roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		if strings.Contains(r.URL.Path, "/channels/1/") {
			return discordAnswer(429, "0", "240", "240", "shared"), nil
		}
		return discordAnswer(201, "4", "1", "", ""), nil
	}))
	var log bytes.Buffer
	rt.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
	start := time.Now()
	_, err := post(t, rt, context.Background(), "/channels/1/threads")
	var later *ratelimit.RetryLater
	if !errors.As(err, &later) || later.After < 239*time.Second || later.Scope != "shared" {
		t.Fatalf("a 240 s 429: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the 429 held the call %v", took)
	}
	for _, want := range []string{"route=\"POST /channels/{resource}/threads\"", "bucket=abcd", "scope=shared", "retry_after=4m0"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the 429's log line lacks %s: %s", want, log.String())
		}
	}
	if _, err := post(t, rt, context.Background(), "/channels/1/threads"); !errors.As(err, &later) || sent.Load() != 1 {
		t.Fatalf("again within the wait: %v, %d sent", err, sent.Load())
	}
	resp, err := post(t, rt, context.Background(), "/channels/2/threads")
	if err != nil || sent.Load() != 2 {
		t.Fatalf("another channel: %v, %d sent", err, sent.Load())
	}
	// discordgo must not see the headers: its limiter sleeps on them.
	for k := range resp.Header {
		if strings.HasPrefix(k, "X-Ratelimit") || k == "Retry-After" {
			t.Errorf("header %s reached discordgo", k)
		}
	}
}

// A short 429 is waited for and the call sent again, body and all; a call
// whose context ends sooner than the wait fails at once.
func TestShortRateLimitIsWaitedFor(t *testing.T) {
	var sent atomic.Int32
	var bodies []string
	var mu sync.Mutex
	rt, _ := APIBase("https://discord.com/", roundTripFunc(func(r *http.Request) (*http.Response, error) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if sent.Add(1) == 1 {
			return discordAnswer(429, "0", "0.3", "0.3", "user"), nil
		}
		return discordAnswer(200, "4", "1", "", ""), nil
	}))
	rt.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := post(t, rt, context.Background(), "/channels/1/messages"); err != nil || sent.Load() != 2 {
		t.Fatalf("after a 0.3 s 429: %v, %d sent", err, sent.Load())
	}
	if bodies[1] != `{"name":"x"}` {
		t.Fatalf("the retry's body %q", bodies[1])
	}

	sent.Store(0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var later *ratelimit.RetryLater
	if _, err := post(t, rt, ctx, "/channels/7/messages"); !errors.As(err, &later) || sent.Load() != 1 {
		t.Fatalf("a 0.3 s 429 with 0.1 s to spare: %v, %d sent", err, sent.Load())
	}
}

// Close ends a wait at once: a shutdown does not sit out a bucket.
func TestCloseEndsAWait(t *testing.T) {
	rt, _ := APIBase("https://discord.com/", roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return discordAnswer(200, "0", "8", "", ""), nil
	}))
	if _, err := post(t, rt, context.Background(), "/channels/1/messages"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := post(t, rt, context.Background(), "/channels/1/messages")
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	rt.Close()
	select {
	case err := <-done:
		if !errors.Is(err, errClosed) {
			t.Fatalf("after Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the wait for the bucket")
	}
}

func TestCallOf(t *testing.T) {
	for path, want := range map[string]call{
		"/api/v10/channels/123/messages/456":             {route: "PATCH /channels/{resource}/messages/{id}", resource: "123", global: true},
		"/api/v10/webhooks/11/tok/messages/@original":    {route: "PATCH /webhooks/{resource}/{token}/messages/@original", resource: "11/tok"},
		"/api/v10/interactions/22/tok/callback":          {route: "PATCH /interactions/{resource}/{token}/callback", resource: "22/tok"},
		"/api/v10/guilds/9/members/8/roles/7":            {route: "PATCH /guilds/{resource}/members/{id}/roles/{id}", resource: "9", global: true},
		"/api/v10/applications/5/guilds/9/commands":      {route: "PATCH /applications/{id}/guilds/{id}/commands", global: true},
		"/discord/api/v10/channels/123/threads":          {route: "PATCH /channels/{resource}/threads", resource: "123", global: true},
		"/api/v10/applications/5/commands/6/permissions": {route: "PATCH /applications/{id}/commands/{id}/permissions", global: true},
	} {
		if got := callOf(http.MethodPatch, path); got != want {
			t.Errorf("%s: %+v, want %+v", path, got, want)
		}
	}
}

// Every interaction is a bucket of its own: those whose reset has passed
// are let go, so the state does not grow with the interactions answered.
func TestBucketsAreLetGo(t *testing.T) {
	rt, _ := APIBase("https://discord.com/", roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return discordAnswer(204, "4", "0.001", "", ""), nil
	}))
	for i := range 3 * sweepAt {
		if _, err := post(t, rt, context.Background(), "/interactions/"+strconv.Itoa(1000+i)+"/token/callback"); err != nil {
			t.Fatal(err)
		}
	}
	rt.limits.mu.Lock()
	n := len(rt.limits.state)
	rt.limits.mu.Unlock()
	if n > sweepAt+1 {
		t.Fatalf("%d buckets kept after %d interactions", n, 3*sweepAt)
	}
}
