package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"othello-bot/engine"
	"othello-bot/gtp"
)

const version = "0.1.0"

func runGTP(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("gtp")
	level := fs.Int("level", engine.MaxLevel, "engine level 1..10 (GTP set_level changes it)")
	moveTime := fs.Duration("movetime", 2*time.Second, "thinking time per move (GTP time_settings changes it)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *level < engine.MinLevel || *level > engine.MaxLevel {
		return usagef("-level %d is not between %d and %d", *level, engine.MinLevel, engine.MaxLevel)
	}
	if *moveTime <= 0 {
		return usagef("-movetime must be positive")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := gtp.New(engine.New(engine.Options{ProbCut: engine.DefaultProbCut}), gtp.Options{Level: *level, MoveTime: *moveTime, Version: version})
	return srv.Serve(ctx, stdin, stdout)
}
