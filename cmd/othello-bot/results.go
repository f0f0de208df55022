package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"othello-bot/storage"
)

// runResults prints the dated results log for a period, rebuilt from the
// database: one complete log whatever process finished each game.
func runResults(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("results")
	df := addDataFlags(fs)
	since := fs.String("since", "", "only games finished on or after this date (2026-11-22) or time (2026-11-22T12:00:00Z)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var from time.Time
	if *since != "" {
		var err error
		if from, err = time.Parse(time.DateOnly, *since); err != nil {
			if from, err = time.Parse(time.RFC3339, *since); err != nil {
				return usagef("--since must be a date like 2026-11-22 or a time like 2026-11-22T12:00:00Z, not %q", *since)
			}
		}
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	logger := newLogger(c)
	// No results log: this command reads, it does not append.
	s, err := storage.Open(context.Background(), c.Database, storage.Options{Logger: logger})
	if err != nil {
		return err
	}
	defer closeStore(s, logger)
	w := bufio.NewWriter(stdout)
	err = s.ResultLines(context.Background(), from, func(line string) error {
		_, err := fmt.Fprintln(w, line)
		return err
	})
	if err != nil {
		return err
	}
	return w.Flush()
}
