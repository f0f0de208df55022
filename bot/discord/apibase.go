package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// DefaultAPIBase is Discord's own REST API.
const DefaultAPIBase = "https://discord.com/"

// APIBase returns an HTTP transport that sends the REST calls discordgo
// makes to https://discord.com/ to base instead: a REST proxy of the kind
// large bots put in front of Discord (to share one rate limit across
// processes), or a local fake in tests. Paths keep their /api/vN/ part,
// after base's own path.
func APIBase(base string, next http.RoundTripper) (http.RoundTripper, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the Discord API base %q is not an http(s) URL", base)
	}
	if next == nil {
		next = http.DefaultTransport
	}
	return &rebase{to: u, next: next}, nil
}

type rebase struct {
	to   *url.URL
	next http.RoundTripper
}

func (r *rebase) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != "discord.com" {
		return r.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme, u.Host = r.to.Scheme, r.to.Host
	u.Path = strings.TrimSuffix(r.to.Path, "/") + req.URL.Path
	if req.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(r.to.Path, "/") + req.URL.RawPath
	}
	out.URL, out.Host = &u, u.Host
	return r.next.RoundTrip(out)
}
