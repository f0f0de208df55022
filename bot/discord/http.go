package discord

// This file receives interactions over HTTP, as Discord posts them to a
// bot's Interactions Endpoint URL instead of the gateway: each request's
// Ed25519 signature is checked before anything is parsed, PING is
// answered, and every other interaction goes through the same service as
// those from the gateway, its first response being the HTTP answer.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Limits of the endpoint. An interaction's body is a few KB; the largest,
// a button on a game message, carries that message (at most 2,000
// characters of content, 6,000 of embed and 25 menu options), well under
// 64 KB of JSON.
const (
	// maxInteractionBody bounds a request body.
	maxInteractionBody = 128 << 10
	// maxReading bounds the bodies being read at once: memory stays within
	// maxReading x maxInteractionBody whatever arrives, and a request over
	// the cap is refused at once, unread.
	maxReading = 128
	// maxConcurrent bounds the requests being answered at once. A request
	// takes one only once its whole body is in, so bodies that trickle in
	// (or never come) hold no slot a signed interaction needs.
	maxConcurrent = 128
	// bodyTime is how long a request's body may take to arrive; Discord
	// sends it at once, a stalled one is cut.
	bodyTime = 2 * time.Second
	// PerAddress and Connections cap the endpoint's connections from one
	// address and in all (connlimit): more are closed unread.
	PerAddress  = 64
	Connections = 1024
	// signatureAge is how far a request's signed timestamp may be from
	// now: an older request, even correctly signed, is a replay.
	signatureAge = 5 * time.Minute
	// firstResponseTime is how long the endpoint waits for the
	// interaction's first response before it acknowledges it itself:
	// Discord gives up after 3 seconds.
	firstResponseTime = 2500 * time.Millisecond
)

// ParsePublicKey reads the application's public key as the developer
// portal shows it (64 hex digits).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("the public key must be %d hex digits", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// SeenInteractions remembers interaction ids where every process sharing
// the database sees them, so a replayed request is refused by all of them,
// before and after a restart.
type SeenInteractions interface {
	FirstSeen(ctx context.Context, id string, at time.Time) (bool, error)
	ForgetSeen(ctx context.Context, before time.Time) error
}

// Endpoint is the HTTP interactions endpoint.
type Endpoint struct {
	a    *Adapter
	key  ed25519.PublicKey
	now  func() time.Time
	seen SeenInteractions
	log  *slog.Logger

	reading   chan struct{} // one per body being read
	slots     chan struct{} // one per request being answered
	bodyTime  time.Duration
	forgotten atomic.Int64 // unix seconds of the last ForgetSeen
}

// Endpoint returns the adapter's HTTP interactions endpoint for the
// application's public key, remembering interactions in seen.
func (a *Adapter) Endpoint(key ed25519.PublicKey, seen SeenInteractions) *Endpoint {
	return &Endpoint{a: a, key: key, now: time.Now, seen: seen, log: a.log, reading: make(chan struct{}, maxReading),
		slots: make(chan struct{}, maxConcurrent), bodyTime: bodyTime}
}

// NewServer is the HTTP server for the endpoint: the whole request, not
// only its header, has a deadline, and idle connections are closed.
// Discord sends a request's header and body at once: 2 s is plenty.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 15 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
}

func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST interactions here", http.StatusMethodNotAllowed)
		return
	}
	if r.ContentLength > maxInteractionBody {
		w.Header().Set("Connection", "close")
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	busy := func() {
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many requests at once", http.StatusServiceUnavailable)
	}
	// The body first, under its deadline, holding only a reader's place.
	select {
	case e.reading <- struct{}{}:
	default:
		busy()
		return
	}
	body, status := e.readBody(w, r)
	<-e.reading
	if status != 0 {
		w.Header().Set("Connection", "close")
		http.Error(w, http.StatusText(status), status)
		return
	}
	select {
	case e.slots <- struct{}{}:
		defer func() { <-e.slots }()
	default:
		busy()
		return
	}
	// The signature first: nothing of an unsigned request is parsed.
	ts := r.Header.Get("X-Signature-Timestamp")
	if !e.verify(r.Header.Get("X-Signature-Ed25519"), ts, body) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || e.now().Sub(time.Unix(sec, 0)).Abs() > signatureAge {
		http.Error(w, "stale request timestamp", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	switch first, err := e.first(r.Context(), i.ID); {
	case err != nil:
		e.log.Error("recording an interaction", "interaction", i.ID, "err", err)
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	case !first:
		// Discord sends an interaction once: a second copy is a replay.
		http.Error(w, "interaction already received", http.StatusUnauthorized)
		return
	}
	first := make(chan *discordgo.InteractionResponse, 1)
	sent := make(chan struct{})
	respond := func(ctx context.Context, resp *discordgo.InteractionResponse) error {
		select {
		case first <- resp:
		default: // the endpoint acknowledged for it already
		}
		select {
		case <-sent: // the HTTP answer is out: webhook calls may follow
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	e.a.inflight.Add(1)
	go func() {
		defer e.a.inflight.Done()
		e.a.process(&i, body, respond)
	}()
	var resp *discordgo.InteractionResponse
	select {
	case resp = <-first:
	case <-time.After(firstResponseTime):
		// Too slow to say even how it will answer: acknowledge for it; its
		// answer follows by webhook as usual.
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
		if i.Type == discordgo.InteractionMessageComponent {
			resp.Type = discordgo.InteractionResponseDeferredMessageUpdate
		}
	}
	writeJSON(w, resp)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	close(sent)
}

// readBody reads the whole body into one bounded buffer within the body's
// time; a status other than 0 says why it could not.
func (e *Endpoint) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int) {
	if err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(e.bodyTime)); err != nil {
		e.log.Debug("interactions: no read deadline", "err", err)
	}
	// One buffer of the announced size (readers are few: maxReading).
	size := r.ContentLength
	if size < 0 || size > maxInteractionBody {
		size = 4 << 10 // chunked: grow as it comes, within the limit
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	n, err := buf.ReadFrom(io.LimitReader(r.Body, maxInteractionBody+1))
	switch {
	case n > maxInteractionBody:
		return nil, http.StatusRequestEntityTooLarge
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, http.StatusRequestTimeout
	case err != nil:
		return nil, http.StatusBadRequest
	}
	return buf.Bytes(), 0
}

// verify checks Discord's Ed25519 signature of timestamp + body.
func (e *Endpoint) verify(sigHex, ts string, body []byte) bool {
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" {
		return false
	}
	msg := make([]byte, 0, len(ts)+len(body))
	return ed25519.Verify(e.key, append(append(msg, ts...), body...), sig)
}

// first records an interaction id where every process sees it and says
// whether it is new. Now and then it forgets ids older than twice the
// signature age (their requests fail the age check anyway).
func (e *Endpoint) first(ctx context.Context, id string) (bool, error) {
	now := e.now()
	if last := e.forgotten.Load(); now.Unix()-last > int64(time.Minute/time.Second) && e.forgotten.CompareAndSwap(last, now.Unix()) {
		if err := e.seen.ForgetSeen(ctx, now.Add(-2*signatureAge)); err != nil {
			e.log.Warn("forgetting old interactions", "err", err)
		}
	}
	return e.seen.FirstSeen(ctx, id, now)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
