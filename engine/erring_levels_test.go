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
