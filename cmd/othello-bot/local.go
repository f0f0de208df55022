package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"othello-bot/bot/local"
	"othello-bot/internal/grace"
)

// tryPages is the two keys a try of the pages on one machine needs: the
// address to serve on and the address a browser there reaches it by.
func tryPages(addr string) (webAddress, publicURL string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "", "", fmt.Errorf("--web %q: want an address to serve the pages on, like :8080 or 127.0.0.1:8080", addr)
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "localhost"
	}
	return addr, "http://" + net.JoinHostPort(host, port), nil
}

func runLocal(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("local")
	df := addDataFlags(fs)
	user := fs.String("user", "you", "who lines without a \"name:\" prefix come from")
	logPath := fs.String("log", "", "write the log here at the configured level (default: only warnings and errors, to stderr)")
	locale := fs.String("locale", "en-US", "the terminal's language, and its users' and server's Discord language: en-US or ja (another falls back to English)")
	threads := fs.Bool("threads", false, "give each game its own thread, as on Discord (default: games live in their channel)")
	webAddr := fs.String("web", "", "serve the game pages on this address too, like :8080 (sets webAddress, and publicURL to http://localhost:PORT so /board links to them)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	if *webAddr != "" {
		if c.WebAddress, c.PublicURL, err = tryPages(*webAddr); err != nil {
			return err
		}
	}
	// The terminal is one channel unless asked: threads there mean naming
	// the thread on every line.
	c.Threads = *threads
	// The log stays out of the conversation: warnings and errors only on
	// the terminal, everything the config asks for in a file.
	level := max(c.SlogLevel(), slog.LevelWarn)
	var logOut io.Writer = os.Stderr
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("log file: %w", err)
		}
		defer f.Close()
		logOut, level = f, c.SlogLevel()
	}
	logger := slog.New(c.LogHandler(logOut, level))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := openStore(ctx, c, logger)
	if err != nil {
		return err
	}
	defer closeStore(store, logger)
	m, stopAside, err := startAside(c, store, logger)
	if err != nil {
		return err
	}
	defer stopAside()
	clock := local.NewClock(time.Now())
	adapter := local.New(stdout, clock, *user)
	adapter.ImageDir = c.ImageDir
	adapter.Locale = *locale
	adapter.SearchPuzzles = true
	sessions, keyShared, err := pageSessions()
	if err != nil {
		return err
	}
	c.Activity = false // no Discord client here to open it
	svc := newApp(store, c, clock, adapter, logger, m, pageLink(c, sessions, keyShared))
	adapter.SetService(svc)
	if l := stormPages(c, sessions); l != nil {
		svc.Storm.LinkPages(l)
	}
	stopWeb, err := startWeb(ctx, c, store, logger, &pagePlay{sessions: sessions, actor: svc.PagePlay, storms: svc.Storm, now: clock.Now}) // nobody logs in to Discord here
	if err != nil {
		return err
	}
	defer stopWeb()
	work, cancelWork := grace.Detach(ctx, shutdownGrace)
	defer cancelWork()
	adapter.ShutdownGrace = shutdownGrace
	if err := svc.Start(work); err != nil {
		return fmt.Errorf("resuming games: %w", err)
	}
	if err := svc.Puzzles.AddBuiltinPuzzles(work); err != nil {
		return fmt.Errorf("adding the built-in puzzles: %w", err)
	}
	return adapter.Run(ctx, stdin)
}
