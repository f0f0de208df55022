// This file is the fit command: labels for every position of the run's
// games and a least-squares fit of the pattern weights, stage by stage from
// the end of the game, checkpointed after each stage.

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/pattern"
	"othello-bot/game"
	"othello-bot/game/bitboard"
)

type fitOptions struct {
	dir, out, from                  string
	depth, workers, epochs, holdout int
	l2                              float64
}

// sample is one position of a game, from the side to move's point of view.
type sample struct {
	pos     game.Position
	p, o    uint64
	empties int
	exact   bool
	target  float64 // final margin in hundredths of a disc
	held    bool    // held out of the fit to measure it
}

// samples replays the games into their positions, skipping the passes
// (a position whose side to move must pass is its opponent's, negated).
func samples(games []record, holdout int) ([]sample, error) {
	var out []sample
	start, err := game.NewPosition(8)
	if err != nil {
		return nil, err
	}
	for _, r := range games {
		g := game.NewGame(start)
		for ply, x := range r.moves {
			pos := g.Position()
			b, w, _ := pos.Bitboards()
			p, o, sign := b, w, 1.0
			if pos.ToMove() == game.White {
				p, o, sign = w, b, -1
			}
			e := pos.Empties()
			out = append(out, sample{
				pos: pos, p: p, o: o, empties: e,
				exact:  e <= int(r.exactFrom),
				target: sign * float64(r.margin) * 100,
				held:   holdout > 0 && int(r.index)%holdout == 0,
			})
			if _, err := g.Play(game.Square{Col: int(x) % 8, Row: int(x) / 8}); err != nil {
				return nil, fmt.Errorf("game %d ply %d: %w", r.index, ply+1, err)
			}
		}
	}
	return out, nil
}

func fit(ctx context.Context, o fitOptions, log io.Writer) error {
	if o.dir == "" || o.out == "" {
		return errors.New("fit: -data DIR and -out FILE are required")
	}
	if o.depth < 1 || o.workers < 1 || o.epochs < 1 {
		return errors.New("fit: -depth, -workers and -epochs must be at least 1")
	}
	// Several runs' games may be fitted together (a later round's beside
	// the first's): -data lists their folders, the first holds the
	// checkpoint.
	dirs := strings.Split(o.dir, ",")
	var games []record
	for _, dir := range dirs {
		if dir == "" {
			return fmt.Errorf("fit: -data %q names an empty folder: separate folders with single commas", o.dir)
		}
		g, _, err := readGames(filepath.Join(dir, "games.bin"))
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		if len(g) == 0 {
			return fmt.Errorf("fit: %s holds no games: run gen first", dir)
		}
		games = append(games, g...)
	}
	all, err := samples(games, o.holdout)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	fmt.Fprintf(log, "fit: %d games, %d positions\n", len(games), len(all))

	// A checkpoint holds the weights of the stages fitted so far, with
	// what they were fitted from: a run with other data or settings
	// starts afresh.
	ckpt, ckptStage := filepath.Join(dirs[0], "fit-checkpoint.bin"), filepath.Join(dirs[0], "fit-checkpoint.stage")
	settings := fmt.Sprintf("data=%s games=%d depth=%d epochs=%d holdout=%d l2=%g from=%s", o.dir, len(games), o.depth, o.epochs, o.holdout, o.l2, o.from)
	// With -from, each stage starts from that file's and is pulled back
	// to it: the new games refine weights fitted on others before.
	var from *pattern.Weights
	if o.from != "" {
		if from, err = loadWeights(o.from); err != nil {
			return fmt.Errorf("fit: -from: %w", err)
		}
		if from == nil {
			return fmt.Errorf("fit: -from wants a weights file")
		}
	}
	w := pattern.NewWeights()
	first := 0
	if b, err := os.ReadFile(ckptStage); err == nil {
		stage, from, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		n, err := strconv.Atoi(stage)
		if cw, werr := loadWeights(ckpt); err == nil && werr == nil && from == settings {
			w, first = cw, n+1
			fmt.Fprintf(log, "fit: going on from the checkpoint after stage %d\n", n)
		}
	}
	eng := engine.New(engine.Options{Searches: o.workers, Weights: w, MoveTime: time.Minute})
	byStage := make([][]*sample, pattern.Stages)
	for i := range all {
		s := &all[i]
		byStage[pattern.Stage(s.empties)] = append(byStage[pattern.Stage(s.empties)], s)
	}
	fmt.Fprintf(log, "stage  empties  positions  searched  train-rmse  held-rmse  held-n  (discs)\n")
	for st := first; st < pattern.Stages; st++ {
		list := byStage[st]
		if len(list) == 0 {
			switch {
			case from != nil:
				copy(w.Stage(st), from.Stage(st))
			case st > 0:
				copy(w.Stage(st), w.Stage(st-1))
			}
			continue
		}
		searched, err := label(ctx, eng, list, o.depth, o.workers, log)
		if err != nil {
			return fmt.Errorf("fit: stage %d: %w", st, err)
		}
		var prev []int16
		switch {
		case from != nil:
			prev = from.Stage(st)
		case st > 0:
			prev = w.Stage(st - 1)
		}
		trainErr, heldErr, heldN := fitStage(list, w.Stage(st), prev, o.epochs, o.l2)
		fmt.Fprintf(log, "%5d  %2d-%2d  %9d  %8d  %10.2f  %9.2f  %6d\n",
			st, st*pattern.StageWidth, st*pattern.StageWidth+pattern.StageWidth-1, len(list), searched, trainErr/100, heldErr/100, heldN)
		if err := writeWeights(ckpt, w); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		if err := os.WriteFile(ckptStage, []byte(strconv.Itoa(st)+" "+settings+"\n"), 0o644); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	if err := writeWeights(o.out, w); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	fmt.Fprintf(log, "fit: wrote %s\n", o.out)
	return nil
}

// label gives the positions not on a perfect-play line the value of a
// search of depth plies, whose leaves the stages fitted so far evaluate.
func label(ctx context.Context, eng *engine.Engine, list []*sample, depth, workers int, log io.Writer) (int, error) {
	var todo []*sample
	for _, s := range list {
		if !s.exact {
			todo = append(todo, s)
		}
	}
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	t0 := time.Now()
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(todo)) {
					return
				}
				s := todo[i]
				v, err := eng.Evaluate(ctx, s.pos, depth)
				if err != nil {
					mu.Lock()
					firstErr = errors.Join(firstErr, err)
					mu.Unlock()
					return
				}
				s.target = float64(v.Cents)
				if n := done.Add(1); n%20000 == 0 {
					fmt.Fprintf(log, "  labelled %d/%d (%.0f/s)\n", n, len(todo), float64(n)/time.Since(t0).Seconds())
				}
			}
		}()
	}
	wg.Wait()
	return len(todo), firstErr
}

