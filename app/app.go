// Package app builds the bot from its parts, in one visible order: the
// core service over the store and the engine, each capability mounted on
// it, and the scheduler that runs their timed work. Every transport
// (Discord, the terminal) and every test that runs the whole bot gets it
// here.
package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/aborts"
	"othello-bot/bot/downtime"
	"othello-bot/bot/follows"
	"othello-bot/bot/habits"
	"othello-bot/bot/hints"
	"othello-bot/bot/pageplay"
	"othello-bot/bot/pairing"
	"othello-bot/bot/puzzles"
	botranks "othello-bot/bot/ranks"
	"othello-bot/bot/resigns"
	"othello-bot/bot/review"
	"othello-bot/bot/stats"
	botstorm "othello-bot/bot/storm"
	"othello-bot/bot/takeback"
	"othello-bot/bot/tournaments"
	"othello-bot/bot/train"
	bottv "othello-bot/bot/tv"
	"othello-bot/engine"
	"othello-bot/schedule"
)

// TickEvery is how often the scheduler looks at the timers in the
// database (games' exact timers fire on their own in between).
const TickEvery = 5 * time.Second

// WatchEvery is how often a running bot asks its database whether it
// answers (downtime.Service.Watch): an outage is given back from the last
// answer; one shorter than this may pass unseen, and is the most a
// player can be charged for one.
const WatchEvery = 500 * time.Millisecond

// Backend is a database holding every capability's records: storage.Store
// (SQLite or PostgreSQL) is one. It is only the union the wiring takes;
// each part is given the small store it declares, and fakes implement
// those.
type Backend interface {
	bot.GameStore
	bot.ChallengeStore
	bot.PreferenceStore
	tournaments.Store
	puzzles.Store
	botstorm.Store
	review.Store
	stats.Store
	bottv.Store
	pairing.Store
	botranks.Store
	follows.Store
	pageplay.Store
	habits.Store
	schedule.LeaseStore
	// ExtendOpenTries gives open puzzle tries the time the bot was away.
	ExtendOpenTries(ctx context.Context, since time.Time, by time.Duration) (int64, error)
	// Shared reports whether other processes use the database too;
	// Instance is the name this process goes by in it.
	Shared() bool
	Instance() string
	// Ping says whether the database answers (downtime watches it).
	Ping(ctx context.Context) error
}

// Config is the core's configuration and each capability's.
type Config struct {
	bot.Config
	Tournaments tournaments.Config
	Puzzles     puzzles.Config
	// PageLink is a player's private link to a game's page (nil: none).
	PageLink pageplay.Linker
}

// App is the service with its capabilities mounted and its scheduler.
type App struct {
	*bot.Service
	Tournaments *tournaments.Service
	Puzzles     *puzzles.Service
	Storm       *botstorm.Service
	Review      *review.Service
	Stats       *stats.Service
	Hints       *hints.Service
	Takeback    *takeback.Service
	PagePlay    *pageplay.Service
	TV          *bottv.Service
	// TVScheduler runs the TV's round every bottv.FollowEvery, on the
	// process holding the tv lease (not the timers').
	TVScheduler *schedule.Scheduler
	Pairing     *pairing.Service
	Ranks       *botranks.Service
	Habits      *habits.Service
	Downtime    *downtime.Service
	Scheduler   *schedule.Scheduler
	shared      bool
	downtime    sync.Once
}

