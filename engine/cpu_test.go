package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/game"
)

// The engine counts its searches' CPU, and nothing for a level that does
// not search: a fixed-depth search costs CPU whatever the machine's load,
// and a level-1 move costs none.
func TestCPUCountsSearchesOnly(t *testing.T) {
	e := New(Options{Searches: 1, MoveTime: 10 * time.Second})
	p, err := game.NewPosition(8)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := e.Move(context.Background(), p, 1, rng); err != nil {
		t.Fatal(err)
	}
	if c := e.CPU(); c != 0 {
		t.Errorf("a random move cost %v of searching", c)
	}
	for range 3 {
		if _, err := e.Move(context.Background(), p, 6, rng); err != nil {
			t.Fatal(err)
		}
	}
	if c := e.CPU(); c <= 0 {
		t.Errorf("three depth-6 searches cost %v", c)
	}
}
