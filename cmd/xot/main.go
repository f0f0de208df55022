// Command xot makes xot/xot.txt: random 8-move openings of 8x8 Othello,
// each valued by a fixed-depth search of our engine, kept when the value
// is within -margin discs of even. The same flags give the same file: the
// n-th candidate comes from the seed and n alone, and a search of a fixed
// depth gives the same value on every machine.
//
//	go run ./cmd/xot -data /tmp/xot -candidates 4000 -depth 12 -margin 1.5
//
// It shows its progress and, killed, goes on where it stopped: every
// candidate examined is appended to DATA/examined.txt at once.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/internal/resume"
)

type options struct {
	data, out         string
	candidates, depth int
	margin            float64
	seed              uint64
	workers           int
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "", "folder for the run's progress (required)")
	flag.StringVar(&o.out, "out", "xot/xot.txt", "the openings file to write")
	flag.IntVar(&o.candidates, "candidates", 4000, "random openings to examine")
	flag.IntVar(&o.depth, "depth", 12, "search depth of each value")
	flag.Float64Var(&o.margin, "margin", 1.5, "keep openings valued within this many discs of even")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.IntVar(&o.workers, "workers", 1, "openings valued at once")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "xot:", err)
		os.Exit(1)
	}
}

// candidate is the n-th random opening: eight random legal moves (a side
// with no move would end it early; such a start is skipped).
func candidate(seed uint64, n int) ([]game.Square, bool) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	pos, _ := game.NewPosition(8)
	var moves []game.Square
	for len(moves) < 8 {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			return nil, false
		}
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	return moves, pos.HasMoves()
}

type examined struct {
	n     int
	moves string
	value float64
}

func run(ctx context.Context, o options, log io.Writer) error {
	if o.data == "" {
		return fmt.Errorf("-data is required")
	}
	path := filepath.Join(o.data, "examined.txt")
	done, f, err := resume.Open(o.data, "examined.txt", readExamined)
	if err != nil {
		return err
	}
	defer f.Close()
	eng := engine.New(engine.Options{Searches: o.workers})
	var mu sync.Mutex
	todo := make(chan int)
	var wg sync.WaitGroup
	var failed error
	start, count := time.Now(), 0
	for w := 0; w < o.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range todo {
				moves, ok := candidate(o.seed, n)
				line := fmt.Sprintf("%d - skip\n", n)
				if ok {
					pos := replay(moves)
					v, err := eng.Evaluate(ctx, pos, o.depth)
					if err != nil {
						mu.Lock()
						failed = err
						mu.Unlock()
						return
					}
					line = fmt.Sprintf("%d %s %.2f\n", n, game.FormatTranscript(moves, 8), v.Discs())
				}
				mu.Lock()
				f.WriteString(line)
				count++
				if count%50 == 0 {
					rate := float64(count) / time.Since(start).Seconds()
					fmt.Fprintf(log, "xot: %d of %d examined (%.1f a second, %s left)\n", len(done)+count, o.candidates, rate,
						time.Duration(float64(o.candidates-len(done)-count)/rate*float64(time.Second)).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for n := 0; n < o.candidates && ctx.Err() == nil; n++ {
		if _, ok := done[n]; ok {
			continue
		}
		todo <- n
	}
	close(todo)
	wg.Wait()
	if failed != nil {
		return fmt.Errorf("valuing an opening: %w (progress kept in %s)", failed, path)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stopped; run again to go on (progress in %s)", path)
	}
	all, err := readExamined(path)
	if err != nil {
		return err
	}
	return write(o, all, log)
}

func replay(moves []game.Square) game.Position {
	pos, _ := game.NewPosition(8)
	for _, m := range moves {
		pos, _ = pos.Play(m)
	}
	return pos
}

func readExamined(path string) (map[int]examined, error) {
	out := map[int]examined{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			continue // a line cut by a kill: examined again
		}
		n, err1 := strconv.Atoi(fields[0])
		v, err2 := strconv.ParseFloat(fields[2], 64)
		if err1 != nil || (err2 != nil && fields[2] != "skip") {
			continue
		}
		out[n] = examined{n: n, moves: fields[1], value: v}
	}
	return out, sc.Err()
}

// write keeps the openings within the margin, one per position (a
// transposition keeps its first), in the order examined.
func write(o options, all map[int]examined, log io.Writer) error {
	var keys []int
	for n := range all {
		if n < o.candidates {
			keys = append(keys, n)
		}
	}
	sort.Ints(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "# XOT openings: 8-move starts of 8x8 Othello valued within %.1f discs of even by a depth-%d search\n", o.margin, o.depth)
	fmt.Fprintf(&b, "# of othello-bot's engine (value for Black, to move). Made by:\n")
	fmt.Fprintf(&b, "#   go run ./cmd/xot -data DIR -candidates %d -depth %d -margin %g -seed %d\n", o.candidates, o.depth, o.margin, o.seed)
	seen := map[string]bool{}
	kept := 0
	for _, n := range keys {
		e := all[n]
		if e.moves == "-" || math.Abs(e.value) > o.margin {
			continue
		}
		moves, err := game.ParseTranscript(e.moves, 8)
		if err != nil {
			return fmt.Errorf("candidate %d: %w", n, err)
		}
		key := fmt.Sprint(replay(moves).Cells())
		if seen[key] {
			continue
		}
		seen[key] = true
		fmt.Fprintf(&b, "%s %+.2f\n", e.moves, e.value)
		kept++
	}
	if err := os.WriteFile(o.out, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "xot: kept %d of %d openings within %.1f discs; wrote %s\n", kept, len(keys), o.margin, o.out)
	return nil
}
