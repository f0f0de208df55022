package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
)

func runSolve(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("solve")
	board := fs.String("board", "", "BOARD64: 64 characters a1..h8 row by row, X black, O white, - empty")
	side := fs.String("side", "", "side to move: X or O")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var toMove game.Color
	switch *side {
	case "X", "x":
		toMove = game.Black
	case "O", "o":
		toMove = game.White
	default:
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
	t0 := time.Now()
	r, err := engine.New(engine.Options{Searches: 1}).Solve(ctx, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "best=%s score=%+d nodes=%d seconds=%.2f\n", r.Move, r.Eval.Cents/100, r.Nodes, time.Since(t0).Seconds())
	return nil
}
