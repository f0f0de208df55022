package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/bot/discord"
)

// shutdownGrace bounds how long work in flight may go on after SIGINT or
// SIGTERM.
const shutdownGrace = 30 * time.Second

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
	logger := newLogger(c)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

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
	adapter := discord.New(session, c.ApplicationID, c.GuildIDs, logger)
	svc := newService(store, c, bot.SystemClock{}, adapter, logger)
	adapter.SetService(svc)
	session.AddHandler(adapter.OnInteraction)
	if err := session.Open(); err != nil {
		return fmt.Errorf("connecting to Discord (is DISCORD_TOKEN right?): %w", err)
	}
	if c.ApplicationID == "" && session.State != nil && session.State.User != nil {
		adapter.SetAppID(session.State.User.ID) // a bot user's id is its application's id
	}
	if err := adapter.Register(); err != nil {
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
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				svc.Tick(context.Background())
			}
		}
	}()

	<-ctx.Done()
	logger.Info("shutting down: finishing moves in flight")
	// Stop taking interactions, let the ones in flight finish their moves,
	// then close the database (deferred above).
	err = session.Close()
	<-ticking
	svc.Shutdown()
	if err != nil && !errors.Is(err, discordgo.ErrWSNotFound) {
		logger.Warn("closing the Discord connection", "err", err)
	}
	return nil
}
