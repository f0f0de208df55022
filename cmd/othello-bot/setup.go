package main

// This file builds what run and local share: the config with its flag
// overrides, the logger, the store, and the service. Every transport gets
// its service here.

import (
	"cmp"
	"context"
	"flag"
	"log/slog"
	"os"

	"othello-bot/app"
	"othello-bot/bot"
	"othello-bot/bot/pageplay"
	"othello-bot/bot/tournaments"
	"othello-bot/config"
	"othello-bot/engine"
	"othello-bot/metrics"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

// newApp builds the command logic with its capabilities over a store, for
// a transport that delivers its messages: the one place the bot is made.
// m, when there are metrics, hears what it measures.
func newApp(store *storage.Store, c config.Config, clock bot.Clock, notify bot.Notifier, logger *slog.Logger, m *metrics.Metrics,
	link pageplay.Linker) *app.App {
	cfg := botConfig(c)
	cfg.PageLink = link
	// On the wall clock each deadline gets a timer of its own; the
	// terminal's clock moves only with wait, which ticks.
	_, cfg.ExactTimers = clock.(bot.SystemClock)
	if cfg.ExactTimers {
		// Finished games become puzzles in the background (the terminal
		// searches as it waits instead).
		cfg.Puzzles.SearchEvery = puzzleEvery
	}
	eng := engine.New(engine.Options{MoveTime: c.EngineMoveTime.D(), ProbCut: engine.DefaultProbCut})
	a := app.New(store, eng, clock, notify, cfg, logger)
	if m != nil {
		m.Engine(eng)
		a.SetMeter(m)
	}
	return a
}

func botConfig(c config.Config) app.Config {
	return app.Config{Config: bot.Config{
		DefaultLevel:      cmp.Or(c.Level, engine.FromOldLevel(c.DefaultLevel)),
		DefaultSize:       c.DefaultSize,
		EngineMoveTime:    c.EngineMoveTime.D(),
		ChallengeExpiry:   c.ChallengeExpiry.D(),
		ChallengeCooldown: c.ChallengeCooldown.D(),
		MoveTimeout:       c.MoveTimeout.D(),
		ReminderBefore:    c.ReminderBefore.D(),
		DefaultControl:    defaultControl(c.TimeControl),
		MaxEmojiSize:      c.MaxEmojiSize,
		AbandonAfter:      c.AbandonAfter.D(),
		Threads:           c.Threads,
		ArchiveAfter:      c.ArchiveAfter.D(),
		MaxGamesPerPlayer: c.MaxGamesPerPlayer,
		PageURL:           pageURL(c.PublicURL),
		Activity:          c.Activity,
	}, Tournaments: tournaments.Config{URL: tournamentURL(c.PublicURL), Roles: c.TournamentRoles}}
}

// defaultControl is the configured default time control (checked when
// the config was read); zero for none.
func defaultControl(s string) timecontrol.Control {
	c, _ := timecontrol.Parse(s)
	return c
}

// dataFlags are the flags run, local and migrate share: the config file
// and overrides for the data paths.
type dataFlags struct {
	config, db, results *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{
		config:  fs.String("config", "", "config file (default: "+config.DefaultPath+" if present, else built-in defaults)"),
		db:      fs.String("db", "", "database file (overrides the config's database)"),
		results: fs.String("results", "", "results log file (overrides the config's resultsLog)"),
	}
}

func (f dataFlags) load() (config.Config, error) {
	c, err := config.Load(*f.config)
	if err != nil {
		return c, usageError{err.Error()}
	}
	if *f.db != "" {
		c.Database = *f.db
	}
	if *f.results != "" {
		c.ResultsLog = *f.results
	}
	return c, nil
}

func newLogger(c config.Config) *slog.Logger {
	return slog.New(c.LogHandler(os.Stderr, c.SlogLevel()))
}

// closeStore closes the database, logging a failure: the last writes
// may not have reached the disk.
func closeStore(s *storage.Store, logger *slog.Logger) {
	if err := s.Close(); err != nil {
		logger.Error("closing the database", "path", s.Path(), "err", err)
	}
}

// openStore opens the configured database and results log.
func openStore(ctx context.Context, c config.Config, logger *slog.Logger) (*storage.Store, error) {
	return storage.Open(ctx, c.Database, storage.Options{ResultsLog: c.ResultsLog, Logger: logger, Instance: c.Instance})
}
