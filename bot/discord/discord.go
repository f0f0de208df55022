// Package discord connects the bot to Discord through discordgo: it
// registers the slash commands, turns interactions into bot.Requests, and
// delivers the bot.Responses: at once when they are quick, or deferred and
// edited in when the engine may think past Discord's 3-second limit.
package discord

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/place"
)

// Poster is the Discord transport's REST side: the service's Notifier. It
// is made first, the service over it, then the Adapter that takes
// interactions to the service and answers through it.
type Poster struct {
	session *discordgo.Session
	log     *slog.Logger
	memory  Memory

	mu    sync.Mutex
	appID string
	// replies caches the channels where the bot is no member, with their
	// last interaction (see replies.go); the memory keeps them.
	replies map[string]place.Replies
	// noReplies are channels where the bot posts, found without stored
	// reply tokens, and when: see memberChannel.
	noReplies      map[string]time.Time
	sweepNoReplies int // noReplies' size at which its old entries go
}

// Service is what the adapter drives: *bot.Service.
type Service interface {
	Handle(ctx context.Context, req bot.Request) bot.Response
	// Commands are the slash commands to register.
	Commands() []bot.CommandSpec
	Posted(ctx context.Context, channelID string, m *bot.Message, messageID string)
	ChannelDeleted(ctx context.Context, channelID string)
}

// Adapter is the Discord transport's receiving side: interactions (from
// the gateway or over HTTP) and channel deletions, to the service. It
// posts through its Poster, so it is the service's Notifier too.
type Adapter struct {
	*Poster
	svc    Service
	guilds []string
	// timeout bounds the handling of one interaction (Discord keeps an
	// interaction token for 15 minutes).
	timeout time.Duration

	// inflight counts interactions being handled, up to their last reply,
	// so a shutdown can wait for every reply to be sent.
	inflight sync.WaitGroup
	meter    Meter
	// activity says the app's Activity is on: its Entry Point is
	// registered and answered with the Activity.
	activity bool
	// files fetches attached files (attachments.go).
	files *http.Client
}

// Memory keeps small facts between runs (where the commands were
// registered). The store provides it.
type Memory interface {
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
}

// NewPoster returns the REST side over a session. memory may be nil
// (nothing is remembered).
func NewPoster(s *discordgo.Session, appID string, memory Memory, log *slog.Logger) *Poster {
	if log == nil {
		log = slog.Default()
	}
	return &Poster{session: s, appID: appID, memory: memory, log: log, replies: map[string]place.Replies{}, noReplies: map[string]time.Time{}}
}

// New returns the adapter that takes interactions to svc and answers
// through p; guilds are where commands are registered (none: globally).
func New(p *Poster, svc Service, guilds []string) *Adapter {
	return &Adapter{Poster: p, svc: svc, guilds: guilds, timeout: 2 * time.Minute, meter: noMeter{}}
}

// EnableActivity registers the Activity's Entry Point command and
// answers it by launching the Activity (config "activity": true).
func (a *Adapter) EnableActivity() { a.activity = true }

// SetAppID sets the application id commands are registered under and
// replies are edited with (from the Ready event).
func (a *Poster) SetAppID(id string) {
	a.mu.Lock()
	a.appID = id
	a.mu.Unlock()
}

// AppID returns the application id.
func (a *Poster) AppID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.appID
}

// Wait returns once every interaction being handled has had its replies
// sent (or failed): call it after the gateway is closed, before the
// service shuts down.
func (a *Adapter) Wait() { a.inflight.Wait() }
