package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"othello-bot/bot"
	"othello-bot/bot/discord"
	"othello-bot/config"
	"othello-bot/internal/connlimit"
	"othello-bot/internal/grace"
	"othello-bot/storage"
)

// serveInteractions takes interactions over HTTP at /interactions when the
// config asks for it; the returned func stops taking new ones.
func serveInteractions(c config.Config, adapter *discord.Adapter, seen discord.SeenInteractions, logger *slog.Logger) (stop func(), err error) {
	if c.InteractionsAddress == "" {
		return func() {}, nil
	}
	key, err := discord.ParsePublicKey(c.PublicKey)
	if err != nil {
		return nil, usageError{"publicKey: " + err.Error()}
	}
	raw, err := net.Listen("tcp", c.InteractionsAddress)
	if err != nil {
		return nil, fmt.Errorf("interactions endpoint on %q: %w", c.InteractionsAddress, err)
	}
	// No one address holds more than its share of the endpoint's sockets.
	ln := connlimit.Wrap(raw, discord.PerAddress, discord.Connections)
	mux := http.NewServeMux()
	mux.Handle("/interactions", adapter.Endpoint(key, seen))
	srv := discord.NewServer(mux)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("interactions endpoint stopped", "err", err)
		}
	}()
	logger.Info("taking interactions over HTTP", "address", ln.Addr().String(), "path", "/interactions")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			logger.Warn("closing the interactions endpoint", "err", err)
		}
	}, nil
}

// shutdownGrace bounds how long work in flight may go on after SIGINT or
// SIGTERM.
const shutdownGrace = 30 * time.Second

// restGrace is how long, once a shutdown begins, REST calls may still wait
// for Discord's rate limits.
const restGrace = 2 * time.Second

// puzzleEvery is how often one finished game is searched for puzzles.
const puzzleEvery = 20 * time.Second

