package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"

	"othello-bot/game"
	"othello-bot/termgame"
)

func runPlay(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("play")
	config := fs.String("config", "", "start from a preset JSON file (board, letter, scripted moves)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opts := termgame.Options{Opponent: randomOpponent()}
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
		fmt.Fprintln(stdout, "No more input; the game is left unfinished.")
		return nil
	}
	return err
}

// randomOpponent plays a random legal move.
func randomOpponent() termgame.Opponent {
	return termgame.OpponentFunc(func(_ context.Context, p game.Position) (game.Square, error) {
		moves := p.LegalMoves()
		if len(moves) == 0 {
			return game.Pass, errors.New("no legal move")
		}
		return moves[rand.IntN(len(moves))], nil
	})
}
