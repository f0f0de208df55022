package discord

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// memSeen is the database's seen-interactions table, in memory.
type memSeen struct {
	mu  sync.Mutex
	ids map[string]time.Time
}

func (m *memSeen) FirstSeen(_ context.Context, id string, at time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ids[id]; ok {
		return false, nil
	}
	m.ids[id] = at
	return true, nil
}

func (m *memSeen) ForgetSeen(context.Context, time.Time) error { return nil }

// rss is the process's resident memory, from the kernel.
func rss(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status here")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// An attacker without the key opens 1,000 connections that each send half
// a body and stall, and 1,000 that announce a 1 MB body and send half of it
// (the attack that held 761 MB, and 1.6 GB for a minute, before): the
// process's memory stays within a bound, oversized requests are refused
// unread, and every stalled connection is cut by the body's deadline.
func TestEndpointFloodOfStalledBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 connections: not in -short")
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := New(NewPoster(nil, "app", nil, slog.New(slog.NewTextHandler(io.Discard, nil))), nil, nil)
	e := a.Endpoint(pub, &memSeen{ids: map[string]time.Time{}})
	e.bodyTime = time.Second
	ts := httptest.NewUnstartedServer(e)
	ts.Config = NewServer(e)
	ts.Start()
	defer ts.Close()
	addr := ts.Listener.Addr().String()

	runtime.GC()
	before := rss(t)
	const n = 1000
	half := make([]byte, maxInteractionBody/2)
	big := make([]byte, 512<<10)
	var conns []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			length, body := maxInteractionBody, half
			if i%2 == 1 {
				length, body = 1<<20, big
			}
			// A signature of the right shape, so nothing is refused on
			// its header alone.
			fmt.Fprintf(c, "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Signature-Ed25519: %s\r\n"+
				"X-Signature-Timestamp: %d\r\nContent-Length: %d\r\n\r\n", strings.Repeat("ab", ed25519.SignatureSize), time.Now().Unix(), length)
			c.SetWriteDeadline(time.Now().Add(3 * time.Second))
			c.Write(body) // an oversized one may be cut before it is all written
		})
	}
	wg.Wait()
	time.Sleep(300 * time.Millisecond)
	peak := rss(t)
	t.Logf("RSS %d MB before, %d MB with %d stalled connections open", before>>20, peak>>20, len(conns))
	if grew := peak - before; grew > 64<<20 && !raceDetector {
		t.Errorf("memory grew by %d MB under the flood, want under 64 MB", grew>>20)
	}

	// Every connection gets an answer (413, 503 or 408) or is closed,
	// within the body's deadline and a little.
	codes := map[int]int{}
	start := time.Now()
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		switch {
		case err == nil:
			codes[resp.StatusCode]++
			resp.Body.Close()
		case strings.Contains(err.Error(), "timeout"):
			t.Fatalf("a stalled connection is still open %v after the flood", time.Since(start))
		default:
			codes[0]++ // closed
		}
		c.Close()
	}
	t.Logf("answers: %v (0: closed without one), all within %v", codes, time.Since(start).Round(time.Millisecond))
	if codes[http.StatusRequestEntityTooLarge] < n/2 {
		t.Errorf("oversized bodies were not refused: %v", codes)
	}
}

