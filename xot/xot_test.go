package xot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// Every opening is eight legal moves leaving Black to move, within the
// margin the file's header names, and no position is there twice.
func TestOpeningsAreLegalEvenAndDistinct(t *testing.T) {
	m := regexp.MustCompile(`within ([0-9.]+) discs`).FindStringSubmatch(data)
	if m == nil {
		t.Fatal("the header names no margin")
	}
	margin, _ := strconv.ParseFloat(m[1], 64)
	seen := map[string]bool{}
	for _, o := range All() {
		if len(o.Moves) != 8 {
			t.Errorf("%s has %d moves", o.Transcript(), len(o.Moves))
		}
		pos, err := o.Position()
		if err != nil {
			t.Fatalf("%s: %v", o.Transcript(), err)
		}
		if !pos.HasMoves() || pos.Empties() != 52 {
			t.Errorf("%s leaves %d empties, moves %v", o.Transcript(), pos.Empties(), pos.HasMoves())
		}
		if math.Abs(o.Value) > margin {
			t.Errorf("%s is valued %+.2f, beyond %.1f", o.Transcript(), o.Value, margin)
		}
		key := fmt.Sprint(pos.Cells())
		if seen[key] {
			t.Errorf("%s repeats a position", o.Transcript())
		}
		seen[key] = true
	}
	if o := Pick(rand.New(rand.NewPCG(1, 2))); len(o.Moves) != 8 {
		t.Fatal("Pick gave no opening")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{"f5d6 x\n", "f5d6c3\n", "z9 +0.5\n", "f5f5 +0.1\n"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) took it", bad)
		}
	}
	if o, err := Parse("# a comment\n\nf5d6c3d3c4f4f6f3 -0.50 # tiger-ish\n"); err != nil || len(o) != 1 || o[0].Value != -0.5 {
		t.Fatalf("a good line: %v %v", o, err)
	}
}
