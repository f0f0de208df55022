package puzzle

import (
	"context"
	"sort"
	"strings"
	"testing"

	"othello-bot/engine"
)

// The built-in set reads (every line plays, every key is right, which
// ParseSet checks), is as large as its header says, and its puzzles are
// exact: the quickest few are solved again here a second way (the whole
// set was, when cmd/puzzles wrote it).
func TestBuiltinSet(t *testing.T) {
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 100 {
		t.Fatalf("%d built-in puzzles", len(set))
	}
	if !strings.Contains(builtinData, "go run ./cmd/puzzles") {
		t.Error("the set does not say how it was made")
	}
	var keys []string
	for k, p := range set {
		if p.Start.Empties() > 20 || p.Moves() > 3 || p.Result < 0 || p.Cost <= 0 {
			t.Errorf("%s: %d empties, %d moves, result %d, cost %d", k, p.Start.Empties(), p.Moves(), p.Result, p.Cost)
		}
		keys = append(keys, k)
	}
	if testing.Short() {
		return
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := set[keys[i]].Start.Empties(), set[keys[j]].Start.Empties()
		return a < b || a == b && keys[i] < keys[j]
	})
	e := engine.New(engine.Options{Searches: 1})
	for _, k := range keys[:3] {
		if err := Verify(context.Background(), e, set[k]); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}
