package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIBase is Discord's own REST API.
const DefaultAPIBase = "https://discord.com/"

// APIVersion is the REST and gateway version the bot speaks: v10, Discord's
// current (discordgo v0.29 defaults to v9, which Discord deprecates).
const APIVersion = "10"

// The gateway's version is read when a session connects; REST paths,
// which discordgo builds once with its own, are rewritten by APIBase.
func init() { discordgo.APIVersion = APIVersion }

// APIBase returns an HTTP transport, paced under Discord's global rate
// limit, that sends the REST calls discordgo makes to
// https://discord.com/ to base instead (Discord itself, a REST
// proxy of the kind large bots put in front of Discord to share one rate
// limit across processes, or a local fake in tests), on API v10: the
// /api/vN/ part discordgo wrote becomes /api/v10/, after base's own path.
func APIBase(base string, next http.RoundTripper) (*Transport, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the Discord API base %q is not an http(s) URL", base)
	}
	if next == nil {
		next = http.DefaultTransport
	}
	p := pace(next)
	return &Transport{to: u, pace: p, next: p, meter: noMeter{}}, nil
}

// Transport is the bot's way to Discord's REST API (see APIBase).
type Transport struct {
	to    *url.URL
	pace  *paced
	next  http.RoundTripper
	meter Meter
}

// ShareGlobalLimit paces this process at its share of the bot's global
// limit, which Discord counts per bot: running shards of count, it
// takes shards/count of it (all of it by default).
func (r *Transport) ShareGlobalLimit(shards, count int) { r.pace.share(shards, count) }

func (r *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != "discord.com" {
		return r.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme, u.Host = r.to.Scheme, r.to.Host
	u.Path = strings.TrimSuffix(r.to.Path, "/") + currentVersion(req.URL.Path)
	if req.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(r.to.Path, "/") + currentVersion(req.URL.RawPath)
	}
	out.URL, out.Host = &u, u.Host
	resp, err := r.next.RoundTrip(out)
	status := 0
	if err == nil {
		status = resp.StatusCode
	}
	r.meter.Requested(route(out), status)
	return resp, err
}

// currentVersion rewrites an /api/vN/ path to APIVersion's.
func currentVersion(path string) string {
	rest, ok := strings.CutPrefix(path, "/api/v")
	if !ok {
		return path
	}
	if i := strings.IndexByte(rest, '/'); i > 0 {
		return "/api/v" + APIVersion + rest[i:]
	}
	return path
}
