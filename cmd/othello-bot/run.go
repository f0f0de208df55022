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

	"othello-bot/bot"
	"othello-bot/bot/discord"
	"othello-bot/config"
)

// serveInteractions takes interactions over HTTP at /interactions when the
// config asks for it; the returned func stops taking new ones.
func serveInteractions(c config.Config, adapter *discord.Adapter, logger *slog.Logger) (stop func(), err error) {
	if c.InteractionsAddress == "" {
		return func() {}, nil
	}
	key, err := discord.ParsePublicKey(c.PublicKey)
	if err != nil {
		return nil, usageError{"publicKey: " + err.Error()}
	}
	ln, err := net.Listen("tcp", c.InteractionsAddress)
	if err != nil {
		return nil, fmt.Errorf("interactions endpoint on %q: %w", c.InteractionsAddress, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/interactions", adapter.Endpoint(key))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
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

// tickEvery is how often the timers in the database are looked at.
const tickEvery = 5 * time.Second

func runBot(args []string, _ io.Reader, _ io.Writer) error {
	fs := newFlags("run")
	df := addDataFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
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
func serveDiscord(ctx context.Context, c config.Config, token string, logger *slog.Logger) error {
	store, err := openStore(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeStore(store, logger)

	session, err := discordgo.New("Bot " + token)
	if err != nil {
		return fmt.Errorf("discord session: %w", err)
	}
	session.Identify.Intents = discordgo.IntentsGuilds
	if c.DiscordAPI != discord.DefaultAPIBase {
		rt, err := discord.APIBase(c.DiscordAPI, nil)
		if err != nil {
			return usageError{err.Error()}
		}
		session.Client = &http.Client{Transport: rt, Timeout: 20 * time.Second}
	}
	stopWeb, err := startWeb(ctx, c.WebAddress, store, logger)
	if err != nil {
		return err
	}
	defer stopWeb()
	adapter := discord.New(session, c.ApplicationID, c.GuildIDs, store, logger)
	svc := newService(store, c, bot.SystemClock{}, adapter, logger)
	stopEndpoint, err := serveInteractions(c, adapter, logger)
	if err != nil {
		return err
	}
	// The application id comes with Ready (a bot user's id is the same
	// number, but Ready says it outright).
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
	session.AddHandler(adapter.Dispatch)
	session.AddHandler(adapter.OnThreadDelete)
	session.AddHandler(adapter.OnChannelDelete)
	if err := session.Open(); err != nil {
		return fmt.Errorf("connecting to Discord (is DISCORD_TOKEN right?): %w", err)
	}
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		logger.Warn("no Ready event within 30s; using the configured application id", "application_id", adapter.AppID())
	case <-ctx.Done():
	}
	if err := adapter.Register(ctx); err != nil {
		if cerr := session.Close(); cerr != nil {
			logger.Warn("closing the Discord connection", "err", cerr)
		}
		return err
	}
	logger.Info("othello-bot is running", "database", c.Database, "results_log", c.ResultsLog, "guilds", len(c.GuildIDs))
	// The bot's moves after a restart are work in flight too: a signal
	// lets them finish within the grace period.
	work, cancelWork := bot.Detach(ctx, shutdownGrace)
	defer cancelWork()
	if err := svc.Resume(work); err != nil {
		logger.Error("resuming games", "err", err)
	}

	// Timers (expiries, reminders, timeouts) live in the database; a tick
	// every few seconds fires the ones due.
	ticking := make(chan struct{})
	go func() {
		defer close(ticking)
		t := time.NewTicker(tickEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				svc.Tick(work)
			}
		}
	}()

	<-ctx.Done()
	logger.Info("shutting down: finishing moves and replies in flight")
	stopEndpoint()
	err = session.Close()
	<-ticking
	adapter.Wait()
	svc.Shutdown()
	if err != nil && !errors.Is(err, discordgo.ErrWSNotFound) {
		logger.Warn("closing the Discord connection", "err", err)
	}
	return nil
}
