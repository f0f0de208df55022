package pool

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func TestSuits(t *testing.T) {
	blitz := Want{Control: "3+2", Size: 8, Rated: true}
	for _, c := range []struct {
		name   string
		a, b   Want
		ra, rb float64
		want   bool
	}{
		{"the same game", blitz, blitz, 1500, 2100, true},
		{"another control", blitz, Want{Control: "5+3", Size: 8, Rated: true}, 1500, 1500, false},
		{"another size", blitz, Want{Control: "3+2", Size: 10, Rated: true}, 1500, 1500, false},
		{"casual and rated", blitz, Want{Control: "3+2", Size: 8}, 1500, 1500, false},
		{"within my range", Want{Control: "3+2", Size: 8, Rated: true, Range: 200}, blitz, 1500, 1700, true},
		{"past my range", Want{Control: "3+2", Size: 8, Rated: true, Range: 200}, blitz, 1500, 1701, false},
		{"past their range", blitz, Want{Control: "3+2", Size: 8, Rated: true, Range: 100}, 1500, 1650, false},
	} {
		if got := Suits(c.a, c.ra, c.b, c.rb); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
		if got := Suits(c.b, c.rb, c.a, c.ra); got != c.want {
			t.Errorf("%s, the other way: %v", c.name, got)
		}
	}
}

func TestMatchTakesTheLongestWaiting(t *testing.T) {
	blitz := Want{Control: "3+2", Size: 8}
	waiting := []Entry{
		{ID: 3, PlayerID: "c", Want: blitz, Rating: 1500, Since: t0.Add(2 * time.Minute)},
		{ID: 1, PlayerID: "me", Want: blitz, Rating: 1500, Since: t0},                        // my own
		{ID: 2, PlayerID: "b", Want: Want{Control: "1+0", Size: 8}, Rating: 1500, Since: t0}, // another game
		{ID: 4, PlayerID: "d", Want: blitz, Rating: 1500, Since: t0.Add(time.Minute)},
	}
	got, ok := Match("me", blitz, 1500, waiting)
	if !ok || got.ID != 4 {
		t.Fatalf("paired with %+v (%v), want entry 4", got, ok)
	}
	if _, ok := Match("me", Want{Control: "10+5", Size: 8}, 1500, waiting); ok {
		t.Error("paired for a game nobody waits for")
	}
}

func TestLapsed(t *testing.T) {
	e := Entry{Since: t0}
	if Lapsed(e, t0.Add(MaxWait-time.Second)) || !Lapsed(e, t0.Add(MaxWait)) {
		t.Error("lapses at the wrong time")
	}
}

func TestCrosses(t *testing.T) {
	for _, c := range []struct {
		w    Want
		want bool
	}{
		{Want{Control: "3+2", Size: 8}, true},
		{Want{Control: "1+0", Size: 26, Range: 100}, true},
		{Want{Control: "3+2", Size: 8, Rated: true}, false}, // a rating is a server's
		{Want{Control: "1d", Size: 8}, false},               // days: no clock keeps them on the page
		{Want{Control: "nonsense", Size: 8}, false},
	} {
		if got := Crosses(c.w); got != c.want {
			t.Errorf("Crosses(%+v) = %v, want %v", c.w, got, c.want)
		}
	}
}
