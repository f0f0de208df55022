// Command puzzles makes puzzle/builtin.txt, the puzzles a server without
// its own starts from, and measures the generator: it plays 8x8 games of
// our engine against itself at mixed levels from XOT openings (a weak side
// makes the mistakes puzzles come from), searches each finished game for
// puzzles as the bot searches a server's games (the exact solver decides
// each), keeps a set, verifies each kept puzzle by a second solve, and
// writes it.
//
//	go run ./cmd/puzzles -data /tmp/puzzles -games 1000 -keep 300
//
// The n-th game comes from the seed and n alone, so the same flags give the
// same file. It shows its progress and, killed, goes on where it stopped:
// every game searched is appended to DATA/games.txt at once.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/internal/resume"
	"othello-bot/puzzle"
	"othello-bot/xot"
)

type options struct {
	data, out           string
	games, keep         int
	maxEmpties, maxMove int
	minLevel, maxLevel  int
	seed                uint64
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "", "folder for the run's progress (required)")
	flag.StringVar(&o.out, "out", "puzzle/builtin.txt", "the set to write")
	flag.IntVar(&o.games, "games", 1000, "games to play and search")
	flag.IntVar(&o.keep, "keep", 150, "puzzles to keep in the set")
	flag.IntVar(&o.maxEmpties, "max-empties", 20, "most empty squares of a puzzle (as the bot searches)")
	flag.IntVar(&o.maxMove, "max-moves", 3, "most moves a puzzle asks for (as the bot searches)")
	flag.IntVar(&o.minLevel, "min-level", 2, "weakest level in the games")
	flag.IntVar(&o.maxLevel, "max-level", 4, "strongest level in the games")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "puzzles:", err)
		os.Exit(1)
	}
}

