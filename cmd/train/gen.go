// This file is the gen command: self-play games appended to a run, with
// progress, going on where an earlier run stopped.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/pattern"
)

type genOptions struct {
	dir                   string
	games, workers, level int
	exact                 int
	seed                  uint64
	random                float64
	weights               string
}

func loadWeights(path string) (*pattern.Weights, error) {
	if path == "" || path == "hand" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w, err := pattern.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

func generate(ctx context.Context, o genOptions, log io.Writer) error {
	if o.dir == "" {
		return errors.New("gen: -data DIR is required")
	}
	if o.exact < 0 || o.exact > 24 || o.level < 3 || o.level > 9 || o.workers < 1 || o.games < 0 {
		return errors.New("gen: -exact must be 0..24, -level 3..9, -workers at least 1")
	}
	w, err := loadWeights(o.weights)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	path := filepath.Join(o.dir, "games.bin")
	have, good, err := readGames(path)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	defer f.Close()
	// Cut a torn last record, then append.
	if err := f.Truncate(good); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	done := make(map[uint32]bool, len(have))
	for _, r := range have {
		done[r.index] = true
	}
	todo := make(chan uint32)
	go func() {
		defer close(todo)
		for i := uint32(0); i < uint32(o.games); i++ {
			if !done[i] {
				select {
				case todo <- i:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	eng := engine.New(engine.Options{Searches: o.workers, Weights: w, HandTuned: o.weights == "hand", MoveTime: time.Minute})
	results := make(chan record)
	errs := make(chan error, o.workers)
	var wg sync.WaitGroup
	for k := 0; k < o.workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range todo {
				r, err := selfPlay(ctx, eng, o.seed, i, o.level, o.exact, o.random)
				if err != nil {
					errs <- err
					return
				}
				results <- r
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	n, start, last := len(done), time.Now(), time.Now()
	fmt.Fprintf(log, "gen: %s holds %d games, playing up to %d\n", path, n, o.games)
	made := 0
	for r := range results {
		if _, err := f.Write(r.encode()); err != nil {
			return fmt.Errorf("gen: writing %s: %w", path, err)
		}
		n++
		made++
		if time.Since(last) > 10*time.Second || n == o.games {
			last = time.Now()
			rate := float64(made) / time.Since(start).Seconds()
			eta := time.Duration(float64(o.games-n)/rate) * time.Second
			fmt.Fprintf(log, "gen: %d/%d games, %.1f games/s, about %v to go\n", n, o.games, rate, eta.Round(time.Second))
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("gen: stopped with %d games; run again to go on", n)
	}
	select {
	case err := <-errs:
		return fmt.Errorf("gen: %w", err)
	default:
	}
	return nil
}
