package storm

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"othello-bot/record"
)

var (
	ann = record.Player{ID: "1", Name: "ann"}
	t0  = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
)

func ids(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}

// Storm: three minutes; every fifth right answer in a row adds 3, 5, 7,
// then 10 seconds; a miss takes 10 and the combo; the clock running out
// ends the run, whatever is dealt.
func TestStormClock(t *testing.T) {
	r := New(Storm, ann, "g", ids(60), t0)
	if r.Left(t0) != 3*time.Minute || r.Done(t0) {
		t.Fatalf("start: left %v, done %v", r.Left(t0), r.Done(t0))
	}
	var bonuses []time.Duration
	for i := 0; i < 20; i++ {
		if b := r.Solve(); b != 0 {
			bonuses = append(bonuses, b)
		}
	}
	want := []time.Duration{3 * time.Second, 5 * time.Second, 7 * time.Second, 10 * time.Second}
	if !slices.Equal(bonuses, want) || r.Solved != 20 || r.Combo != 20 {
		t.Fatalf("bonuses %v (want %v), solved %d, combo %d", bonuses, want, r.Solved, r.Combo)
	}
	if got := r.Left(t0); got != 3*time.Minute+25*time.Second {
		t.Fatalf("after the bonuses: %v left", got)
	}
	r.Miss()
	if got := r.Left(t0); got != 3*time.Minute+15*time.Second || r.Combo != 0 || r.BestCombo != 20 || r.Misses != 1 || r.Index != 21 {
		t.Fatalf("after a miss: left %v, combo %d (best %d), misses %d, index %d", got, r.Combo, r.BestCombo, r.Misses, r.Index)
	}
	// The combo starts again from nothing: the next bonus is at 5 again.
	for i := 0; i < 4; i++ {
		if r.Solve() != 0 {
			t.Fatal("a bonus before five in a row")
		}
	}
	if r.Solve() != 3*time.Second {
		t.Fatal("no bonus at five in a row after a miss")
	}
	end := t0.Add(3*time.Minute + 18*time.Second)
	if r.Done(end.Add(-time.Millisecond)) || !r.Done(end) || r.Left(end.Add(time.Minute)) != 0 {
		t.Fatalf("the clock ends at %v: done just before %v, at %v", end, r.Done(end.Add(-time.Millisecond)), r.Done(end))
	}
}

// Streak: no clock, and the first miss ends it; dealing the last puzzle
// ends any run.
func TestStreakEndsAtTheFirstMiss(t *testing.T) {
	r := New(Streak, ann, "", ids(3), t0)
	r.Solve()
	if r.Done(t0.Add(time.Hour)) || r.Left(t0) != 0 {
		t.Fatal("a streak ended with time")
	}
	r.Miss()
	if !r.Done(t0) || r.Solved != 1 {
		t.Fatalf("after a miss: done %v, solved %d", r.Done(t0), r.Solved)
	}
	s := New(Storm, ann, "", ids(2), t0)
	s.Solve()
	s.Solve()
	if !s.Done(t0) || s.Solved != 2 {
		t.Fatal("a run went on past its last puzzle")
	}
	if e := New(Storm, ann, "", nil, t0); !e.Done(t0) {
		t.Fatal("a run with no puzzles is not over")
	}
}

// Deal takes the server's own puzzles first, fills in with the built-in
// set, and orders what it took by rating upward; runs differ.
func TestDeal(t *testing.T) {
	var pool []Candidate
	for i := 0; i < 30; i++ {
		pool = append(pool, Candidate{ID: int64(100 + i), Rating: float64(1000 + 37*i%500), Own: i < 8})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	got := Deal(pool, 20, rng)
	if len(got) != 20 {
		t.Fatalf("dealt %d", len(got))
	}
	byID := map[int64]Candidate{}
	for _, c := range pool {
		byID[c.ID] = c
	}
	own := 0
	for i, id := range got {
		if byID[id].Own {
			own++
		}
		if i > 0 && byID[id].Rating < byID[got[i-1]].Rating {
			t.Fatalf("not rising at %d: %v", i, got)
		}
	}
	if own != 8 {
		t.Fatalf("%d of the server's 8 puzzles dealt", own)
	}
	if again := Deal(pool, 20, rng); slices.Equal(again, got) {
		t.Fatal("two runs dealt the same puzzles")
	}
	if all := Deal(pool, 100, rng); len(all) != 30 {
		t.Fatalf("a small pool dealt %d of 30", len(all))
	}
	if Deal(nil, 10, rng) == nil || len(Deal(nil, 10, rng)) != 0 {
		t.Fatal("an empty pool")
	}
}

// A racer's run: the race's clock, no bonus, a miss costs only the combo;
// standings by solved, then fewest missed, then who joined first.
func TestRacerRuns(t *testing.T) {
	race := Race{ID: 7, GuildID: "g", Puzzles: ids(10), Created: t0, End: t0.Add(RaceDuration), Status: Racing}
	r := race.Join(ann, t0)
	if r.Mode != Racer || r.Race != 7 || !r.Ends.Equal(race.End) {
		t.Fatalf("joined: %+v", r)
	}
	for i := 0; i < 5; i++ {
		if r.Solve() != 0 {
			t.Fatal("a racer earned time")
		}
	}
	r.Miss()
	if !r.Ends.Equal(race.End) || r.Over || r.Combo != 0 || r.Index != 6 {
		t.Fatalf("after a miss: %+v", r)
	}
	if r.Done(race.End.Add(-time.Millisecond)) || !r.Done(race.End) {
		t.Fatal("a racer's run does not end with the race")
	}
	if race.Due(race.End.Add(-time.Millisecond)) || !race.Due(race.End) {
		t.Fatal("a race is not due at its end")
	}
	lobby := Race{Status: Lobby, Created: t0}
	if lobby.Due(t0.Add(LobbyLife-time.Second)) || !lobby.Due(t0.Add(LobbyLife)) || (Race{Status: Finished}).Due(t0.Add(time.Hour)) {
		t.Fatal("a lobby's lapse")
	}
	a := Run{ID: 1, Solved: 3, Misses: 2}
	b := Run{ID: 2, Solved: 3, Misses: 1}
	c := Run{ID: 3, Solved: 5, Misses: 9}
	d := Run{ID: 4, Solved: 3, Misses: 2}
	got := Standings([]Run{a, b, c, d})
	if got[0].ID != 3 || got[1].ID != 2 || got[2].ID != 1 || got[3].ID != 4 {
		t.Fatalf("standings %v", got)
	}
}
