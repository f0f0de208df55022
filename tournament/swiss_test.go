package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func field(n int) []Entrant {
	es := make([]Entrant, n)
	for i := range es {
		es[i] = Entrant{ID: fmt.Sprintf("p%02d", i+1), Name: fmt.Sprintf("Player %d", i+1), Rating: 2000 - float64(i)*25}
	}
	return es
}

// play gives every game of a round a random result, the stronger-rated
// side winning more often.
func play(rng *rand.Rand, games []Game) []Game {
	out := make([]Game, len(games))
	for i, g := range games {
		if !g.Bye() {
			b := 20 + rng.IntN(25)
			w := 64 - b
			if rng.IntN(10) == 0 {
				b, w = 32, 32
			}
			g.BlackDiscs, g.WhiteDiscs = b, w
			switch {
			case b > w:
				g.Outcome = BlackWins
			case w > b:
				g.Outcome = WhiteWins
			default:
				g.Outcome = Draw
			}
		}
		out[i] = g
	}
	return out
}

// checkSwissRules checks a whole Swiss event's games against the rules,
// independently of how the pairing was made.
func checkSwissRules(t *testing.T, entrants []Entrant, games []Game) {
	t.Helper()
	met := map[[2]string]int{}
	colors := map[string][]Color{}
	byes := map[string]int{}
	perRound := map[int]map[string]int{}
	rounds := 0
	for _, g := range games {
		rounds = max(rounds, g.Round)
		if perRound[g.Round] == nil {
			perRound[g.Round] = map[string]int{}
		}
		perRound[g.Round][g.Black]++
		if g.Bye() {
			byes[g.Black]++
			continue
		}
		perRound[g.Round][g.White]++
		a, b := g.Black, g.White
		if a > b {
			a, b = b, a
		}
		met[[2]string{a, b}]++
		colors[g.Black] = append(colors[g.Black], Black)
		colors[g.White] = append(colors[g.White], White)
	}
	for pair, n := range met {
		if n > 1 {
			t.Errorf("%s and %s met %d times", pair[0], pair[1], n)
		}
	}
	for id, n := range byes {
		if n > 1 {
			t.Errorf("%s had %d byes", id, n)
		}
	}
	for r, seen := range perRound {
		byeCount := 0
		for _, g := range games {
			if g.Round == r && g.Bye() {
				byeCount++
			}
		}
		if byeCount > 1 {
			t.Errorf("round %d has %d byes", r, byeCount)
		}
		for id, n := range seen {
			if n > 1 {
				t.Errorf("%s plays %d games in round %d", id, n, r)
			}
		}
	}
	for id, cs := range colors {
		diff := 0
		for i, c := range cs {
			if c == Black {
				diff++
			} else {
				diff--
			}
			if diff > 2 || diff < -2 {
				t.Errorf("%s's colours %v differ by more than two", id, cs)
				break
			}
			if i >= 2 && cs[i-1] == c && cs[i-2] == c {
				t.Errorf("%s has one colour three times in a row: %v", id, cs)
				break
			}
		}
	}
}

func runSwiss(t *testing.T, rng *rand.Rand, entrants []Entrant, rounds int) []Game {
	t.Helper()
	var games []Game
	for r := 1; r <= rounds; r++ {
		pairs, err := PairSwiss(entrants, games, r)
		if err != nil {
			t.Fatalf("%d players, round %d: %v", len(entrants), r, err)
		}
		active := 0
		for _, e := range entrants {
			if !e.Withdrawn {
				active++
			}
		}
		if got := 2*len(pairs) - countByes(pairs); got != active {
			t.Fatalf("round %d pairs %d players of %d", r, got, active)
		}
		games = append(games, play(rng, pairs)...)
	}
	checkSwissRules(t, entrants, games)
	return games
}

func countByes(gs []Game) int {
	n := 0
	for _, g := range gs {
		if g.Bye() {
			n++
		}
	}
	return n
}

func TestSwissRulesHoldOverManyEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ players, rounds int }{
		{2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}, {8, 3}, {8, 4}, {9, 5}, {10, 5}, {12, 6}, {16, 6}, {20, 7}, {33, 8}, {64, 9},
	} {
		if c.rounds > MaxSwissRounds(c.players) {
			t.Fatalf("%d rounds for %d players is over the cap", c.rounds, c.players)
		}
		for seed := 0; seed < 20; seed++ {
			runSwiss(t, rng, field(c.players), c.rounds)
		}
	}
}

func TestSwissFirstRoundFoldsTheField(t *testing.T) {
	games, err := PairSwiss(field(8), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Top half against bottom half: 1-5, 2-6, 3-7, 4-8, colours
	// alternating down the boards.
	want := [][2]string{{"p01", "p05"}, {"p06", "p02"}, {"p03", "p07"}, {"p08", "p04"}}
	for i, g := range games {
		if g.Black != want[i][0] || g.White != want[i][1] {
			t.Errorf("board %d: %s-%s, want %s-%s", i+1, g.Black, g.White, want[i][0], want[i][1])
		}
	}
}

func TestSwissByeToTheLowestWithoutOne(t *testing.T) {
	es := field(5)
	games, err := PairSwiss(es, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if last := games[len(games)-1]; !last.Bye() || last.Black != "p05" {
		t.Fatalf("round 1 bye: %+v", last)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	games = play(rng, games)
	next, err := PairSwiss(es, games, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range next {
		if g.Bye() && g.Black == "p05" {
			t.Fatal("p05 got a second bye")
		}
	}
}

func TestSwissWithdrawnAndLateEntrants(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	es := field(7)
	var games []Game
	for r := 1; r <= 4; r++ {
		if r == 2 {
			es[2].Withdrawn = true                                           // leaves after round 1
			es = append(es, Entrant{ID: "late", Name: "Late", Rating: 1500}) // joins for round 2
		}
		pairs, err := PairSwiss(es, games, r)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		for _, g := range pairs {
			if r >= 2 && g.Has("p03") {
				t.Fatalf("withdrawn p03 paired in round %d", r)
			}
		}
		games = append(games, play(rng, pairs)...)
	}
	checkSwissRules(t, es, games)
}

func TestSwissTooManyRounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var games []Game
	for r := 1; r <= 3; r++ { // everyone meets everyone, colours as they fall
		pairs, err := PairSwiss(field(4), games, r)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		games = append(games, play(rng, pairs)...)
	}
	if _, err := PairSwiss(field(4), games, 4); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("a fourth round of four players: %v", err)
	}
	if _, err := PairSwiss(field(1), nil, 1); !errors.Is(err, ErrTooFew) {
		t.Fatalf("one player: %v", err)
	}
}

func BenchmarkPairSwiss64(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	es := field(64)
	var games []Game
	for r := 1; r <= 6; r++ {
		pairs, err := PairSwiss(es, games, r)
		if err != nil {
			b.Fatal(err)
		}
		games = append(games, play(rng, pairs)...)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := PairSwiss(es, games, 7); err != nil {
			b.Fatal(err)
		}
	}
}
