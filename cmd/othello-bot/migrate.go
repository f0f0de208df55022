package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"othello-bot/config"
	"othello-bot/storage"
)

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
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: c.SlogLevel()}))
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
	return storage.Open(ctx, c.Database, storage.Options{ResultsLog: c.ResultsLog, Logger: logger})
}

func runMigrate(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("migrate")
	df := addDataFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	s, err := openStore(context.Background(), c, newLogger(c))
	if err != nil {
		return err
	}
	defer closeStore(s, newLogger(c))
	fmt.Fprintf(stdout, "database %s is at schema version %d\n", s.Path(), s.Version())
	return nil
}
