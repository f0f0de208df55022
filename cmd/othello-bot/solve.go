package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
)

func runSolve(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("solve")
	board := fs.String("board", "", "BOARD64: 64 characters a1..h8 row by row, X black, O white, - empty")
	side := fs.String("side", "", "side to move: X or O")
	limit := fs.Duration("time", time.Minute, "give up the exact solve after this long and print the engine's estimate")
	threads := fs.Int("threads", runtime.GOMAXPROCS(0), "searchers solving together, at most one per core")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *threads < 1 {
		return usagef("-threads must be at least 1")
	}
	if *limit <= 0 {
		return usagef("-time must be positive, like 30s or 5m")
	}
	toMove, ok := game.ParseColor(*side)
	if !ok {
		return usagef("-side must be X or O, not %q", *side)
	}
	p, err := game.ParseBoard64(*board, toMove)
	if err != nil {
		return usageError{err.Error()}
	}
	if !p.HasMoves() {
		return usagef("%s has no legal move in this position", toMove)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	eng := engine.New(engine.Options{Searches: *threads})
	t0 := time.Now()
	sctx, cancel := context.WithTimeout(ctx, *limit)
	r, err := eng.Solve(sctx, p)
	cancel()
	if err == nil {
		fmt.Fprintf(stdout, "best=%s score=%+d nodes=%d seconds=%.2f\n", r.Move, r.Eval.Cents/100, r.Nodes, time.Since(t0).Seconds())
		return nil
	}
	if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// Out of time: a few seconds of ordinary search give a best guess,
	// clearly marked as one.
	evals, err := eng.Analyze(ctx, p)
	if err != nil {
		return fmt.Errorf("estimating after the solve ran out of time: %w", err)
	}
	best := evals[0]
	fmt.Fprintf(stdout, "best=%s score=%+.0f exact=false seconds=%.2f\n", best.Move, best.Eval.Discs(), time.Since(t0).Seconds())
	fmt.Fprintf(stdout, "not exact: the solve did not finish within -time %s (%d empty squares); the score is the engine's estimate\n",
		*limit, p.Empties())
	return nil
}