// New builds the service, mounts the capabilities on it and registers
// their timed work.
func New(store Backend, eng *engine.Engine, clock bot.Clock, notify bot.Notifier, cfg Config, log *slog.Logger) *App {
	core := cfg.Config
	core.PlayerLink = cfg.PageLink // a game's start tells its player too
	a := &App{shared: store.Shared()}
	// An outage is given back before any clock is charged (see Watch).
	core.Settle = func(ctx context.Context) bool { return a.Downtime.Settle(ctx) }
	a.Service = bot.New(bot.StoresOf(store), eng, clock, notify, core, log)
	tc := cfg.Tournaments
	if tc.DefaultSize == 0 {
		tc.DefaultSize = cfg.DefaultSize
	}
	tc.Crowned = func(ctx context.Context, guildID string, winners []string) {
		a.Ranks.Crown(ctx, guildID, botranks.Champion, winners)
	}
	if a.ServesPages() {
		tc.GamePage = a.Service.GamePage
	}
	a.Tournaments = tournaments.New(a.Service, store, tc)
	pc := cfg.Puzzles
	pc.Crowned = func(ctx context.Context, guildID string, leaders []string) {
		a.Ranks.Crown(ctx, guildID, botranks.PuzzleLeader, leaders)
	}
	a.Storm = botstorm.New(a.Service, store)
	pc.Modes, pc.DailyLines = a.Storm.Modes(), a.Storm.DailyLines
	a.Puzzles = puzzles.New(a.Service, store, eng, pc)
	a.Review = review.New(a.Service, store, eng)
	a.Mount(a.Tournaments)
	a.Mount(a.Puzzles)
	a.Mount(a.Storm)
	a.Stats = stats.New(a.Service, store)
	a.Stats.Also(a.Storm.StatsFields)
	a.Mount(a.Review)
	a.Hints = hints.New(a.Service, eng, cfg.EngineMoveTime)
	a.Mount(a.Stats)
	a.Mount(a.Hints)
	a.Takeback = takeback.New(a.Service)
	a.Mount(a.Takeback)
	ab, rs := aborts.New(a.Service), resigns.New(a.Service, store)
	a.PagePlay = pageplay.New(a.Service, store, cfg.PageLink, pageplay.Enders{Resign: rs.ResignFor, Abort: ab.AbortFor})
	a.Mount(a.PagePlay)
	a.Downtime = downtime.New(a.Service, store, TickEvery, a.shared)
	// A puzzle try's 15 minutes are a clock too: none is lost to an absence.
	a.Downtime.Also(func(ctx context.Context, since time.Time, away time.Duration) error {
		_, err := store.ExtendOpenTries(ctx, since, away)
		return err
	})
	var tvLease schedule.Lease
	if a.shared {
		tvLease = schedule.DatabaseLease{Store: store, Name: "tv", Holder: store.Instance(), TTL: 4 * bottv.FollowEvery}
	}
	a.TV = bottv.New(a.Service, store, eng)
	a.Mount(a.TV)
	a.TVScheduler = schedule.New(clock.Now, tvLease, log)
	a.TVScheduler.Register(a.Guard(a.TV.Job()))
	a.Mount(ab)
	a.Mount(rs)
	a.Mount(follows.New(a.Service, store))
	a.Pairing = pairing.New(a.Service, store, pairing.Config{DefaultSize: cfg.DefaultSize})
	a.Mount(a.Pairing)
	roles, _ := notify.(botranks.Roles) // nil where the transport has none
	a.Ranks = botranks.New(a.Service, store, roles)
	a.Mount(a.Ranks)
	a.Habits = habits.New(store, eng, log)
	a.Mount(train.New(a.Service, eng))

	// With a shared database one process at a time holds the timers, and
	// picks up the games whose process stopped mid-move.
	var lease schedule.Lease
	if a.shared {
		lease = schedule.DatabaseLease{Store: store, Name: "timers", Holder: store.Instance(), TTL: 3 * TickEvery}
	}
	a.Scheduler = schedule.New(clock.Now, lease, log)
	if a.shared {
		// A game where the bot has been to move this long has lost the
		// process that was thinking about it.
		orphaned := 2*cfg.EngineMoveTime + time.Minute
		a.Scheduler.Register(schedule.Job{Name: "orphaned games", Run: func(ctx context.Context, _ time.Time) {
			if err := a.ResumeOrphans(ctx, orphaned); err != nil {
				a.Logger(ctx).Error("resuming games", "err", err)
			}
		}})
	}
	// Tournaments last: games whose flags fell this tick count in them.
	for _, jobs := range [][]schedule.Job{a.Service.Jobs(), a.Pairing.Jobs(), a.Puzzles.Jobs(), a.Storm.Jobs(), a.Ranks.Jobs(), a.Tournaments.Jobs()} {
		for _, j := range jobs {
			a.Scheduler.Register(a.Guard(j))
		}
	}
	return a
}

// GiveBackDowntime gives the games back the time the bot was away (see
// downtime.Service.GiveBack), once: a process calls it as it starts,
// before it takes requests; Start calls it if nobody did.
func (a *App) GiveBackDowntime(ctx context.Context) error {
	var err error
	a.downtime.Do(func() {
		_, err = a.Downtime.GiveBack(ctx)
	})
	return err
}

// Start picks up after a restart: the time the bot was away given back
// (and the games told), then alone on its database, every game where the
// bot is to move, then whatever fell due meanwhile; sharing one, a first
// tick (the holder of the timers picks up orphaned games).
func (a *App) Start(ctx context.Context) error {
	if err := a.GiveBackDowntime(ctx); err != nil {
		return err
	}
	a.Downtime.Tell(ctx)
	if !a.shared {
		if err := a.Resume(ctx); err != nil {
			return err
		}
	}
	a.Tick(ctx)
	return nil
}

// Tick runs every capability's timed work once (if this process holds
// the timers), and beats.
func (a *App) Tick(ctx context.Context) {
	// Every process its own engine's habits, timers held or not.
	a.Habits.Refresh(ctx, a.Now())
	a.Scheduler.Tick(ctx)
	a.TVScheduler.Tick(ctx)
	a.beat(ctx)
}

// Run ticks every TickEvery until ctx ends, the jobs in work (see
// schedule.Scheduler.Run); after each tick the store hears the bot is
// alive, then beat, if set, is called. Meanwhile the database is watched
// for outages.
func (a *App) Run(ctx, work context.Context, beat func()) {
	tv := make(chan struct{})
	go func() {
		defer close(tv)
		a.TVScheduler.Run(ctx, work, bottv.FollowEvery, nil)
	}()
	defer func() { <-tv }()
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		a.Downtime.Watch(ctx, WatchEvery)
	}()
	defer func() { <-watching }()
	a.Scheduler.Run(ctx, work, TickEvery, func() {
		a.beat(work)
		if beat != nil {
			beat()
		}
	})
}

// Beat tells the store the bot is alive now (see GiveBackDowntime).
func (a *App) Beat(ctx context.Context) error { return a.Downtime.Beat(ctx) }

// beat is Beat on each tick: every process does, holding the timers or
// not.
func (a *App) beat(ctx context.Context) {
	if err := a.Beat(ctx); err != nil {
		a.Logger(ctx).Warn("heartbeat", "err", err)
	}
}

// SearchPuzzles searches up to n finished games for puzzles.
func (a *App) SearchPuzzles(ctx context.Context, n int) (int, error) {
	return a.Puzzles.SearchPuzzles(ctx, n)
}

// WaitAnalyses waits until no analysis is queued or running (the
// terminal waits for them before it quits).
func (a *App) WaitAnalyses() {
	a.Review.Drain()
	a.Ranks.Wait() // and rating roles being given: background work the terminal waits for too
}
