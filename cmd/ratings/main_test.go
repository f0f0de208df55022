package main

import (
	"math"
	"strings"
	"testing"
)

// A ladder whose every step scores 75% (an Elo gap of 191) fits to steps
// of about that size (a little less: the virtual draws pull together),
// anchored at level 1; arena's decorations and a program's path go.
func TestFitALadder(t *testing.T) {
	table := `| match | games | wins | losses | draws | score | avg disc margin | seconds |
|---|---|---|---|---|---|---|---|
| level 2 vs level 1 | 400 | 300 | 100 | 0 | 75.0% | +1.0 | 0 |
| level 3 vs level 2 | 400 | 290 | 90 | 20 | 75.0% | +1.0 | 0 |
| level 3 (ProbCut 1.5) vs /usr/games/gtp-rhino -l 5 | 40 | 20 | 20 | 0 | 50.0% | +0.0 | 9 |
`
	rs, err := parse(strings.NewReader(table))
	if err != nil || len(rs) != 3 {
		t.Fatalf("%v %v", rs, err)
	}
	if rs[2].a != "level 3" || rs[2].b != "gtp-rhino -l 5" {
		t.Fatalf("names: %q %q", rs[2].a, rs[2].b)
	}
	r, err := fit(rs)
	if err != nil {
		t.Fatal(err)
	}
	if r["level 1"] != 500 {
		t.Errorf("anchor: %v", r["level 1"])
	}
	for _, p := range []string{"level 2", "level 3"} {
		step := r[p] - r[map[string]string{"level 2": "level 1", "level 3": "level 2"}[p]]
		if step < 170 || step > 195 {
			t.Errorf("%s: a step of %.0f, want about 191", p, step)
		}
	}
	if math.Abs(r["gtp-rhino -l 5"]-r["level 3"]) > 1 {
		t.Errorf("an even match: %v", r)
	}
	// A 100% score stays finite.
	r, err = fit([]result{{"level 2", "level 1", 50, 0, 0}})
	if err != nil || math.IsInf(r["level 2"], 0) || r["level 2"] < 900 {
		t.Errorf("a clean sweep: %v %v", r, err)
	}
	if _, err := parse(strings.NewReader("| level 2 vs level 1 | 10 | 3 | 3 | 3 | x | x | x |")); err == nil {
		t.Error("a line that does not add up was read")
	}
	if _, err := fit([]result{{"level 3", "level 2", 5, 5, 0}}); err == nil {
		t.Error("a fit without the anchor")
	}
}

// Arena's loss tables add up over files by games, and the levels' table
// puts each level's fitted rating, its step, its games and opponents and
// its losses beside their budgets; the loss lines are not read as matches.
func TestLossesAndTheTable(t *testing.T) {
	one := `| match | games | wins | losses | draws | score | avg disc margin | seconds |
|---|---|---|---|---|---|---|---|
| level 2 vs level 1 | 400 | 300 | 100 | 0 | 75.0% | +1.0 | 0 |

| level | games | loss per game: target | measured | largest loss: cap | measured |
|---|---|---|---|---|---|
| 2 | 400 | 545 | 240.0 | none | 70.5 |
`
	two := `| level | games | loss per game: target | measured | largest loss: cap | measured |
|---|---|---|---|---|---|
| 2 | 100 | 545 | 265.0 | none | 80.0 |
`
	rs, err := parse(strings.NewReader(one))
	if err != nil || len(rs) != 1 {
		t.Fatalf("matches: %v %v", rs, err)
	}
	l1, err1 := parseLosses(strings.NewReader(one))
	l2, err2 := parseLosses(strings.NewReader(two))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	sum := l1[2].add(l2[2])
	if sum.games != 500 || math.Abs(sum.total/500-245) > 1e-9 || sum.largest != 80 || sum.target != "545" || sum.limit != "none" {
		t.Errorf("summed: %+v", sum)
	}
	r, _ := fit(rs)
	var out strings.Builder
	writeTable(&out, r, rs, map[int]loss{2: sum})
	for _, want := range []string{"| 1 | 500 | — | 400 | level 2 (400) | — | — | — | — |", "| 2 | 690 | +190 | 400 | level 1 (400) | 545 | 245.0 | none | 80.0 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := parseLosses(strings.NewReader("| 2 | x | 545 | 1 | none | 2 |")); err == nil {
		t.Error("a broken loss line was read")
	}
}
