package main

// This file is `train mpc`: the data and fit of Multi-ProbCut (Buro), the
// regression by which a shallow search predicts a deep one. It samples
// midgame positions from seeded games (random openings, then the engine
// with an occasional random move), values each by fixed-depth searches of
// every depth up to -depth, and fits, per stage (empty squares) and per
// pair of depths, deep = a·shallow + b with the spread σ of what is left.
// The values are appended to DIR/mpc.txt as they come, so a killed run goes
// on where it stopped; the same flags give the same positions.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/internal/resume"
)

type mpcOptions struct {
	dir, out   string
	positions  int
	depth      int
	seed       uint64
	minEmpties int
	maxEmpties int
	// exact fits the selective endgame search instead: the shallow
	// searches predict the exact result, solved (engine/endmpc.txt).
	exact bool
}

// file is the run's progress file in DIR.
func (o mpcOptions) file() string {
	if o.exact {
		return "endmpc.txt"
	}
	return "mpc.txt"
}

// width is how many values each sampled position has: one per depth, and
// the exact result last when fitting the endgame.
func (o mpcOptions) width() int {
	if o.exact {
		return o.depth + 1
	}
	return o.depth
}

// mpcPosition is the n-th sampled position: a random opening of 2-10
// moves, then level 4 with one move in ten random, stopped at a number of
// empties drawn between the bounds.
func mpcPosition(ctx context.Context, eng *engine.Engine, o mpcOptions, n int) (game.Position, bool, error) {
	rng := rand.New(rand.NewPCG(o.seed, uint64(n)))
	p, _ := game.NewPosition(8)
	stopAt := o.minEmpties + rng.IntN(o.maxEmpties-o.minEmpties+1)
	opening := 2 + rng.IntN(9)
	for ply := 0; p.Empties() > stopAt; ply++ {
		if p.MustPass() {
			p = p.Pass()
		}
		if p.GameOver() {
			return p, false, nil
		}
		moves := p.LegalMoves()
		m := moves[rng.IntN(len(moves))]
		if ply >= opening && rng.IntN(10) != 0 {
			r, err := eng.Search(ctx, p, 3, 6) // the old level 4 (engine.OldSearch)
			if err != nil {
				return p, false, err
			}
			m = r.Move
		}
		next, err := p.Play(m)
		if err != nil {
			return p, false, err
		}
		p = next
	}
	if p.MustPass() {
		p = p.Pass()
	}
	return p, !p.GameOver(), nil
}

func mpcRun(ctx context.Context, o mpcOptions, log io.Writer) error {
	if o.dir == "" || o.out == "" {
		return fmt.Errorf("-data and -out are required")
	}
	if o.minEmpties < 12 || o.maxEmpties > 59 || o.minEmpties > o.maxEmpties || o.depth < 2 || o.depth > 14 {
		return fmt.Errorf("empties %d..%d and depth %d: want 12 <= min <= max <= 59, 2 <= depth <= 14", o.minEmpties, o.maxEmpties, o.depth)
	}
	if o.exact && (o.maxEmpties > 26 || o.depth >= o.minEmpties) {
		return fmt.Errorf("-exact solves every position: want -max-empties <= 26 and -depth below -min-empties")
	}
	path := filepath.Join(o.dir, o.file())
	done, f, err := resume.Open(o.dir, o.file(), func(path string) (map[int]mpcSample, error) { return readMPC(path, o.width()) })
	if err != nil {
		return err
	}
	defer f.Close()
	eng := engine.New(engine.Options{Searches: 1})
	started, count := time.Now(), 0
	for n := 0; n < o.positions && ctx.Err() == nil; n++ {
		if _, ok := done[n]; ok {
			continue
		}
		p, ok, err := mpcPosition(ctx, eng, o, n)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%d %d skip\n", n, p.Empties())
		if ok {
			vals := make([]string, o.depth)
			for d := 1; d <= o.depth; d++ {
				v, err := eng.Evaluate(ctx, p, d)
				if err != nil {
					return fmt.Errorf("position %d depth %d: %w (progress kept in %s)", n, d, err, path)
				}
				vals[d-1] = strconv.Itoa(v.Cents)
			}
			if o.exact {
				r, err := eng.Solve(ctx, p)
				if err != nil {
					return fmt.Errorf("position %d solved: %w (progress kept in %s)", n, err, path)
				}
				vals = append(vals, strconv.Itoa(r.Eval.Cents))
			}
			line = fmt.Sprintf("%d %d %s\n", n, p.Empties(), strings.Join(vals, " "))
		}
		if _, err := f.WriteString(line); err != nil {
			return err
		}
		if count++; count%25 == 0 {
			rate := time.Since(started) / time.Duration(count)
			fmt.Fprintf(log, "mpc: %d of %d positions (%s each, %s left)\n", len(done)+count, o.positions,
				rate.Round(time.Millisecond), (rate * time.Duration(o.positions-len(done)-count)).Round(time.Second))
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("stopped; run again to go on (progress in %s)", path)
	}
	all, err := readMPC(path, o.width())
	if err != nil {
		return err
	}
	if o.exact {
		return writeEndMPC(o, all, log)
	}
	return writeMPC(o, all, log)
}

// mpcSample is one position's empties and its values by depth (centidiscs).
type mpcSample struct {
	empties int
	values  []float64
}

func readMPC(path string, width int) (map[int]mpcSample, error) {
	out := map[int]mpcSample{}
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
		if len(fields) < 3 {
			continue // cut by a kill: sampled again
		}
		n, err1 := strconv.Atoi(fields[0])
		e, err2 := strconv.Atoi(fields[1])
		if err1 != nil || err2 != nil {
			continue
		}
		if fields[2] == "skip" {
			out[n] = mpcSample{empties: e}
			continue
		}
		if len(fields) != 2+width {
			continue // another -depth's run, or cut short
		}
		s := mpcSample{empties: e}
		for _, v := range fields[2:] {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				break
			}
			s.values = append(s.values, x)
		}
		if len(s.values) == width {
			out[n] = s
		}
	}
	return out, sc.Err()
}

