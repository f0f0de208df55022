package discord

// This file is where a gateway session resumes: Discord's READY names a
// resume_gateway_url, and a resume goes there ("Resuming", Gateway docs),
// not to the address the session was first opened on. discordgo v0.29
// keeps no such address and resumes on the first one, so the session's
// dialer sends the connection there instead, naming that server in the
// opening request.

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Gateway is one gateway session's way to Discord: its dialer and where
// it resumes.
type Gateway struct {
	proxy func(*http.Request) (*url.URL, error)

	mu     sync.Mutex
	resume *url.URL // the last READY's resume_gateway_url
}

// NewGateway returns the way for one session, through proxy (nil: none).
func NewGateway(proxy func(*http.Request) (*url.URL, error)) *Gateway {
	return &Gateway{proxy: proxy}
}

// Event is the session's handler of raw events: a READY's
// resume_gateway_url is where its later connections go.
func (g *Gateway) Event(_ *discordgo.Session, e *discordgo.Event) {
	if e.Type != "READY" {
		return
	}
	var ready struct {
		ResumeURL string `json:"resume_gateway_url"`
	}
	if json.Unmarshal(e.RawData, &ready) != nil || ready.ResumeURL == "" {
		return
	}
	u, err := url.Parse(ready.ResumeURL)
	if err != nil || u.Host == "" {
		return
	}
	g.mu.Lock()
	g.resume = u
	g.mu.Unlock()
}

// ResumeURL is where the session resumes ("" before its first READY).
func (g *Gateway) ResumeURL() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.resume == nil {
		return ""
	}
	return g.resume.String()
}

// target is the address a connection dials, and the Host its opening
// request names ("" to leave it): addr before the first READY, the resume
// address (with port, defaulting to port) after.
func (g *Gateway) target(addr, port string) (string, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.resume == nil {
		return addr, ""
	}
	p := g.resume.Port()
	if p == "" {
		p = port
	}
	return net.JoinHostPort(g.resume.Hostname(), p), g.resume.Host
}

// withHost returns an HTTP request's opening bytes with its Host header
// naming host; false if b does not hold one.
func withHost(b []byte, host string) ([]byte, bool) {
	if !bytes.HasPrefix(b, []byte("GET ")) {
		return nil, false
	}
	start := bytes.Index(b, []byte("\r\nHost: "))
	if start < 0 {
		return nil, false
	}
	start += len("\r\nHost: ")
	end := bytes.Index(b[start:], []byte("\r\n"))
	if end < 0 {
		return nil, false
	}
	out := append(append(append([]byte{}, b[:start]...), host...), b[start+end:]...)
	return out, true
}
