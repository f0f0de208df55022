// Command train makes the engine's trained 8x8 evaluation (engine/weights.bin)
// from nothing but the engine itself.
//
//	go run ./cmd/train gen -data DIR -games 20000      # self-play games
//	go run ./cmd/train fit -data DIR -out engine/weights.bin
//
// gen plays seeded self-play games (random openings, then the engine, then
// perfect play from -exact empties) and appends them to DIR/games.bin; fit
// labels their positions and fits the pattern weights stage by stage from
// the end of the game backwards: exact values where play was perfect,
// before that a search of -depth plies whose leaves fall in the stages
// already fitted. Both show progress and go on where a killed run stopped.
// A second round plays its games with the first round's weights (-weights).
//
//	go run ./cmd/train mpc -data DIR -out engine/mpc.txt   # Multi-ProbCut's regressions
//	go run ./cmd/train mpc -exact -data DIR -out engine/endmpc.txt -min-empties 12 -max-empties 24 -depth 8   # the selective endgame's
//	go run ./cmd/train book -data DIR -out engine/book/book.bin   # the opening book
//	go run ./cmd/train follow -games 100   # how far the top level follows the book from the start
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: train gen|fit|mpc|book|follow [flags] (train gen -h for the flags)")
	}
	switch args[0] {
	case "gen":
		fs := flag.NewFlagSet("gen", flag.ContinueOnError)
		var o genOptions
		fs.StringVar(&o.dir, "data", "", "directory of the run's files (required)")
		fs.IntVar(&o.games, "games", 1000, "games the run should hold when done")
		fs.Uint64Var(&o.seed, "seed", 1, "random seed: the same seed and weights give the same games")
		fs.IntVar(&o.workers, "workers", 1, "games played at once")
		fs.IntVar(&o.level, "level", 5, "search level of the self-play moves, as the ten levels of before numbered them (3-9: depth 2-10, no book; engine.OldSearch)")
		fs.IntVar(&o.exact, "exact", 18, "play perfectly from this many empty squares")
		fs.Float64Var(&o.random, "random", 0.05, "share of random moves after the opening")
		fs.StringVar(&o.weights, "weights", "", `weights file to play with (default: the built-in evaluation; "hand": the hand-tuned one)`)
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return generate(ctx, o, log)
	case "fit":
		fs := flag.NewFlagSet("fit", flag.ContinueOnError)
		var o fitOptions
		fs.StringVar(&o.dir, "data", "", "directory of the run's files, or several separated by commas (required; the first holds the checkpoint)")
		fs.StringVar(&o.out, "out", "", "weights file to write (required)")
		fs.IntVar(&o.depth, "depth", 4, "search depth that labels positions before the exact part")
		fs.IntVar(&o.workers, "workers", 1, "labelling searches at once")
		fs.IntVar(&o.epochs, "epochs", 60, "passes of the fit over each stage")
		fs.IntVar(&o.holdout, "holdout", 20, "every n-th game is held out to measure the fit")
		fs.Float64Var(&o.l2, "l2", 20, "ridge strength pulling each weight to the stage before (in samples), or to -from's")
		fs.StringVar(&o.from, "from", "", "a weights file to refine: each stage starts from its and is pulled to it (default: from the stage before)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return fit(ctx, o, log)
	case "mpc":
		fs := flag.NewFlagSet("mpc", flag.ContinueOnError)
		var o mpcOptions
		fs.StringVar(&o.dir, "data", "", "directory of the run's files (required)")
		fs.StringVar(&o.out, "out", "", "the regression table to write (required)")
		fs.IntVar(&o.positions, "positions", 2000, "positions to sample")
		fs.IntVar(&o.depth, "depth", 10, "deepest search fitted")
		fs.IntVar(&o.minEmpties, "min-empties", 16, "fewest empty squares of a sampled position")
		fs.IntVar(&o.maxEmpties, "max-empties", 54, "most empty squares of a sampled position")
		fs.Uint64Var(&o.seed, "seed", 1, "random seed: the same flags give the same positions")
		fs.BoolVar(&o.exact, "exact", false, "fit the selective endgame search: shallow searches against the exact result (engine/endmpc.txt)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return mpcRun(ctx, o, log)
	case "book":
		fs := flag.NewFlagSet("book", flag.ContinueOnError)
		var o bookOptions
		fs.StringVar(&o.dir, "data", "", "directory of the run's files (required)")
		fs.StringVar(&o.out, "out", "", "the book to write (required), e.g. engine/book/book.bin")
		fs.IntVar(&o.positions, "positions", 2000, "positions to search")
		fs.IntVar(&o.depth, "depth", 10, "search depth of every position's moves")
		fs.Float64Var(&o.window, "window", 3, "moves within this many discs of the best are expanded")
		fs.Float64Var(&o.plyCost, "ply-cost", 0.5, "cost of a move deeper, in discs given away")
		fs.IntVar(&o.maxPly, "max-ply", 30, "deepest line, in moves")
		fs.IntVar(&o.workers, "workers", 1, "positions searched at once (the same book whatever the number)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return bookRun(ctx, o, log)
	case "follow":
		fs := flag.NewFlagSet("follow", flag.ContinueOnError)
		var o followOptions
		fs.StringVar(&o.book, "book", "", "the book to follow (default: the built-in one)")
		fs.IntVar(&o.games, "games", 100, "games to play")
		fs.Uint64Var(&o.seed, "seed", 1, "random seed of the engine's draws among the book's moves")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if o.games < 1 {
			return fmt.Errorf("follow: -games must be at least 1")
		}
		return followBook(ctx, o, log)
	}
	return fmt.Errorf("unknown command %q: want gen, fit, mpc, book or follow", args[0])
}
