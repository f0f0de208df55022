package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"time"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/termgame"
)

func runPlay(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("play")
	config := fs.String("config", "", "start from a preset JSON file (board, letter, scripted moves)")
	level := fs.Int("level", 15, "computer strength, 1 (random) to 20 (strongest)")
	locale := fs.String("locale", "en-US", "the player's language: en-US, or ja for Japanese")
	moveTime := fs.Duration("movetime", 2*time.Second, "the computer's thinking time per move")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *level < engine.MinLevel || *level > engine.MaxLevel {
		return usagef("--level %d is not between %d and %d", *level, engine.MinLevel, engine.MaxLevel)
	}
	if *moveTime <= 0 {
		return usagef("--movetime must be positive")
	}
	words := catalog.For(catalog.FromLocale(*locale))
	opts := termgame.Options{Opponent: engineOpponent(engine.New(engine.Options{ProbCut: engine.DefaultProbCut}), *level, *moveTime), Words: words}
	if *config != "" {
		p, err := termgame.LoadPreset(*config)
		if err != nil {
			return usageError{err.Error()}
		}
		opts.Preset = p
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := termgame.Run(ctx, stdin, stdout, opts)
	if errors.Is(err, termgame.ErrNoInput) {
		return nil
	}
	return err
}

// engineOpponent plays the engine at a level with a time per move.
func engineOpponent(eng *engine.Engine, level int, moveTime time.Duration) termgame.Opponent {
	return termgame.OpponentFunc(func(ctx context.Context, p game.Position) (game.Square, error) {
		ctx, cancel := context.WithTimeout(ctx, moveTime)
		defer cancel()
		r, err := eng.Move(ctx, p, level, nil)
		return r.Move, err
	})
}
