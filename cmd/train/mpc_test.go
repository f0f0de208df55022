package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRegressFindsTheLine(t *testing.T) {
	xs := []float64{-300, -100, 0, 50, 400}
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = 0.9*x + 120
	}
	a, b, sigma := regress(xs, ys)
	if math.Abs(a-0.9) > 1e-9 || math.Abs(b-120) > 1e-6 || sigma > 1e-6 {
		t.Errorf("a=%v b=%v sigma=%v, want 0.9, 120, 0", a, b, sigma)
	}
	ys[0] += 100
	if _, _, sigma := regress(xs, ys); sigma <= 0 {
		t.Errorf("a residual left no spread")
	}
}

// `mpc -exact` fits shallow searches against exact solves: one line per
// empties and shallow depth, the shallow value predicting the exact one
// (a slope near 1, a spread of a few discs), and a run again with the
// same flags finds everything done and writes the same table.
func TestMPCExactFitsTheEndgame(t *testing.T) {
	if raceEnabled {
		t.Skip("solves 40 positions: too slow under the race detector")
	}
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "endmpc.txt")
	args := []string{"mpc", "-exact", "-data", dir, "-out", out, "-positions", "40", "-depth", "3", "-min-empties", "12", "-max-empties", "12"}
	var log bytes.Buffer
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, l := range strings.Split(string(first), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		lines++
		a, _ := strconv.ParseFloat(f[2], 64)
		sigma, _ := strconv.ParseFloat(f[4], 64)
		n, _ := strconv.Atoi(f[5])
		if f[0] != "12" || f[1] != strconv.Itoa(lines) || a < 0.5 || a > 1.5 || sigma <= 0 || sigma > 3000 || n < 30 {
			t.Errorf("line %q", l)
		}
	}
	if lines != 3 {
		t.Errorf("%d fits, want one per depth 1-3:\n%s", lines, first)
	}
	progress, _ := os.ReadFile(filepath.Join(dir, "endmpc.txt"))
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(out)
	if after, _ := os.ReadFile(filepath.Join(dir, "endmpc.txt")); !bytes.Equal(after, progress) || !bytes.Equal(again, first) {
		t.Errorf("the second run searched again or fitted otherwise")
	}
	bad := []string{"mpc", "-exact", "-data", dir, "-out", out, "-depth", "12", "-min-empties", "12", "-max-empties", "20"}
	if err := run(context.Background(), bad, &log); err == nil {
		t.Errorf("-exact with a shallow depth reaching the end was taken")
	}
}
