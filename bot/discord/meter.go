package discord

import (
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Meter hears what the Discord side measures for operators (the metrics
// adapter implements it).
type Meter interface {
	// Acknowledged: an interaction's first response went out, took after
	// the adapter received it (Discord allows 3 s).
	Acknowledged(took time.Duration)
	// Requested: one REST attempt (each retry after a 429 is one more), by
	// route with ids and tokens masked, and the status Discord answered (0
	// for none: the call failed on the way).
	Requested(route string, status int)
	// Reconnected: a gateway connection dropped and is being made again.
	Reconnected()
}

type noMeter struct{}

func (noMeter) Acknowledged(time.Duration) {}
func (noMeter) Requested(string, int)      {}
func (noMeter) Reconnected()               {}

// SetMeter makes m hear the adapter's measures.
func (a *Adapter) SetMeter(m Meter) { a.meter = m }

// OnDisconnect counts a dropped gateway connection, which discordgo then
// makes again (a gateway event handler).
func (a *Adapter) OnDisconnect(_ *discordgo.Session, _ *discordgo.Disconnect) { a.meter.Reconnected() }

// SetMeter makes m hear each REST attempt.
func (r *Transport) SetMeter(m Meter) { r.meter = m }

// route is a request's method and path with its ids ({id}) and webhook
// or interaction tokens ({token}) masked, so a metric has few routes:
// "POST /api/v10/channels/{id}/messages".
func route(req *http.Request) string {
	parts := strings.Split(req.URL.Path, "/")
	for i, p := range parts {
		switch {
		case p != "" && strings.Trim(p, "0123456789") == "":
			parts[i] = "{id}"
		case i >= 2 && parts[i-1] == "{id}" && (parts[i-2] == "webhooks" || parts[i-2] == "interactions"):
			parts[i] = "{token}"
		}
	}
	return req.Method + " " + strings.Join(parts, "/")
}
