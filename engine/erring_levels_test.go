package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"othello-bot/game"
)

// Each erring level plays legal moves, never loses more than its cap on
// one move (as its own search values them), and over the same positions a
// weaker level loses more on average than the next stronger one does.
func TestErringLevelsLoseByTheirBudget(t *testing.T) {
	e := New(Options{Searches: 1})
	rng := rand.New(rand.NewPCG(7, 7))
	var positions []game.Position
	for len(positions) < 150 {
		positions = append(positions, randomPosition(t, 8, 14+rng.IntN(40), rng))
	}
	mean := map[int]float64{}
	for level := 2; level <= 15; level++ {
		b := Budget(level)
		if b.PerGame <= 0 {
			t.Fatalf("level %d has no budget", level)
		}
		var sum int
		for i, p := range positions {
			r, err := e.Move(context.Background(), p, level, rand.New(rand.NewPCG(uint64(i), uint64(level))))
			if err != nil {
				t.Fatal(err)
			}
			if p.Check(r.Move) != nil {
				t.Fatalf("level %d: illegal %s", level, r.Move)
			}
			if r.Loss < 0 || b.Cap > 0 && float64(r.Loss) > b.Cap*100 {
				t.Errorf("level %d lost %d hundredths on one move (cap %g)", level, r.Loss, b.Cap)
			}
			sum += r.Loss
		}
		mean[level] = float64(sum) / float64(len(positions)) / 100
	}
	for level := 3; level <= 15; level++ {
		// Neighbours' budgets differ by a fifth or more; 150 draws each
		// keep the means apart, so allow only a small overlap.
		if mean[level] > mean[level-1]*1.05 {
			t.Errorf("level %d loses %.2f a move on average, level %d only %.2f", level, mean[level], level-1, mean[level-1])
		}
	}
	if mean[15] >= mean[2]/4 {
		t.Errorf("the strongest erring level loses %.2f a move, the weakest %.2f", mean[15], mean[2])
	}
	t.Logf("mean loss a move by level: %v", mean)
}

// An erring level plays on boards beyond bitboards too (a shallower
// search values the moves there), and reports its loss.
func TestErringLevelsOnALargeBoard(t *testing.T) {
	e := New(Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5 {
		p := randomPosition(t, 14, 150, rng)
		r, err := e.Move(context.Background(), p, 8, rng)
		if err != nil || p.Check(r.Move) != nil {
			t.Fatalf("14x14: %v %v", r, err)
		}
		if r.Loss < 0 {
			t.Errorf("loss %d", r.Loss)
		}
	}
}

func TestFromOldLevel(t *testing.T) {
	prev := 0
	for old := 1; old <= 10; old++ {
		n := FromOldLevel(old)
		if n < prev || n < MinLevel || n > MaxLevel {
			t.Errorf("old level %d maps to %d (the one before to %d)", old, n, prev)
		}
		prev = n
	}
	if FromOldLevel(10) != MaxLevel || FromOldLevel(1) != 1 || FromOldLevel(0) != 0 || FromOldLevel(11) != 0 {
		t.Error("the ends of the old scale")
	}
	// The old search levels 6-10 are the new 16-20, unchanged.
	for old := 6; old <= 10; old++ {
		if FromOldLevel(old) != old+10 || Budget(old+10).PerGame != 0 {
			t.Errorf("old level %d", old)
		}
	}
}

// habitsOf is a fixed count of moves for one position.
type habitsOf struct {
	at    game.Position
	moves map[game.Square]int
}

func (h habitsOf) Moves(p game.Position) map[game.Square]int {
	if p.Equal(h.at) {
		return h.moves
	}
	return nil
}

// In the opening an erring level draws from how people opened, as often as
// each move was played; without habits, or past the opening, it errs by
// its budget.
func TestOpeningsFromHabits(t *testing.T) {
	e := New(Options{Searches: 1})
	start, _ := game.NewPosition(8)
	f5, d3 := game.Square{Col: 5, Row: 4}, game.Square{Col: 3, Row: 2}
	e.SetHabits(habitsOf{start, map[game.Square]int{f5: 3, d3: 1}})
	rng := rand.New(rand.NewPCG(5, 5))
	seen := map[game.Square]int{}
	for range 400 {
		r, err := e.Move(context.Background(), start, 10, rng)
		if err != nil {
			t.Fatal(err)
		}
		seen[r.Move]++
	}
	if len(seen) != 2 || seen[f5] < 260 || seen[f5] > 340 {
		t.Errorf("from habits 3:1, chose %v", seen)
	}
	e.SetHabits(nil)
	seen = map[game.Square]int{}
	for range 200 {
		r, _ := e.Move(context.Background(), start, 10, rng)
		seen[r.Move]++
	}
	if len(seen) != 4 {
		t.Errorf("without habits the four equal first moves should all come: %v", seen)
	}
}

// Search is a fixed-depth move: legal, the solver's best within its solve
// reach, and refused for a depth that is no search.
func TestSearchAtADepth(t *testing.T) {
	e := New(Options{Searches: 1})
	rng := rand.New(rand.NewPCG(8, 8))
	for range 20 {
		p := randomPosition(t, 8, 8+rng.IntN(6), rng)
		r, err := e.Search(context.Background(), p, 4, 14)
		if err != nil || p.Check(r.Move) != nil {
			t.Fatalf("search: %v %v", r, err)
		}
		best, err := e.Solve(context.Background(), p)
		if err != nil || r.Eval != best.Eval {
			t.Errorf("within its solve reach: %v, the solver %v (%v)", r.Eval, best.Eval, err)
		}
	}
	p, _ := game.NewPosition(8)
	if _, err := e.Search(context.Background(), p, 0, 0); err == nil {
		t.Error("depth 0 searched")
	}
	if d, s, ok := OldSearch(5); !ok || d != 4 || s != 8 {
		t.Errorf("the old level 5: %d %d %v", d, s, ok)
	}
}
