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
	level := fs.Int("level", engine.MaxLevel, "engine level 1..20 (GTP set_level changes it; docs/engine.md maps the ten levels of before)")
	moveTime := fs.Duration("movetime", 2*time.Second, "thinking time per move (GTP time_settings changes it)")
	nodes := fs.Uint64("nodes", 0, "the top level searches this many nodes a move on one core, whatever the clock: the same moves on any machine (for matches; the move time is then only a safety net)")
	depth := fs.Int("depth", 0, "cap the top level's midgame search at this depth (0: none)")
	seed := fs.Uint64("seed", 0, "seed of the engine's choices among equal moves (the book's, levels 1-15); 0: random")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 0 || *depth > 60 {
		return usagef("-depth %d is not between 0 and 60", *depth)
	}
	if *level < engine.MinLevel || *level > engine.MaxLevel {
		return usagef("-level %d is not between %d and %d", *level, engine.MinLevel, engine.MaxLevel)
	}
	if *moveTime <= 0 {
		return usagef("-movetime must be positive")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := engine.Options{ProbCut: engine.DefaultProbCut, Nodes: *nodes, Depth: *depth}
	if *nodes > 0 {
		opts.Searches, opts.QuickSearches = 1, -1 // counted on one core
	}
	srv := gtp.New(engine.New(opts), gtp.Options{Level: *level, MoveTime: *moveTime, Version: version, Work: *nodes > 0, Seed: *seed})
	return srv.Serve(ctx, stdin, stdout)
}
