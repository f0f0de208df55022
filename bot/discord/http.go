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
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"
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
	ackAfter  time.Duration // firstResponseTime
	forgotten atomic.Int64  // unix seconds of the last ForgetSeen
}

// Endpoint returns the adapter's HTTP interactions endpoint for the
// application's public key, remembering interactions in seen.
func (a *Adapter) Endpoint(key ed25519.PublicKey, seen SeenInteractions) *Endpoint {
	return &Endpoint{a: a, key: key, now: time.Now, seen: seen, log: a.log, reading: make(chan struct{}, maxReading),
		slots: make(chan struct{}, maxConcurrent), bodyTime: bodyTime, ackAfter: firstResponseTime}
}

// NewServer is the HTTP server for the endpoint: the whole request, not
// only its header, has a deadline, and idle connections are closed.
// Discord sends a request's header and body at once: 2 s is plenty.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 15 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
}

func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now() // Discord's 3 seconds run from about here
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
	i, parts, read, err := decodeInteraction(body)
	if err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	// From here Discord hears within its time whatever the database does:
	// the interaction's id is recorded (a replay refused) beside the
	// fallback timer, not before it, and a slow record only delays the
	// answer, which then follows by webhook.
	a := &ack{first: make(chan *discordgo.InteractionResponse, 1), sent: make(chan struct{})}
	refused := make(chan int, 1)
	taken := make(chan struct{})
	e.a.inflight.Add(1)
	go func() {
		defer e.a.inflight.Done()
		ctx, cancel := context.WithTimeout(context.Background(), e.a.timeout)
		isFirst, with, err := e.first(ctx, i.ID, i.ChannelID)
		cancel()
		if err != nil || !isFirst {
			status := http.StatusUnauthorized // Discord sends an interaction once: a second copy is a replay
			if err != nil {
				e.log.Error("recording an interaction", "interaction", i.ID, "err", err)
				status = http.StatusServiceUnavailable
			}
			refused <- status
			select {
			case <-taken: // refused in the HTTP answer
			case <-a.sent:
				// Acknowledged already: a user waits on an answer.
				if err != nil {
					e.a.respondError(i, a.respond, true)
				}
			}
			return
		}
		pctx := context.Background()
		if with != nil {
			pctx = with(pctx)
		}
		e.a.process(pctx, i, parts, read, arrived, a.respond)
	}()
	timer := time.NewTimer(e.ackAfter - time.Since(arrived))
	defer timer.Stop()
	var resp *discordgo.InteractionResponse
	select {
	case resp = <-a.first:
	case status := <-refused:
		close(taken)
		if status == http.StatusUnauthorized {
			http.Error(w, "interaction already received", status)
		} else {
			http.Error(w, "try again", status)
		}
		return
	case <-timer.C:
		// Too slow to say even how it will answer: acknowledge for it; its
		// answer follows by webhook as usual.
		if resp = a.fallBack(); resp == nil {
			resp = deferredFor(i)
			e.a.meter.Acknowledged(time.Since(arrived))
		}
	}
	writeJSON(w, resp)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	close(a.sent)
}

// ack is the HTTP answer to one interaction: the first response the
// interaction's processing gives, or the endpoint's own acknowledgement if
// that comes too late. Exactly one of them is sent.
type ack struct {
	mu       sync.Mutex
	answered bool // first holds the processing's response
	fell     bool // the endpoint acknowledged for it
	first    chan *discordgo.InteractionResponse
	sent     chan struct{} // closed once the HTTP answer is out
}

// errAcknowledged says the endpoint acknowledged an interaction itself
// before its first response came: that response was not sent, and the
// answer goes by webhook.
var errAcknowledged = errors.New("discord: the interaction was acknowledged already")

// respond is the interaction's responder: the first response becomes the
// HTTP answer unless the endpoint acknowledged first (errAcknowledged).
func (a *ack) respond(ctx context.Context, resp *discordgo.InteractionResponse) error {
	a.mu.Lock()
	switch {
	case a.fell:
		a.mu.Unlock()
		return errAcknowledged
	case !a.answered:
		a.answered = true
		a.first <- resp
	}
	a.mu.Unlock()
	select {
	case <-a.sent: // the HTTP answer is out: webhook calls may follow
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fallBack claims the HTTP answer for the endpoint's acknowledgement; if
// a response came meanwhile it returns that one instead.
func (a *ack) fallBack() *discordgo.InteractionResponse {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.answered {
		return <-a.first
	}
	a.fell = true
	return nil
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

// writeJSON answers with r and its length: the answer then goes out in
// one write when flushed (without the length, a flush before the handler
// returns makes it chunked, and its end a second write).
func writeJSON(w http.ResponseWriter, r *discordgo.InteractionResponse) {
	b, err := encodeResponse(r)
	if err != nil {
		http.Error(w, "could not encode the answer", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}
