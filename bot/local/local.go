// Package local runs the bot in a terminal: each input line is a slash
// command, a click, a select or a wait, from a named user; each bot message
// is printed as Discord would show it. It drives the same bot.Service, store
// and results log as the Discord adapter; only the transport differs.
package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/tournaments"
	"othello-bot/internal/grace"
	"othello-bot/lineio"
)

// Channel and guild the terminal plays in.
const (
	ChannelID = "terminal"
	GuildID   = "local"
)

// Clock is a clock that only moves when told: `wait 11m` moves it on.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts a clock at t.
//
// It keeps whole milliseconds, as the store does: a clock with nanoseconds
// would charge each move up to a millisecond it never took.
func NewClock(t time.Time) *Clock { return &Clock{now: t.UTC().Truncate(time.Millisecond)} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// shown is a message printed so far, kept for click and select.
type shown struct {
	id      int
	msg     bot.Message
	visible string // the only user who sees it, for ephemeral messages
	channel string
}

// thread is a thread the bot opened.
type thread struct {
	parent, name string
	archived     bool
}

// Adapter is the terminal transport. It is also the service's Notifier.
type Adapter struct {
	svc         Service
	Clock       *Clock
	DefaultUser string
	// ImageDir is where attached board pictures are saved.
	ImageDir string
	// SearchPuzzles makes each wait search finished games for puzzles, as
	// a running bot does in the background (off in tests, which ask).
	SearchPuzzles bool
	// ShutdownGrace is how long a line in flight may go on after Run's
	// context is cancelled.
	ShutdownGrace time.Duration
	// Locale is the terminal's language: its own lines, the local
	// server's Discord language, and every user's unless a "locale" line
	// gives theirs (Discord's locale codes: "en-US", "ja").
	Locale string

	mu       sync.Mutex
	out      io.Writer
	messages []*shown
	granted  map[string]int64  // the member permissions given by name (moderator, admin)
	locales  map[string]string // a user's Discord language, by name
	threads  map[string]*thread
	nthreads int
	// run makes message ids unique across runs on one database: a timer
	// that edits a message from an earlier run must not hit this run's
	// message with the same number.
	run string
	// roles are the server roles made for rating roles, by id.
	roles map[string]string
}

// New returns an adapter printing to out. Give it its service with
// SetService before Run, as the Discord adapter takes its.
func New(out io.Writer, clock *Clock, defaultUser string) *Adapter {
	if defaultUser == "" {
		defaultUser = "you"
	}
	// The terminal's own user runs its server, as whoever starts a bot for
	// a server of their own would: Manage Server and Manage Events.
	return &Adapter{out: out, Clock: clock, DefaultUser: defaultUser, ImageDir: "boards", ShutdownGrace: 30 * time.Second,
		run:     strconv.FormatInt(time.Now().UnixNano(), 36),
		granted: map[string]int64{defaultUser: bot.PermManageGuild | tournaments.PermManageEvents}}
}

// maxPuzzleSearch is how many finished games one wait searches for puzzles.
const maxPuzzleSearch = 20

// maxSteppedWait is the longest wait passed a second at a time: long
// enough for any live clock's last minute, short enough to stay quick.
const maxSteppedWait = 3 * time.Minute

// Service is what the terminal drives: the core service with its
// capabilities and their timed work (app.App is one).
type Service interface {
	Handle(ctx context.Context, req bot.Request) bot.Response
	// CanonicalOptions reads options typed by their names in any language.
	CanonicalOptions(command string, opts map[string]string) map[string]string
	Posted(ctx context.Context, channelID string, m *bot.Message, messageID string)
	ChannelDeleted(ctx context.Context, channelID string)
	// Tick runs the timed work that is due (the terminal's clock moves
	// only with wait).
	Tick(ctx context.Context)
	// SearchPuzzles searches up to n finished games for puzzles.
	SearchPuzzles(ctx context.Context, n int) (int, error)
	WaitAnalyses()
	Shutdown()
}

// SetService gives the adapter the command logic.
func (a *Adapter) SetService(svc Service) { a.svc = svc }

// Service returns the command logic the adapter drives.
func (a *Adapter) Service() Service { return a.svc }

// Run reads input lines until the end, answering each, then shuts the
// service down once everything in flight is done.
//
// A cancelled ctx (SIGINT, SIGTERM) stops the reading; the line being
// handled still finishes, for up to ShutdownGrace.
func (a *Adapter) Run(ctx context.Context, in io.Reader) error {
	work, cancel := grace.Detach(ctx, a.ShutdownGrace)
	defer cancel()
	a.note("%s", a.t().T("local.welcome"))
	lines := lineio.New(in, 0)
	for {
		line, err := lines.Next()
		var tooLong *lineio.TooLongError
		switch {
		case errors.Is(err, io.EOF):
			// The input is done, not the work it asked for: analyses
			// finish before the terminal closes.
			a.svc.WaitAnalyses()
			a.svc.Shutdown()
			return nil
		case errors.As(err, &tooLong):
			a.note("(%v)", err)
			continue
		case err != nil:
			a.svc.Shutdown()
			return fmt.Errorf("reading input: %w", err)
		}
		if ctx.Err() != nil || isQuit(line) {
			a.svc.Shutdown()
			return nil
		}
		a.Line(work, line)
	}
}
