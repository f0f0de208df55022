package bot

// This file is the service itself: what it is built from, the dispatch of
// requests, and shutdown.

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"othello-bot/bot/ratelimit"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/engine"
	"othello-bot/internal/keyed"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/schedule"
	"othello-bot/timecontrol"
)

// Clock tells the time. The terminal adapter moves its own clock forward
// with `wait`, so expiries and timeouts can be seen without waiting.
type Clock interface{ Now() time.Time }

// SystemClock is the real time.
type SystemClock struct{}

// Now keeps whole milliseconds, as the store does, so a turn stored and
// read back starts when it started (no clock is charged the nanoseconds
// the store drops).
func (SystemClock) Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// Notifier posts and edits messages outside a reply to a request: the
// bot's move after a restart, results of games ended by a button on an
// only-you message, timers.
type Notifier interface {
	Send(ctx context.Context, channelID string, m Message) (messageID string, err error)
	Edit(ctx context.Context, channelID, messageID string, m Message) error
	// CreateThread opens a public thread off a channel and returns its id,
	// which Send and Edit then take as a channel; ErrThreadsNotAllowed when
	// the bot may not. ArchiveThread archives it.
	CreateThread(ctx context.Context, parentID, name string) (threadID string, err error)
	ArchiveThread(ctx context.Context, threadID string) error
	// RemoveComponents takes the menu and buttons off a message, leaving
	// the rest as it is.
	RemoveComponents(ctx context.Context, channelID, messageID string) error
	// EditReply finishes the reply to an interaction, by its token.
	EditReply(ctx context.Context, token string, m Message) (messageID string, err error)
}

// EventScheduler is a transport that can list a tournament among the
// server's events (Discord's scheduled events); a Notifier may be one.
type EventScheduler interface {
	ScheduleEvent(ctx context.Context, guildID string, e ScheduledEvent) (eventID string, err error)
	SetEventStatus(ctx context.Context, guildID, eventID string, status EventStatus) error
}

// ScheduledEvent is an event in a server's calendar.
type ScheduledEvent struct {
	Name, Description, Location string
	Start, End                  time.Time
}

// EventStatus is where a scheduled event stands, as Discord numbers it.
type EventStatus int

const (
	EventActive    EventStatus = 2
	EventCompleted EventStatus = 3
	EventCanceled  EventStatus = 4
)

// Config is what the service needs from the configuration.
type Config struct {
	DefaultLevel      int
	DefaultSize       int
	EngineMoveTime    time.Duration
	ChallengeExpiry   time.Duration
	ChallengeCooldown time.Duration
	MoveTimeout       time.Duration
	// DefaultControl is the time control of games between members that
	// name none; zero: MoveTimeout per move.
	DefaultControl timecontrol.Control
	// ExactTimers arms a timer on the wall clock for each game's next
	// deadline, so a flag falls at its time rather than at the next tick.
	ExactTimers    bool
	ReminderBefore time.Duration
	MaxEmojiSize   int
	// AbandonAfter ends a game against the bot after this long without a
	// move from its player; 0 never does.
	AbandonAfter time.Duration
	// Threads gives each game its own thread where the bot may open one;
	// ArchiveAfter is how long after the game's end its thread is archived.
	Threads      bool
	ArchiveAfter time.Duration
	// MaxGamesPerPlayer bounds a player's running games; 0: no bound.
	MaxGamesPerPlayer int
	// PageURL gives the address of a game's web page from its public id;
	// nil when there are no pages.
	PageURL func(publicID string) string
	// PlayerLink is a player's private link to a game's page (nil: none).
	PlayerLink func(publicID string, p record.Player) string
	// Activity says the app's Discord Activity shows games: a server's
	// game messages then offer to watch in it.
	Activity bool
	// Settle gives back the time of any outage before a clock is charged;
	// false while the bot can take no move, when no flag falls (bot/downtime).
	Settle func(ctx context.Context) bool
}

// Service is the command logic. It is safe for concurrent use: requests for
// one channel run one at a time, different channels in parallel.
type Service struct {
	games      GameStore
	flow       *play.Flow // the game flow's operations, typed
	challenges ChallengeStore
	prefs      PreferenceStore
	eng        *engine.Engine
	clock      Clock
	notify     Notifier
	cfg        Config
	log        *slog.Logger
	meter      Meter

	mu       sync.Mutex
	channels keyed.Mutex
	closing  bool
	inflight sync.WaitGroup
	alarms   schedule.Alarms // each game's exact timer
	// threadsBack: servers where Discord takes no thread start for now.
	threadsBack ratelimit.Pauses
	// routes answer the entry points mounted capabilities own; gameEnd
	// and channelDelete hear of the game flow (see Mount).
	routes        map[string]Handler
	gameEnd       []GameEndListener
	gameStart     []GameStartListener
	channelDelete []ChannelDeleteListener
	// settingsSections are the capabilities' parts of /settings; cmds the
	// slash commands with the options they own.
	settingsSections []SettingsSection
	cmds             []CommandSpec
	drainers         []Drainer
	// background is the context of work no request waits for (analyses);
	// Shutdown cancels it.
	background     context.Context
	stopBackground context.CancelFunc
}

// New returns a service over a store and an engine.
func New(stores Stores, eng *engine.Engine, clock Clock, notify Notifier, cfg Config, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	if cfg.Settle == nil {
		cfg.Settle = func(context.Context) bool { return true }
	}
	bg, stop := context.WithCancel(context.Background())
	s := &Service{games: stores.Games, challenges: stores.Challenges, prefs: stores.Prefs, eng: eng, clock: clock, notify: notify, cfg: cfg, log: log, meter: noMeter{},
		routes: map[string]Handler{}, cmds: commands,
		background: bg, stopBackground: stop}
	s.flow = play.New(stores.Games, play.Config{MoveTimeout: cfg.MoveTimeout, AbandonAfter: cfg.AbandonAfter,
		ArchiveAt: s.archiveAt, Ended: s.ended}, clock.Now)
	return s
}

