package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"othello-bot/engine/pattern"
	"othello-bot/game"
)

func gen(t *testing.T, dir string, games int) string {
	t.Helper()
	var log bytes.Buffer
	exact := "10"
	if raceEnabled {
		exact = "4" // the race detector makes the solver ten times slower
	}
	args := []string{"gen", "-data", dir, "-games", strconv.Itoa(games), "-exact", exact, "-level", "3", "-seed", "7"}
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatalf("gen: %v\n%s", err, log.String())
	}
	return log.String()
}

func sortedGames(t *testing.T, dir string) []record {
	t.Helper()
	g, _, err := readGames(filepath.Join(dir, "games.bin"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(g, func(i, j int) bool { return g[i].index < g[j].index })
	return g
}

// A run stopped part way (even mid-record) and started again ends with the
// same games as one that ran straight through.
func TestGenResumes(t *testing.T) {
	straight, resumed := t.TempDir(), t.TempDir()
	gen(t, straight, 6)
	gen(t, resumed, 3)
	path := filepath.Join(resumed, "games.bin")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{5, 0, 0, 0, 40, 19}) // a torn record
	f.Close()
	out := gen(t, resumed, 6)
	if !strings.Contains(out, "holds 3 games") {
		t.Errorf("the second run did not start from the 3 games: %s", out)
	}
	a, b := sortedGames(t, straight), sortedGames(t, resumed)
	if len(a) != 6 || len(b) != 6 {
		t.Fatalf("%d and %d games, want 6 each", len(a), len(b))
	}
	start, _ := game.NewPosition(8)
	for i := range a {
		if a[i].index != b[i].index || !slices.Equal(a[i].moves, b[i].moves) || a[i].margin != b[i].margin {
			t.Fatalf("game %d differs between the runs", a[i].index)
		}
		// Every game is legal and over, and its margin is its result.
		var moves []game.Square
		for _, x := range a[i].moves {
			moves = append(moves, game.Square{Col: int(x) % 8, Row: int(x) / 8})
		}
		g, err := game.Replay(start, moves)
		if err != nil || !g.Over() {
			t.Fatalf("game %d does not replay to a finished game: %v", a[i].index, err)
		}
		bl, wh := g.Position().Count()
		if d := bl - wh; d > 0 && int(a[i].margin) < d || d < 0 && int(a[i].margin) > d || d == 0 && a[i].margin != 0 {
			t.Errorf("game %d: margin %d but the board is %d-%d", a[i].index, a[i].margin, bl, wh)
		}
	}
}

func TestFitWritesWeightsThatLearnedSomething(t *testing.T) {
	dir := t.TempDir()
	gen(t, dir, 8)
	out := filepath.Join(dir, "w.bin")
	var log bytes.Buffer
	if err := run(context.Background(), []string{"fit", "-data", dir, "-out", out, "-epochs", "20", "-holdout", "4"}, &log); err != nil {
		t.Fatalf("fit: %v\n%s", err, log.String())
	}
	t.Log(log.String())
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pattern.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for s := 0; s < pattern.Stages; s++ {
		for _, v := range w.Stage(s) {
			if v != 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("every weight is zero")
	}
	// The checkpoint lets a second run with the same settings skip every
	// stage; other settings start afresh.
	log.Reset()
	if err := run(context.Background(), []string{"fit", "-data", dir, "-out", out, "-epochs", "20", "-holdout", "4"}, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "checkpoint after stage 15") {
		t.Errorf("the second fit did not go on from the checkpoint:\n%s", log.String())
	}
	log.Reset()
	if err := run(context.Background(), []string{"fit", "-data", dir, "-out", out, "-epochs", "20", "-holdout", "4", "-l2", "3"}, &log); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "checkpoint") {
		t.Errorf("a fit with another l2 went on from the checkpoint:\n%s", log.String())
	}
}

// Two runs' games fit together: the positions of both are used, and the
// set of folders is part of what a checkpoint was made from.
func TestFitSeveralRuns(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	gen(t, first, 3)
	gen(t, second, 2)
	positions := func(dirs ...string) int {
		n := 0
		for _, d := range dirs {
			for _, g := range sortedGames(t, d) {
				n += len(g.moves)
			}
		}
		return n
	}
	out := filepath.Join(t.TempDir(), "w.bin")
	var log bytes.Buffer
	if err := run(context.Background(), []string{"fit", "-data", first + "," + second, "-out", out, "-epochs", "2"}, &log); err != nil {
		t.Fatalf("fit: %v\n%s", err, log.String())
	}
	if want := fmt.Sprintf("fit: 5 games, %d positions", positions(first, second)); !strings.Contains(log.String(), want) {
		t.Errorf("want %q in:\n%s", want, log.String())
	}
	log.Reset()
	if err := run(context.Background(), []string{"fit", "-data", first, "-out", out, "-epochs", "2"}, &log); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "checkpoint") {
		t.Errorf("a fit of the first run alone went on from the checkpoint of both:\n%s", log.String())
	}
	if err := run(context.Background(), []string{"fit", "-data", first + "," + t.TempDir(), "-out", out}, &log); err == nil || !strings.Contains(err.Error(), "holds no games") {
		t.Errorf("an empty second folder: %v", err)
	}
	if err := run(context.Background(), []string{"fit", "-data", first + ",", "-out", out}, &log); err == nil || !strings.Contains(err.Error(), "empty folder") {
		t.Errorf("a trailing comma: %v", err)
	}
}

// -from refines a weights file: every stage starts from its and is pulled
// back to it, so with a strong pull the fit changes it little, and a stage
// without positions keeps its weights whole.
func TestFitFromWeights(t *testing.T) {
	dir := t.TempDir()
	gen(t, dir, 3)
	base := pattern.NewWeights()
	for s := 0; s < pattern.Stages; s++ {
		for i := range base.Stage(s) {
			base.Stage(s)[i] = int16(100 + s)
		}
	}
	from := filepath.Join(dir, "from.bin")
	if err := writeWeights(from, base); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "w.bin")
	var log bytes.Buffer
	if err := run(context.Background(), []string{"fit", "-data", dir, "-out", out, "-epochs", "5", "-from", from, "-l2", "1000000"}, &log); err != nil {
		t.Fatalf("fit: %v\n%s", err, log.String())
	}
	w, err := loadWeights(out)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < pattern.Stages; s++ {
		for i, v := range w.Stage(s) {
			if d := int(v) - (100 + s); d < -2 || d > 2 {
				t.Fatalf("stage %d weight %d is %d, from %d: the pull to -from's weights did not hold", s, i, v, 100+s)
			}
		}
	}
	if err := run(context.Background(), []string{"fit", "-data", dir, "-out", out, "-from", filepath.Join(dir, "none.bin")}, &log); err == nil {
		t.Error("a missing -from file was taken")
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		nil, {"train"}, {"gen"}, {"fit", "-data", t.TempDir()}, {"fit", "-data", t.TempDir(), "-out", "x"},
		{"gen", "-data", t.TempDir(), "-exact", "40"},
	} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
