package main

import (
	"fmt"
	"io"
	"time"

	"othello-bot/game"
)

func runPerft(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("perft")
	size := fs.Int("size", 8, "board size, even 4..26")
	depth := fs.Int("depth", 6, "plies to look ahead (a pass is a ply)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	start, err := game.NewPosition(*size)
	if err != nil {
		return usageError{err.Error()}
	}
	if *depth < 0 {
		return usagef("depth %d is negative", *depth)
	}
	t0 := time.Now()
	n := game.Perft(start, *depth)
	fmt.Fprintf(stdout, "perft size=%d depth=%d nodes=%d seconds=%.2f\n", *size, *depth, n, time.Since(t0).Seconds())
	return nil
}