// APIBase sends discordgo's REST calls to the configured base on API v10,
// whatever version discordgo wrote in the path.
func TestAPIBaseSpeaksV10(t *testing.T) {
	var got string
	rt, err := APIBase("http://proxy.internal/discord/", roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.URL.String()
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "https://discord.com/api/v9/channels/1/messages", nil)
	if _, err := rt.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if got != "http://proxy.internal/discord/api/v10/channels/1/messages" {
		t.Fatalf("sent to %s", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// slowSeen is a seen-interactions table that answers only when released,
// with err: a database that is busy, or down.
type slowSeen struct {
	memSeen
	release chan struct{}
	err     error
}

func (s *slowSeen) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	<-s.release
	if s.err != nil {
		return false, s.err
	}
	return s.memSeen.FirstSeen(ctx, id, at)
}

// signedPost posts body to the endpoint as Discord does, signed with priv.
func signedPost(t *testing.T, e http.Handler, priv ed25519.PrivateKey, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(string(body)))
	req.Header.Set("X-Signature-Ed25519", fmt.Sprintf("%x", ed25519.Sign(priv, append([]byte(ts), body...))))
	req.Header.Set("X-Signature-Timestamp", ts)
	w := httptest.NewRecorder()
	e.ServeHTTP(w, req)
	return w
}

// While the database does not answer, a move posted to the endpoint is
// still acknowledged within Discord's time (before the record of its id
// returns); once the database answers, the move is played and the message
// edited by webhook. A database that fails after the acknowledgement gets
// the user an apology instead of a "thinking…" that never ends.
func TestEndpointAcknowledgesWhileTheDatabaseIsSlow(t *testing.T) {
	for _, failing := range []bool{false, true} {
		h := newHarness(t)
		h.deliver("start.json", nil)
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		seen := &slowSeen{memSeen: memSeen{ids: map[string]time.Time{}}, release: make(chan struct{})}
		if failing {
			seen.err = fmt.Errorf("database is locked")
		}
		e := h.adapter.Endpoint(pub, seen)
		e.ackAfter = 200 * time.Millisecond
		body, err := os.ReadFile("testdata/select.json")
		if err != nil {
			t.Fatal(err)
		}
		w := signedPost(t, e, priv, body)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"type":6`) {
			t.Fatalf("failing %v: the answer while the database is busy: %d %s", failing, w.Code, w.Body)
		}
		if reqs := h.fake.take(); len(reqs) != 0 {
			t.Fatalf("failing %v: requests before the database answered: %+v", failing, reqs)
		}
		close(seen.release)
		h.adapter.inflight.Wait()
		reqs := h.fake.take()
		switch {
		case failing && (len(reqs) != 1 || reqs[0].Method != http.MethodPost || !strings.Contains(jsonOf(reqs[0].Body), "Sorry")):
			t.Errorf("after a failed record: %+v", reqs)
		case !failing && (len(reqs) != 1 || reqs[0].Method != http.MethodPatch || !strings.HasSuffix(reqs[0].Path, "/tok-select/messages/@original") ||
			!strings.Contains(jsonOf(reqs[0].Body), `"custom_id":"move:1:2"`)):
			t.Errorf("the move after the database answered: %+v", reqs)
		}
	}
}

// A command refused at the edge while the database is slow: the endpoint's
// deferral is only-you, and the refusal follows it once the id is recorded.
func TestEndpointRefusalAfterItsDeferral(t *testing.T) {
	h := newHarness(t)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	seen := &slowSeen{memSeen: memSeen{ids: map[string]time.Time{}}, release: make(chan struct{})}
	e := h.adapter.Endpoint(pub, seen)
	e.ackAfter = 200 * time.Millisecond
	data, err := os.ReadFile("testdata/start.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	d := m["data"].(map[string]any)
	d["name"] = "challenge"
	d["options"] = []any{map[string]any{"name": "opponent", "type": 6, "value": "not-a-user"}}
	body, _ := json.Marshal(m)
	w := signedPost(t, e, priv, body)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"type":5`) || !strings.Contains(w.Body.String(), `"flags":64`) {
		t.Fatalf("the deferral: %d %s", w.Code, w.Body)
	}
	close(seen.release)
	h.adapter.inflight.Wait()
	reqs := h.fake.take()
	if len(reqs) != 1 || reqs[0].Method != http.MethodPost || !strings.Contains(jsonOf(reqs[0].Body), "That is not a Discord user") {
		t.Errorf("the refusal after the deferral: %+v", reqs)
	}
}

// The endpoint's answer carries its length, so it leaves in one write
// even though it is flushed before the handler returns (a flushed answer
// of unknown length goes chunked, its end a write of its own).
func TestEndpointAnswerHasItsLength(t *testing.T) {
	h := newHarness(t)
	h.deliver("start.json", nil)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	srv := httptest.NewServer(h.adapter.Endpoint(pub, &memSeen{ids: map[string]time.Time{}}))
	defer srv.Close()
	body, err := os.ReadFile("testdata/select.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/interactions", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Signature-Ed25519", fmt.Sprintf("%x", ed25519.Sign(priv, append([]byte(ts), body...))))
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(resp.TransferEncoding) != 0 || resp.ContentLength != int64(len(got)) || !json.Valid(got) {
		t.Fatalf("answer %d, transfer encoding %v, length %d for %d bytes: %s", resp.StatusCode, resp.TransferEncoding, resp.ContentLength, len(got), got)
	}
	h.adapter.inflight.Wait()
}
