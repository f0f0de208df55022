package discord

import (
	"fmt"
	"log/slog"
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
// which discordgo builds once with its own, are rewritten by APIBase, and
// its endpoint strings are set to v10 here too, so that an error naming
// a URL names the version actually called.
func init() {
	discordgo.APIVersion = APIVersion
	old := strings.TrimSuffix(discordgo.EndpointAPI, "/")
	now := discordgo.EndpointDiscord + "api/v" + APIVersion
	for _, e := range []*string{&discordgo.EndpointAPI, &discordgo.EndpointGuilds, &discordgo.EndpointChannels,
		&discordgo.EndpointUsers, &discordgo.EndpointGateway, &discordgo.EndpointGatewayBot, &discordgo.EndpointWebhooks,
		&discordgo.EndpointStickers, &discordgo.EndpointStageInstances, &discordgo.EndpointSKUs, &discordgo.EndpointVoice,
		&discordgo.EndpointVoiceRegions, &discordgo.EndpointNitroStickersPacks, &discordgo.EndpointGuildCreate,
		&discordgo.EndpointApplications, &discordgo.EndpointOAuth2} {
		*e = strings.Replace(*e, old, now, 1)
	}
}

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
	return &Transport{to: u, pace: p, next: p, meter: noMeter{}, limits: newLimits()}, nil
}

// Transport is the bot's way to Discord's REST API (see APIBase).
type Transport struct {
	to     *url.URL
	pace   *paced
	next   http.RoundTripper
	meter  Meter
	limits *limits
}

// SetLogger sets where rate limits (every 429) are logged.
func (r *Transport) SetLogger(l *slog.Logger) { r.limits.log = l }

// Close ends every wait for a rate limit at once, and any later one (the
// call fails): a shutdown does not wait for Discord's buckets.
func (r *Transport) Close() { r.limits.close() }

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
	resp, err := r.limits.limitedRoundTrip(out, func(req *http.Request) (*http.Response, error) {
		resp, err := r.next.RoundTrip(req)
		status := 0
		if err == nil {
			status = resp.StatusCode
		}
		r.meter.Requested(route(req), status)
		if err != nil && r.to.String() != DefaultAPIBase {
			// discordgo's error names discord.com; say where it went.
			err = fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), err)
		}
		return resp, err
	})
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
