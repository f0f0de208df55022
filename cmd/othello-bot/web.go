package main

// This file serves the game pages: inside run and local when webAddress is
// set, or alone (othello-bot web) over the same database.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"othello-bot/config"
	"othello-bot/storage"
	"othello-bot/web"
)

// pageInterval is how often live pages look for changed games.
const pageInterval = 250 * time.Millisecond

// pageURL gives a game page's public address, or nil without a publicURL.
func pageURL(publicURL string) func(string) string {
	if publicURL == "" {
		return nil
	}
	base := strings.TrimSuffix(publicURL, "/")
	return func(id string) string { return base + web.PagePath(id) }
}

// tournamentURL gives a tournament page's public address, or nil without
// a publicURL.
func tournamentURL(publicURL string) func(string) string {
	if publicURL == "" {
		return nil
	}
	base := strings.TrimSuffix(publicURL, "/")
	return func(id string) string { return base + web.TournamentPath(id) }
}

// serveWeb serves the game pages on addr until ctx ends; it returns once
// listening (or failing to), then serves in the background. done is closed
// when the server has stopped.
func serveWeb(ctx context.Context, addr string, perAddress int, store *storage.Store, logger *slog.Logger) (done chan struct{}, err error) {
	pages := web.New(store, logger)
	pages.MaxWatchersPerAddress = perAddress
	_, stop, err := serveAside(addr, pages, "game pages", logger)
	if err != nil {
		return nil, err
	}
	go pages.Run(ctx, pageInterval)
	done = make(chan struct{})
	go func() {
		<-ctx.Done()
		stop()
		close(done)
	}()
	return done, nil
}

// startWeb serves the game pages alongside a bot when addr is set; the
// returned func stops them and waits until they have.
func startWeb(ctx context.Context, c config.Config, store *storage.Store, logger *slog.Logger) (stop func(), err error) {
	addr := c.WebAddress
	if addr == "" {
		return func() {}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	done, err := serveWeb(ctx, addr, c.WebWatchersPerAddress, store, logger)
	if err != nil {
		cancel()
		return nil, err
	}
	return func() { cancel(); <-done }, nil
}

func runWeb(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("web")
	df := addDataFlags(fs)
	addr := fs.String("addr", "", "address to serve on, like :8080 (default: the config's webAddress, else :8080)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	if *addr == "" {
		*addr = c.WebAddress
	}
	if *addr == "" {
		*addr = ":8080"
	}
	logger := newLogger(c)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := openStore(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeStore(store, logger)
	done, err := serveWeb(ctx, *addr, c.WebWatchersPerAddress, store, logger)
	if err != nil {
		return err
	}
	_, stopAside, err := startAside(c, store, logger)
	if err != nil {
		return err
	}
	defer stopAside()
	fmt.Fprintf(stdout, "serving game pages on %s (Ctrl-C stops)\n", *addr)
	<-done
	return nil
}