func runBot(args []string, _ io.Reader, _ io.Writer) error {
	fs := newFlags("run")
	df := addDataFlags(fs)
	beat := addHeartbeatFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	c.Heartbeat = *beat
	token := os.Getenv("DISCORD_TOKEN")
	if token == "" {
		return usagef("DISCORD_TOKEN is not set: put the bot token from the Discord developer portal in it")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveDiscord(ctx, c, token, newLogger(c))
}

// serveDiscord runs the Discord bot until ctx ends, then shuts down in
// order: no new interactions, every reply in flight sent, timers stopped,
// moves in flight finished, the database closed.
func serveDiscord(ctx context.Context, c config.Config, token string, logger *slog.Logger) (err error) {
	defer func() {
		// A stop during start-up is an orderly stop: every step writes
		// whole or not at all (migrations in transactions, the command
		// scopes after the commands), and the next start finishes the job.
		if err != nil && ctx.Err() != nil {
			logger.Info("stopped during start-up; the next start finishes it", "step", err)
			err = nil
		}
	}()
	store, err := openStore(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeStore(store, logger)

	// rest makes every REST call; the gateway sessions (one per shard
	// this process runs) only receive.
	rest, err := newSession(c, token, logger)
	if err != nil {
		return err
	}
	count, shards, err := shardPlan(c, rest)
	if err != nil {
		return err
	}
	// Discord's global limit is the bot's, whichever process asks: each
	// takes the share its shards are of all, and no more than its part of
	// the processes sharing the database (ShareWith).
	rest.Client.Transport.(*discord.Transport).ShareGlobalLimit(len(shards), count)
	if store.Shared() {
		rest.Client.Transport.(*discord.Transport).ShareWith(ctx, store, logger)
	}
	m, stopAside, err := startAside(c, store, logger)
	if err != nil {
		return err
	}
	defer stopAside()
	// In one order, each part over the ones before it: the REST side that
	// posts, the bot over it (core, capabilities, scheduler), the adapter
	// that takes interactions to the bot.
	poster := discord.NewPoster(rest, c.ApplicationID, store, logger)
	sessions, keyShared, err := pageSessions()
	if err != nil {
		return err
	}
	svc := newApp(store, c, bot.SystemClock{}, poster, logger, m, pageLink(c, sessions, keyShared))
	if l := stormPages(c, sessions); l != nil {
		svc.Storm.LinkPages(l)
	}
	stopWeb, err := startWeb(ctx, c, store, logger, &pagePlay{sessions: sessions, actor: svc.PagePlay, storms: svc.Storm, login: discordLogin(c), launcher: svc.PagePlay})
	if err != nil {
		return err
	}
	defer stopWeb()
	adapter := discord.New(poster, svc, c.GuildIDs)
	if c.Activity {
		adapter.EnableActivity()
	}
	adapter.SetFiles(&http.Client{Timeout: 10 * time.Second, Transport: viaProxyOf(c)})
	if m != nil {
		adapter.SetMeter(m)
		rest.Client.Transport.(*discord.Transport).SetMeter(m)
	}
	// Before any request: the time the bot was away goes back on the
	// clocks, so no flag falls for it; nor for the time the gateway takes
	// to connect, when interactions come that way.
	var live *discord.Liveness
	if c.InteractionsAddress == "" {
		live = discord.NewLiveness(svc.Downtime, svc.Now)
		live.Expect(shards, count)
	}
	if err := svc.GiveBackDowntime(ctx); err != nil {
		logger.Error("giving back the time the bot was away", "err", err)
	}
	stopEndpoint, err := serveInteractions(c, adapter, store, logger)
	if err != nil {
		return err
	}
	gateways, err := openGateways(ctx, c, token, count, shards, adapter, live, logger)
	closeGateways := func() {
		for _, g := range gateways {
			if err := g.Close(); err != nil && !errors.Is(err, discordgo.ErrWSNotFound) {
				logger.Warn("closing the Discord connection", "shard", g.ShardID, "err", err)
			}
		}
	}
	if err == nil {
		err = adapter.Register(ctx)
	}
	if err != nil {
		stopEndpoint()
		closeGateways()
		return err
	}
	logger.Info("othello-bot is running", "database", storage.Redact(c.Database), "results_log", c.ResultsLog,
		"guilds", len(c.GuildIDs), "shards", fmt.Sprint(shards), "shard_count", count, "instance", store.Instance())
	// The bot's moves after a restart are work in flight too: a signal
	// lets them finish within the grace period.
	work, cancelWork := grace.Detach(ctx, shutdownGrace)
	defer cancelWork()
	if err := svc.Start(work); err != nil {
		logger.Error("resuming games", "err", err)
	}
	alive := &pulse{path: c.Heartbeat, store: store, logger: logger}
	alive.beat(ctx)

	// Timers (expiries, reminders, timeouts, tournaments, daily puzzles)
	// live in the database; the scheduler looks at them every few
	// seconds, and the heartbeat goes with it.
	ticking := make(chan struct{})
	go func() {
		defer close(ticking)
		svc.Run(ctx, work, func() { alive.beat(ctx) })
	}()

	<-ctx.Done()
	logger.Info("shutting down: finishing moves and replies in flight")
	// The last heartbeat as it stops taking moves: a restart counts its
	// absence from here, not from the tick before, nor from the end of
	// the shutdown (closing the gateway alone takes a second).
	if err := svc.Beat(work); err != nil {
		logger.Warn("the last heartbeat", "err", err)
	}
	// Replies in flight get a moment to wait out a bucket; then no wait
	// for Discord's rate limits holds the shutdown (a 429 can ask for
	// minutes).
	stopWaits := time.AfterFunc(restGrace, rest.Client.Transport.(*discord.Transport).Close)
	defer stopWaits.Stop()
	stopEndpoint()
	closeGateways()
	<-ticking
	adapter.Wait()
	svc.Shutdown()
	return nil
}

// newSession makes a discordgo session talking to the configured API.
func newSession(c config.Config, token string, logger *slog.Logger) (*discordgo.Session, error) {
	session, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	session.Identify.Intents = discordgo.IntentsGuilds
	// The gateway's identify as Discord documents it: os, browser and
	// device (the dialer renames discordgo's $-prefixed names).
	session.Identify.Properties.Browser, session.Identify.Properties.Device = "othello-bot", "othello-bot"
	// Every REST call goes through APIBase: to the configured API, on v10,
	// through the configured proxy or the environment's. (This session
	// opens no gateway: openGateways gives each of its sessions a dialer.)
	rt, err := discord.APIBase(c.DiscordAPI, viaProxyOf(c))
	if err != nil {
		return nil, usageError{err.Error()}
	}
	rt.SetLogger(logger)
	// No client-wide timeout: a call queued behind the global limit waits
	// its turn (as long as its caller's context allows); the transport
	// gives each its 20 seconds once it is sent. Rate limits are the
	// transport's (ratelimits.go), bounded by each call's context: a 429
	// comes back as an error, never as discordgo's sleep.
	session.Client = &http.Client{Transport: rt}
	session.ShouldRetryOnRateLimit = false
	return session, nil
}

// shardPlan settles how many shards the bot has (asking Discord for
// "auto") and which of them this process runs.
func shardPlan(c config.Config, rest *discordgo.Session) (count int, shards []int, err error) {
	count = int(c.ShardCount)
	if c.ShardCount == config.ShardsAuto {
		gb, err := rest.GatewayBot()
		if err != nil {
			return 0, nil, fmt.Errorf("asking Discord how many shards to run (shardCount \"auto\"): %w", err)
		}
		count = max(gb.Shards, 1)
	}
	shards, err = c.ShardIDs(count)
	if err != nil {
		return 0, nil, usageError{err.Error()}
	}
	return count, shards, nil
}

// openGateways connects one gateway session per shard this process runs
// and waits for each one's Ready (the application id comes with it).
func openGateways(ctx context.Context, c config.Config, token string, count int, shards []int,
	adapter *discord.Adapter, live *discord.Liveness, logger *slog.Logger) ([]*discordgo.Session, error) {
	var out []*discordgo.Session
	for _, id := range shards {
		session, err := newSession(c, token, logger)
		if err != nil {
			return out, err
		}
		session.ShardID, session.ShardCount = id, count
		// Resumes go to the resume_gateway_url of the session's READY.
		gw := discord.NewGateway(proxyOf(c))
		session.Dialer = gw.Dialer()
		session.AddHandler(gw.Event)
		ready := make(chan struct{}, 1)
		session.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
			if r.Application != nil && r.Application.ID != "" {
				adapter.SetAppID(r.Application.ID)
			} else if r.User != nil && adapter.AppID() == "" {
				adapter.SetAppID(r.User.ID)
			}
			select {
			case ready <- struct{}{}:
			default:
			}
		})
		// Handlers run in the event loop, so every interaction is counted
		// before the gateway can close; Dispatch hands each to a goroutine.
		session.SyncEvents = true
		session.AddHandler(adapter.DispatchEvent)
		session.AddHandler(adapter.OnThreadDelete)
		session.AddHandler(adapter.OnChannelDelete)
		session.AddHandler(adapter.OnDisconnect)
		if live != nil {
			live.Follow(session) // a lost connection's time is given back
		}
		if err := session.Open(); err != nil {
			var ce *websocket.CloseError
			switch {
			case errors.As(err, &ce) && ce.Code == 4011:
				return out, usagef("Discord requires more shards than shardCount %d (close 4011): set \"shardCount\": \"auto\" or a larger number", count)
			case errors.As(err, &ce) && ce.Code == 4010:
				return out, usagef("Discord refused shard %d of %d (close 4010): check shardCount and shards", id, count)
			}
			if errors.As(err, &ce) && ce.Code == 4004 {
				return out, usagef("Discord refused the token (close 4004): is DISCORD_TOKEN right?")
			}
			return out, fmt.Errorf("connecting shard %d of %d to Discord's gateway%s: %w", id, count, viaProxy(c), err)
		}
		out = append(out, session)
		select {
		case <-ready:
		case <-time.After(30 * time.Second):
			logger.Warn("no Ready event within 30s; using the configured application id", "shard", id,
				"application_id", adapter.AppID())
		case <-ctx.Done():
			return out, nil
		}
	}
	return out, nil
}
