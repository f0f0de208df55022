package discordtest

// This file is the fake's HTTP interactions: with an endpoint set, the
// fake posts each interaction to it signed with the application's Ed25519
// key, as Discord does for an Interactions Endpoint URL, and takes the
// endpoint's answer as the interaction's first response.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// UseEndpoint makes the fake post interactions to url instead of the
// gateway, and returns the application's public key to verify them with.
func (s *Server) UseEndpoint(url string) ed25519.PublicKey {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	s.endpoint, s.signingKey = url, priv
	s.mu.Unlock()
	return pub
}

// Sign signs a body at a time as Discord does: the headers to send it with.
func Sign(key ed25519.PrivateKey, at time.Time, body []byte) http.Header {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	h := http.Header{}
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	h.Set("X-Signature-Timestamp", ts)
	h.Set("Content-Type", "application/json")
	return h
}

// poster is how the fake posts interactions: with connections kept open
// between posts, as Discord's own are (a load test's thousands of posts
// would otherwise each open one).
var poster = &http.Client{Timeout: AckLimit + time.Second,
	Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: 90 * time.Second}}

// post delivers one interaction to the endpoint and applies its answer.
func (s *Server) post(ia *Interaction, payload map[string]any) {
	s.mu.Lock()
	url, key := s.endpoint, s.signingKey
	s.mu.Unlock()
	body, _ := json.Marshal(payload)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		s.violation("building an interaction request: %v", err)
		return
	}
	req.Header = Sign(key, time.Now(), body)
	resp, err := poster.Do(req)
	if err != nil {
		s.violation("posting interaction %s to the endpoint: %v", ia.ID, err)
		return
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		s.violation("the endpoint answered interaction %s with %d: %s", ia.ID, resp.StatusCode, data)
		return
	}
	var answer map[string]any
	if err := json.Unmarshal(data, &answer); err != nil {
		s.violation("the endpoint's answer to interaction %s is not JSON: %s", ia.ID, data)
		return
	}
	if _, aerr := s.callback(ia.ID, ia.Token, answer, nil); aerr != nil {
		s.violation("the endpoint's answer to interaction %s: %s", ia.ID, aerr.msg)
	}
}

// SignAs signs a body with the application's key at a time, for tests
// that send their own requests to the endpoint.
func (s *Server) SignAs(at time.Time, body []byte) http.Header {
	s.mu.Lock()
	key := s.signingKey
	s.mu.Unlock()
	return Sign(key, at, body)
}
