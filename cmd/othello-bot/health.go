package main

// This file is the bot's liveness: run writes a heartbeat after each tick
// that reached the database, and health (the image's HEALTHCHECK) reads it
// or asks a web server's /healthz.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"othello-bot/app"
	"strings"
	"time"

	"othello-bot/internal/heartbeat"
	"othello-bot/storage"
)

// heartbeatEnv names the heartbeat file for run and health alike, so an
// image can set it once for whatever command it is started with.
const heartbeatEnv = "OTHELLO_HEARTBEAT"

// heartbeatMaxAge is how old a heartbeat may be: many ticks, since a tick
// may wait on a busy database.
const heartbeatMaxAge = 12 * app.TickEvery

func addHeartbeatFlag(fs *flag.FlagSet) *string {
	return fs.String("heartbeat", os.Getenv(heartbeatEnv), "heartbeat file, written while the bot runs (default $"+heartbeatEnv+")")
}

// pulse writes the heartbeat when the database answers, logging only when
// that changes, so a stuck database is one line in the log, not one a tick.
type pulse struct {
	path   string
	store  *storage.Store
	logger *slog.Logger
	failed bool
}

func (p *pulse) beat(ctx context.Context) {
	if p.path == "" {
		return
	}
	err := p.store.Ping(ctx)
	if err == nil {
		err = heartbeat.Beat(p.path, time.Now())
	}
	switch {
	case err != nil && !p.failed && ctx.Err() == nil:
		p.logger.Error("heartbeat stopped: the health check will fail", "err", err)
	case err == nil && p.failed:
		p.logger.Info("heartbeat again", "path", p.path)
	}
	p.failed = err != nil
}

func runHealth(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("health")
	file := addHeartbeatFlag(fs)
	maxAge := fs.Duration("max-age", heartbeatMaxAge, "how old the heartbeat may be")
	url := fs.String("url", "", "check a web server's health address instead, like http://127.0.0.1:8080/healthz")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var err error
	switch {
	case *url != "":
		err = checkURL(*url)
	case *file != "":
		err = heartbeat.Check(*file, *maxAge, time.Now())
	default:
		return usagef("nothing to check: give --heartbeat FILE (or set %s, as the image does) or --url", heartbeatEnv)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "healthy")
	return nil
}

// checkURL asks a health address for 200 and "ok".
func checkURL(url string) error {
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("asking %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "ok" {
		return errors.New(url + " answered " + resp.Status)
	}
	return nil
}