// fitStage fits one stage's table to its samples by gradient descent on
// the squared error, each weight's step scaled by how often it occurs. It
// starts from the previous (earlier) stage's table and is pulled back to it
// with strength l2 (ridge regression), so configurations the data shows
// rarely or never stay near that stage's value. It returns the root mean
// square errors on the fitted and the held-out samples, and the latter's
// count.
func fitStage(list []*sample, table, prev []int16, epochs int, l2 float64) (trainRMSE, heldRMSE float64, heldN int) {
	type row struct {
		f      [pattern.Features]uint32
		target float64
	}
	var train, held []row
	for _, s := range list {
		var r row
		mp := bits.OnesCount64(bitboard.Moves(s.p, s.o, ^uint64(0)))
		mo := bits.OnesCount64(bitboard.Moves(s.o, s.p, ^uint64(0)))
		pattern.Indices(s.p, s.o, mp, mo, s.empties, &r.f)
		for i, v := range r.f {
			r.f[i] = pattern.Canonical(v)
		}
		r.target = s.target
		if s.held {
			held = append(held, r)
		} else {
			train = append(train, r)
		}
	}
	w := make([]float64, len(table))
	if prev != nil {
		for i, v := range prev {
			w[i] = float64(v)
		}
	}
	w0 := append([]float64(nil), w...)
	count := make([]float64, len(table))
	for _, r := range train {
		for _, f := range r.f {
			count[f]++
		}
	}
	grad := make([]float64, len(table))
	predict := func(r *row) float64 {
		s := 0.0
		for _, f := range r.f {
			s += w[f]
		}
		return s
	}
	const rate, damping = 2.0 / pattern.Features, 2.0
	for ep := 0; ep < epochs; ep++ {
		clear(grad)
		for i := range train {
			e := predict(&train[i]) - train[i].target
			for _, f := range train[i].f {
				grad[f] += e
			}
		}
		for f, g := range grad {
			if count[f] > 0 {
				g += l2 * (w[f] - w0[f])
				w[f] -= rate * g / (count[f] + l2 + damping)
			}
		}
	}
	for i := range table {
		c := pattern.Canonical(uint32(i))
		table[i] = int16(max(-30000, min(30000, math.Round(w[c]))))
	}
	// Errors of the table as the engine will use it: rounded.
	rmse := func(rows []row) float64 {
		if len(rows) == 0 {
			return 0
		}
		sum := 0.0
		for i := range rows {
			s := 0.0
			for _, f := range rows[i].f {
				s += float64(table[f])
			}
			d := s - rows[i].target
			sum += d * d
		}
		return math.Sqrt(sum / float64(len(rows)))
	}
	return rmse(train), rmse(held), len(held)
}

// writeWeights replaces path atomically.
func writeWeights(path string, w *pattern.Weights) error {
	var buf bytes.Buffer
	if err := w.Encode(&buf); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
