package bot

// This file is how a capability (tournaments, puzzles, analysis) mounts on
// the core: the entry points of the command table it answers, and what it
// hears of the game flow. The table in commands.go names every entry
// point; a capability only supplies handlers for the ones it owns.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"othello-bot/customid"
	"othello-bot/record"
)

// Handler answers one request at an entry point.
type Handler func(ctx context.Context, req Request) (Response, error)

// Capability is a feature mounted on the core.
type Capability interface {
	// Routes are its handlers by entry point: a command path as
	// LookupCommand takes it ("tournament create") or a component's
	// action with its colon, as custom ids begin ("tjoin:").
	Routes() map[string]Handler
}

// GameEndListener hears of every game that ended, after it is stored and
// after the answer that ended it is shown (see gameends.go).
type GameEndListener interface {
	GameEnded(ctx context.Context, g *record.Game)
}

// GameStartListener hears of every game started by a request, with the
// public messages it adds to the answer (a ping of who follows a player).
type GameStartListener interface {
	GameStarted(ctx context.Context, g *record.Game) []Message
}

// ChannelDeleteListener hears of a deleted channel or thread before the
// core ends the game that ran there.
type ChannelDeleteListener interface {
	ChannelDeleted(ctx context.Context, channelID string)
}

// Mount adds a capability's handlers and listeners. It is part of
// building the service, before it takes requests; an entry point the
// table does not name, or one already answered, is a wiring mistake and
// panics.
func (s *Service) Mount(c Capability) {
	for entry, h := range c.Routes() {
		if !s.named(entry) {
			panic(fmt.Sprintf("bot: %T routes %q, which the command table does not name", c, entry))
		}
		if _, dup := s.routes[entry]; dup {
			panic(fmt.Sprintf("bot: %q is routed twice", entry))
		}
		s.routes[entry] = h
	}
	if l, ok := c.(GameEndListener); ok {
		s.gameEnd = append(s.gameEnd, l)
	}
	if l, ok := c.(GameStartListener); ok {
		s.gameStart = append(s.gameStart, l)
	}
	if l, ok := c.(ChannelDeleteListener); ok {
		s.channelDelete = append(s.channelDelete, l)
	}
	if sec, ok := c.(SettingsSection); ok {
		s.settingsSections = append(s.settingsSections, sec)
		s.cmds = withSettings(s.cmds, sec.SettingsOptions())
	}
	if d, ok := c.(Drainer); ok {
		s.drainers = append(s.drainers, d)
	}
}

// Drainer is a capability with background work of its own: Shutdown
// cancels Background and then waits for Drain.
type Drainer interface {
	Drain()
}

// SettingsSection is a capability's part of /settings.
type SettingsSection interface {
	// Settings answers /settings when one of the capability's options is
	// given (ok true); otherwise the core answers.
	Settings(ctx context.Context, req Request) (resp Response, ok bool, err error)
	// SettingsLines are its lines when /settings shows where things stand.
	SettingsLines(ctx context.Context, req Request) ([]string, error)
	// SettingsOptions are the options of /settings it owns, registered
	// with the command and named in the catalog under cmd.settings.opt.
	SettingsOptions() []OptionSpec
}

// named reports whether the table names an entry point.
func (s *Service) named(entry string) bool {
	if action, ok := strings.CutSuffix(entry, ":"); ok {
		_, named := componentTable[action]
		return named
	}
	c, ok := LookupCommand(entry)
	return ok && len(c.Subcommands) == 0
}

// Unrouted lists the entry points of the table nobody answers: a test of
// the wiring expects none.
func (s *Service) Unrouted() []string {
	var out []string
	for _, c := range commands {
		paths := []string{c.Name}
		if len(c.Subcommands) > 0 {
			paths = paths[:0]
			for _, sub := range c.Subcommands {
				paths = append(paths, c.Name+" "+sub.Name)
			}
		}
		for _, p := range paths {
			if spec, _ := LookupCommand(p); spec.handle == nil && s.routes[p] == nil {
				out = append(out, p)
			}
		}
	}
	for action, h := range componentTable {
		if h == nil && s.routes[action+":"] == nil {
			out = append(out, action+":")
		}
	}
	return out
}

// Task runs work no request brought (a timer, a background job) as the
// service's own: not after shutdown has begun, counted so shutdown waits
// for it, and a panic logged rather than fatal.
func (s *Service) Task(ctx context.Context, what string, work func(ctx context.Context)) {
	if !s.enter() {
		return
	}
	defer s.inflight.Done()
	defer s.Survive(ctx, what)
	work(ctx)
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock.Now() }

// Edit changes a message the bot posted, fitted to Discord's limits.
func (s *Service) Edit(ctx context.Context, channelID, messageID string, m Message) error {
	s.fitOut(ctx, &m)
	return s.notify.Edit(ctx, channelID, messageID, m)
}

// EditReply finishes the reply to an interaction by its token, fitted to
// Discord's limits.
func (s *Service) EditReply(ctx context.Context, token string, m Message) (string, error) {
	s.fitOut(ctx, &m)
	return s.notify.EditReply(ctx, token, m)
}

// Background is the context of work no request waits for; Shutdown
// cancels it.
func (s *Service) Background() context.Context { return s.background }

// OnPosted asks to be told the message's id once an adapter has shown it.
func (m *Message) OnPosted(f func(ctx context.Context, id string)) { m.posted = f }

// Notifier is the transport's side that posts; capabilities ask it for
// what only some transports offer (scheduled events).
func (s *Service) Notifier() Notifier { return s.notify }

// Component is the pressed component's custom id, read (see customid).
func (r Request) Component() customid.ID { return customid.Parse(r.CustomID) }