// selfPlay plays the n-th game from an XOT opening (so that games of the
// same levels differ), each side a level drawn from the seed and n, the
// engine's random choices from them too.
func selfPlay(ctx context.Context, eng *engine.Engine, o options, n int) (game.Position, []game.Square, error) {
	rng := rand.New(rand.NewPCG(o.seed, uint64(n)))
	levels := [2]int{o.minLevel + rng.IntN(o.maxLevel-o.minLevel+1), o.minLevel + rng.IntN(o.maxLevel-o.minLevel+1)}
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for _, m := range xot.Pick(rng).Moves {
		if _, err := g.Play(m); err != nil {
			return start, nil, err
		}
	}
	for !g.Over() {
		side := 0
		if g.Position().ToMove() == game.White {
			side = 1
		}
		r, err := eng.Move(ctx, g.Position(), levels[side], rng)
		if err != nil {
			return start, nil, err
		}
		if _, err := g.Play(r.Move); err != nil {
			return start, nil, err
		}
	}
	return start, g.Moves(), nil
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.data == "" {
		return fmt.Errorf("-data is required")
	}
	if o.minLevel < 1 || o.maxLevel > 10 || o.minLevel > o.maxLevel {
		return fmt.Errorf("levels %d..%d: want 1 <= min <= max <= 10", o.minLevel, o.maxLevel)
	}
	path := filepath.Join(o.data, "games.txt")
	done, f, err := resume.Open(o.data, "games.txt", readGames)
	if err != nil {
		return err
	}
	defer f.Close()
	eng := engine.New(engine.Options{Searches: 1})
	started, count := time.Now(), 0
	for n := 0; n < o.games && ctx.Err() == nil; n++ {
		if _, ok := done[n]; ok {
			continue
		}
		start, moves, err := selfPlay(ctx, eng, o, n)
		if err != nil {
			break
		}
		t0 := time.Now()
		found, err := puzzle.Find(ctx, eng, start, moves, puzzle.Options{MaxEmpties: o.maxEmpties, MaxMoves: o.maxMove})
		if err != nil {
			break
		}
		took := time.Since(t0)
		var b strings.Builder
		for _, p := range found {
			fmt.Fprintf(&b, "P %d %s\n", n, puzzle.FormatSet(p))
		}
		fmt.Fprintf(&b, "G %d %d %d\n", n, len(found), took.Milliseconds())
		if _, err := f.WriteString(b.String()); err != nil {
			return err
		}
		count++
		if count%10 == 0 {
			rate := time.Since(started) / time.Duration(count)
			fmt.Fprintf(log, "puzzles: %d of %d games (%s a game, %s left)\n", len(done)+count, o.games,
				rate.Round(time.Millisecond), (rate * time.Duration(o.games-len(done)-count)).Round(time.Second))
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stopped; run again to go on (progress in %s)", path)
	}
	all, err := readGames(path)
	if err != nil {
		return err
	}
	return write(ctx, eng, o, all, log)
}

type searched struct {
	found   int
	millis  int64
	puzzles []string // FormatSet lines
}

// readGames reads the progress file; a game without its closing G line (a
// kill mid-write) is played again.
func readGames(path string) (map[int]searched, error) {
	out := map[int]searched{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pending := map[int][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			continue
		}
		switch {
		case fields[0] == "P" && len(fields) == 9:
			pending[n] = append(pending[n], strings.Join(fields[2:], " "))
		case fields[0] == "G" && len(fields) == 4:
			found, err1 := strconv.Atoi(fields[2])
			ms, err2 := strconv.ParseInt(fields[3], 10, 64)
			if err1 != nil || err2 != nil || found != len(pending[n]) {
				delete(pending, n)
				continue
			}
			out[n] = searched{found: found, millis: ms, puzzles: pending[n]}
			delete(pending, n)
		}
	}
	return out, sc.Err()
}

// write reports the generator's yield and time and keeps up to -keep
// distinct puzzles, by key (a fixed, even spread of the whole run).
func write(ctx context.Context, eng *engine.Engine, o options, all map[int]searched, log io.Writer) error {
	games, found := 0, 0
	var times []int64
	set := map[string]string{}
	for n, s := range all {
		if n >= o.games {
			continue
		}
		games++
		found += s.found
		times = append(times, s.millis)
		for _, line := range s.puzzles {
			set[strings.Fields(line)[0]] = line
		}
	}
	if games == 0 {
		return fmt.Errorf("no games searched")
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	var total int64
	for _, t := range times {
		total += t
	}
	fmt.Fprintf(log, "puzzles: %d games, %d puzzles (%d distinct): %.0f per 1,000 games; search %.2f s a game (median %.2f s), %.0f s per 1,000 games\n",
		games, found, len(set), 1000*float64(found)/float64(games), float64(total)/1000/float64(games),
		float64(times[len(times)/2])/1000, float64(total)/float64(games))
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > o.keep {
		keys = keys[:o.keep]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Built-in puzzles: %d of the %d found in %d self-play games, made by\n", len(keys), len(set), games)
	fmt.Fprintf(&b, "#   go run ./cmd/puzzles -data DIR -games %d -keep %d -max-empties %d -max-moves %d -min-level %d -max-level %d -seed %d\n",
		o.games, o.keep, o.maxEmpties, o.maxMove, o.minLevel, o.maxLevel, o.seed)
	b.WriteString("# key cells(row by row, X black, O white) to-move line result cost game's-move\n")
	for _, k := range keys {
		b.WriteString(set[k] + "\n")
	}
	set2, err := puzzle.ParseSet(b.String())
	if err != nil {
		return fmt.Errorf("the set does not read back: %w", err)
	}
	// Every kept puzzle solved a second way, each move's child on its own.
	verified := 0
	for _, k := range keys {
		if err := puzzle.Verify(ctx, eng, set2[k]); err != nil {
			return fmt.Errorf("puzzle %s failed its second solve: %w", k, err)
		}
		if verified++; verified%10 == 0 {
			fmt.Fprintf(log, "puzzles: %d of %d verified\n", verified, len(keys))
		}
	}
	return os.WriteFile(o.out, []byte(b.String()), 0o644)
}