// mpcStages are the stages the regression is fitted for, by empty squares.
var mpcStages = [][2]int{{12, 23}, {24, 35}, {36, 47}, {48, 59}}

// writeMPC fits every (stage, shallow, deep) with deep-shallow of 2 to 6
// and shallow at least 1, and writes the table.
func writeMPC(o mpcOptions, all map[int]mpcSample, log io.Writer) error {
	b := o.header("Multi-ProbCut regressions: deep = a*shallow + b, residual spread sigma (centidiscs), by stage",
		"empties-from empties-to shallow deep a b sigma samples")
	for _, st := range mpcStages {
		for deep := 3; deep <= o.depth; deep++ {
			for shallow := max(1, deep-6); shallow <= deep-2; shallow++ {
				xs, ys := pairs(all, func(e int) bool { return e >= st[0] && e <= st[1] }, shallow-1, deep-1)
				if len(xs) < 30 {
					continue
				}
				a, c, sigma := regress(xs, ys)
				fmt.Fprintf(b, "%d %d %d %d %.4f %.1f %.1f %d\n", st[0], st[1], shallow, deep, a, c, sigma, len(xs))
			}
		}
	}
	fmt.Fprintf(log, "mpc: %d positions; table written to %s\n", len(all), o.out)
	return os.WriteFile(o.out, []byte(b.String()), 0o644)
}

// writeEndMPC fits, for every number of empties and shallow depth, exact
// = a·shallow + b, and writes the table of the selective endgame search.
func writeEndMPC(o mpcOptions, all map[int]mpcSample, log io.Writer) error {
	b := o.header("Selective endgame regressions: exact = a*shallow + b, residual spread sigma (centidiscs)",
		"empties shallow a b sigma samples")
	for e := o.minEmpties; e <= o.maxEmpties; e++ {
		for shallow := 1; shallow <= o.depth; shallow++ {
			xs, ys := pairs(all, func(n int) bool { return n == e }, shallow-1, o.depth)
			if len(xs) < 30 {
				continue
			}
			a, c, sigma := regress(xs, ys)
			fmt.Fprintf(b, "%d %d %.4f %.1f %.1f %d\n", e, shallow, a, c, sigma, len(xs))
		}
	}
	fmt.Fprintf(log, "mpc: %d positions; endgame table written to %s\n", len(all), o.out)
	return os.WriteFile(o.out, []byte(b.String()), 0o644)
}

// header begins a table: what it holds, the command that made it, and
// its columns.
func (o mpcOptions) header(what, columns string) *strings.Builder {
	var b strings.Builder
	exact := ""
	if o.exact {
		exact = " -exact"
	}
	fmt.Fprintf(&b, "# %s, made by\n", what)
	fmt.Fprintf(&b, "#   go run ./cmd/train mpc%s -data DIR -positions %d -depth %d -min-empties %d -max-empties %d -seed %d\n",
		exact, o.positions, o.depth, o.minEmpties, o.maxEmpties, o.seed)
	fmt.Fprintf(&b, "# %s\n", columns)
	return &b
}

// pairs are the values x and y of the sampled positions whose empties
// keep, in the order the positions were sampled.
func pairs(all map[int]mpcSample, keep func(empties int) bool, x, y int) (xs, ys []float64) {
	keys := make([]int, 0, len(all))
	for n := range all {
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, n := range keys {
		if s := all[n]; s.values != nil && keep(s.empties) {
			xs, ys = append(xs, s.values[x]), append(ys, s.values[y])
		}
	}
	return xs, ys
}

// regress is the least-squares line y = a·x + b and the standard deviation
// of the residuals.
func regress(xs, ys []float64) (a, b, sigma float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
		sxx, sxy = sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 1, 0, math.Inf(1)
	}
	a = (n*sxy - sx*sy) / den
	b = (sy - a*sx) / n
	var ss float64
	for i := range xs {
		r := ys[i] - (a*xs[i] + b)
		ss += r * r
	}
	return a, b, math.Sqrt(ss / math.Max(1, n-2))
}
