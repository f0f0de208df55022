package discord

// This file receives interactions over HTTP, as Discord posts them to a
// bot's Interactions Endpoint URL instead of the gateway: each request's
// Ed25519 signature is checked before anything is parsed, PING is
// answered, and every other interaction goes through the same service as
// those from the gateway, its first response being the HTTP answer.

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Limits of the endpoint.
const (
	// maxInteractionBody bounds a request body; Discord's are a few KB.
	maxInteractionBody = 1 << 20
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
	a   *Adapter
	key ed25519.PublicKey
	now func() time.Time

	mu   sync.Mutex
	seen map[string]time.Time // interaction ids answered lately
}

// Endpoint returns the adapter's HTTP interactions endpoint for the
// application's public key.
func (a *Adapter) Endpoint(key ed25519.PublicKey) *Endpoint {
	return &Endpoint{a: a, key: key, now: time.Now, seen: map[string]time.Time{}}
}

func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST interactions here", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxInteractionBody)
	// The signature first: nothing of an unsigned request is read.
	if !discordgo.VerifyInteraction(r, e.key) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	ts, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
	if err != nil || e.now().Sub(time.Unix(ts, 0)).Abs() > signatureAge {
		http.Error(w, "stale request timestamp", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	if !e.first(i.ID) {
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
		e.a.process(&i, respond)
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

// first records an interaction id and says whether it is new; ids older
// than the signature age are forgotten (their requests fail the age check).
func (e *Endpoint) first(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	if len(e.seen) > 10000 {
		for k, t := range e.seen {
			if now.Sub(t) > 2*signatureAge {
				delete(e.seen, k)
			}
		}
	}
	if _, dup := e.seen[id]; dup {
		return false
	}
	e.seen[id] = now
	return true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