// LockChannel serializes work on one channel's game.
func (s *Service) LockChannel(id string) func() { return s.channels.Lock(id) }

// enter counts a request or task in flight, unless shutdown has begun.
func (s *Service) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.inflight.Add(1)
	return true
}

// Shutdown refuses new work and waits for everything in flight to finish,
// moves included, so the database can be closed after it.
func (s *Service) Shutdown() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.stopBackground()
	s.alarms.Close()
	s.inflight.Wait()
	for _, d := range s.drainers {
		d.Drain()
	}
}

// Handle answers one request. It never panics: a failure is logged and the
// user gets a short apology that only they can see.
func (s *Service) Handle(ctx context.Context, req Request) Response {
	return s.serve(ctx, req, req.entry(), func(ctx context.Context, req Request) (Response, error) {
		switch req.Kind {
		case Command:
			return s.command(ctx, req)
		case Autocomplete:
			return s.autocomplete(ctx, req)
		case Button, Select:
			return s.component(ctx, req)
		}
		return Refuse(req.Me().T("error.unknown_action")), nil
	})
}

// serve runs a handler as the service's own work: counted and refused
// once shutdown has begun, its games' ends told after its answer is
// delivered, kept within Discord's limits, its panic or failure logged and
// answered with a short apology. entry names it in the metrics.
func (s *Service) serve(ctx context.Context, req Request, entry string, h Handler) (resp Response) {
	start, outcome := time.Now(), "ok"
	defer func() { s.meter.Handled(entry, outcome, time.Since(start)) }()
	if !s.enter() {
		outcome = "restarting"
		return Refuse(req.Me().T("error.restarting"))
	}
	defer s.inflight.Done()
	ctx = WithLogger(ctx, s.Logger(ctx).With("user", req.User.ID, "channel", req.ChannelID))
	ctx, held := holdEnds(ctx)
	defer func() { resp.delivered = s.afterDelivery(held) }()
	defer func() {
		if resp.Message != nil {
			s.fitOut(ctx, resp.Message)
		}
		for i := range resp.Followups {
			s.fitOut(ctx, &resp.Followups[i])
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			me := req.Me()
			s.Logger(ctx).Error("handler panic", "panic", r, "entry", entry, "command", req.Command, "custom_id", req.CustomID,
				"user", req.User.ID, "channel", req.ChannelID, "stack", string(debug.Stack()))
			resp, outcome = Refuse(me.T("error.panic")), "panic"
		}
	}()
	req.tr = s.chooseLanguages(ctx, req)
	resp, err := h(ctx, req)
	if errors.Is(err, engine.ErrBusy) {
		// Load, not a fault: every searcher is taken by other games.
		s.Logger(ctx).Warn("engine busy", "entry", entry, "command", req.Command, "custom_id", req.CustomID, "user", req.User.ID, "channel", req.ChannelID)
		outcome = "busy"
		return Refuse(req.Me().T("error.busy"))
	}
	if err != nil {
		outcome = "failed"
		s.Logger(ctx).Error("handler failed", "err", err, "entry", entry, "command", req.Command, "custom_id", req.CustomID,
			"user", req.User.ID, "channel", req.ChannelID)
		return Refuse(req.Me().T("error.failed"))
	}
	if req.Kind != Autocomplete && !req.Place.BotPosts() {
		// The only way to show what happened meanwhile (a flag fell, a
		// challenge expired) where the bot cannot post by itself.
		resp.Followups = append(resp.Followups, s.takeNotices(ctx, req)...)
	}
	return resp
}

func (s *Service) command(ctx context.Context, req Request) (Response, error) {
	if top, ok := LookupCommand(req.Command); ok && !req.Place.Allows(top.Need) {
		return Refuse(req.Me().T("error.needs_bot")), nil
	}
	if c, ok := LookupCommand(req.Path()); ok && c.handle != nil {
		return c.handle(s, ctx, req)
	} else if h := s.routes[req.Path()]; ok && h != nil {
		return h(ctx, req)
	}
	return Refuse(req.Me().T("error.unknown_command", "Command", req.Command)), nil
}

// OpensActivity says whether a request is a press that the Discord
// Activity answers: adapters answer it with the Activity itself, which must
// be the interaction's first answer, instead of acknowledging it first.
func OpensActivity(req Request) bool {
	return req.Kind == Button && customid.Parse(req.CustomID).Action == watchHere
}

// help is the only-you guide to playing and the commands, in the
// reader's language.
func help(p *catalog.Printer) Response {
	return Response{Message: &Message{Ephemeral: true, Embed: &Embed{
		Title:       p.T("help.title"),
		Description: p.T("help.body") + "\n\n" + p.T("help.levels", "Levels", levelRatings(p)),
		Fields:      []Field{{Name: p.T("help.anywhere_title"), Value: p.T("help.anywhere")}},
	}}}
}

// levelRatings lists each level with its approximate rating.
func levelRatings(p *catalog.Printer) string {
	var parts []string
	for l := engine.MinLevel; l <= engine.MaxLevel; l++ {
		if r, ok := engine.LevelRating(l); ok {
			parts = append(parts, p.T("help.level_rating", "N", l, "Rating", r))
		}
	}
	return strings.Join(parts, " · ")
}
