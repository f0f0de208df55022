package tournament

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// A small Swiss worked by hand. Round 1: A beat B 40-24, C drew D 32-32,
// E had the bye. Round 2: A beat C 35-29, B beat E 44-20, D had the bye.
func TestSwissStandingsByHand(t *testing.T) {
	es := []Entrant{{ID: "A", Name: "A"}, {ID: "B", Name: "B"}, {ID: "C", Name: "C"}, {ID: "D", Name: "D"}, {ID: "E", Name: "E"}}
	games := []Game{
		{Round: 1, Black: "A", White: "B", Outcome: BlackWins, BlackDiscs: 40, WhiteDiscs: 24},
		{Round: 1, Black: "C", White: "D", Outcome: Draw, BlackDiscs: 32, WhiteDiscs: 32},
		{Round: 1, Black: "E"},
		{Round: 2, Black: "A", White: "C", Outcome: BlackWins, BlackDiscs: 35, WhiteDiscs: 29},
		{Round: 2, Black: "E", White: "B", Outcome: WhiteWins, BlackDiscs: 20, WhiteDiscs: 44},
		{Round: 2, Black: "D"},
	}
	// Points: A 2, B 1, C ½, D 1½, E 1.
	// Buchholz: A = B+C = 1½; B = A+E = 3; C = D+A = 3½; D = C = ½;
	// E = B = 1. Discs: A +22, B -16+24 = +8, C 0-6 = -6, D 0, E -24.
	s := Standings(Swiss, es, games)
	want := []struct {
		id            string
		rank          int
		points, buchh float64
		discs         int
	}{{"A", 1, 2, 1.5, 22}, {"D", 2, 1.5, 0.5, 0}, {"B", 3, 1, 3, 8}, {"E", 4, 1, 1, -24}, {"C", 5, 0.5, 3.5, -6}}
	for i, w := range want {
		g := s[i]
		if g.ID != w.id || g.Rank != w.rank || g.Points != w.points || g.Buchholz != w.buchh || g.Discs != w.discs {
			t.Errorf("line %d: %+v, want %+v", i+1, g, w)
		}
	}
	if s[0].Wins != 2 || s[0].Games != 2 || s[1].Draws != 1 || s[1].Games != 2 {
		t.Errorf("counts: %+v %+v", s[0], s[1])
	}
}

// A second, plain implementation of the Swiss and round-robin points and
// tie-breaks, to check Standings against on random events.
func recompute(games []Game) (points, buchholz, median, sb map[string]float64, discs map[string]int) {
	points, buchholz, median, sb = map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]float64{}
	discs = map[string]int{}
	for _, g := range games {
		if g.Bye() {
			points[g.Black] += 1
			continue
		}
		switch g.Outcome {
		case BlackWins:
			points[g.Black] += 1
			points[g.White] += 0
		case WhiteWins:
			points[g.White] += 1
			points[g.Black] += 0
		case Draw:
			points[g.Black] += 0.5
			points[g.White] += 0.5
		}
		if !g.Forfeit {
			discs[g.Black] += g.BlackDiscs - g.WhiteDiscs
			discs[g.White] += g.WhiteDiscs - g.BlackDiscs
		}
	}
	opps := map[string][]float64{}
	for _, g := range games {
		if g.Bye() {
			continue
		}
		opps[g.Black] = append(opps[g.Black], points[g.White])
		opps[g.White] = append(opps[g.White], points[g.Black])
		switch g.Outcome {
		case BlackWins:
			sb[g.Black] += points[g.White]
		case WhiteWins:
			sb[g.White] += points[g.Black]
		case Draw:
			sb[g.Black] += points[g.White] / 2
			sb[g.White] += points[g.Black] / 2
		}
	}
	for id, os := range opps {
		sort.Float64s(os)
		for i, p := range os {
			buchholz[id] += p
			if len(os) < 3 || (i > 0 && i < len(os)-1) {
				median[id] += p
			}
		}
	}
	return
}

func TestStandingsAgreeWithASecondImplementation(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{5, 8, 13} {
		es := field(n)
		games := runSwiss(t, rng, es, MaxSwissRounds(n))
		points, buchholz, median, _, discs := recompute(games)
		s := Standings(Swiss, es, games)
		for i, line := range s {
			id := line.ID
			if line.Points != points[id] || line.Buchholz != buchholz[id] || line.MedianBuchholz != median[id] || line.Discs != discs[id] {
				t.Errorf("n=%d %s: %+v; recomputed %v %v %v %v", n, id, line, points[id], buchholz[id], median[id], discs[id])
			}
			if i > 0 {
				p := s[i-1]
				if p.Points < line.Points || p.Points == line.Points && (p.Buchholz < line.Buchholz ||
					p.Buchholz == line.Buchholz && (p.MedianBuchholz < line.MedianBuchholz ||
						p.MedianBuchholz == line.MedianBuchholz && p.Discs < line.Discs)) {
					t.Errorf("n=%d: %s ranked above %s", n, p.ID, id)
				}
			}
		}
		// Round-robin by Sonneborn-Berger.
		var rr []Game
		ids := make([]string, n)
		for i, e := range es {
			ids[i] = e.ID
		}
		for r := 1; r <= Rounds(n, false); r++ {
			rr = append(rr, play(rng, Berger(ids, r, false))...)
		}
		points, _, _, sb, discs := recompute(rr)
		for _, line := range Standings(RoundRobin, es, rr) {
			if line.Points != points[line.ID] || line.SonnebornBerger != sb[line.ID] || line.Discs != discs[line.ID] {
				t.Errorf("round-robin n=%d %s: %+v; recomputed %v %v %v", n, line.ID, line, points[line.ID], sb[line.ID], discs[line.ID])
			}
		}
	}
}

func TestEqualPlayersShareARank(t *testing.T) {
	es := []Entrant{{ID: "a", Name: "a"}, {ID: "b", Name: "b"}}
	games := []Game{{Round: 1, Black: "a", White: "b", Outcome: Draw, BlackDiscs: 32, WhiteDiscs: 32}}
	s := Standings(Swiss, es, games)
	if s[0].Rank != 1 || s[1].Rank != 1 {
		t.Fatalf("ranks %d, %d", s[0].Rank, s[1].Rank)
	}
}

func TestArenaPointsAndStreaks(t *testing.T) {
	win := func(r int) Game { return Game{Round: r, Black: "a", White: "x", Outcome: BlackWins} }
	loss := func(r int) Game { return Game{Round: r, Black: "a", White: "x", Outcome: WhiteWins} }
	draw := func(r int) Game { return Game{Round: r, Black: "a", White: "x", Outcome: Draw} }
	for _, c := range []struct {
		games  []Game
		points int
		fire   bool
	}{
		{[]Game{win(1)}, 2, false},
		{[]Game{win(1), win(2)}, 4, true},
		{[]Game{win(1), win(2), win(3)}, 8, true},                  // 2+2+4
		{[]Game{win(1), win(2), draw(3), win(4)}, 8, false},        // 2+2+2+2
		{[]Game{win(1), win(2), loss(3), win(4), win(5)}, 8, true}, // 2+2+0+2+2
		{[]Game{win(3), win(1), win(2)}, 8, true},                  // in pairing order
		{[]Game{draw(1), draw(2)}, 2, false},
	} {
		p, fire := ArenaPoints("a", c.games)
		if p != c.points || fire != c.fire {
			t.Errorf("%v: %d points, fire %v; want %d, %v", c.games, p, fire, c.points, c.fire)
		}
	}
}

func TestArenaPairsWhoeverWaits(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	ws := []Waiting{
		{ID: "a", Since: t0, Points: 6, Last: "b"},
		{ID: "b", Since: t0, Points: 4, Last: "a"},
		{ID: "c", Since: t0.Add(time.Second), Points: 5, Balance: 1},
	}
	pairs, still := PairArena(ws, t0.Add(2*time.Second))
	// a and b just played: a meets c, b waits for someone else.
	if len(pairs) != 1 || len(still) != 1 || still[0].ID != "b" {
		t.Fatalf("pairs %v, waiting %v", pairs, still)
	}
	if pairs[0] != [2]string{"a", "c"} {
		t.Fatalf("pair %v: a (balance 0) should have Black against c (balance 1)", pairs[0])
	}
	// Two who just played, alone: not at once, but after Patience.
	two := []Waiting{{ID: "a", Since: t0, Last: "b"}, {ID: "b", Since: t0, Last: "a"}}
	if pairs, _ := PairArena(two, t0.Add(Patience-time.Second)); len(pairs) != 0 {
		t.Fatalf("rematch paired at once: %v", pairs)
	}
	if pairs, _ := PairArena(two, t0.Add(Patience)); len(pairs) != 1 {
		t.Fatal("rematch not paired after Patience")
	}
}

// A simulated 20-player arena: games last random times; after each game
// ends the waiting players are paired. Nobody waits more than Patience
// while someone else is waiting too.
func TestArenaNobodyWaitsLongBesideAnother(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	t0 := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	end := t0.Add(30 * time.Minute)
	waiting := map[string]*Waiting{}
	for _, e := range field(20) {
		waiting[e.ID] = &Waiting{ID: e.ID, Since: t0, Rating: e.Rating}
	}
	type running struct {
		black, white string
		ends         time.Time
	}
	var games []Game
	var live []running
	longest := time.Duration(0)
	for now := t0; now.Before(end); now = now.Add(time.Second) {
		// Games ending now return their players to the queue.
		kept := live[:0]
		for _, g := range live {
			if now.Before(g.ends) {
				kept = append(kept, g)
				continue
			}
			out := Game{Round: len(games) + 1, Black: g.black, White: g.white}
			games = append(games, play(rng, []Game{out})...)
			for _, id := range []string{g.black, g.white} {
				p, _ := ArenaPoints(id, games)
				w := &Waiting{ID: id, Since: now, Points: p, Last: out.Opponent(id)}
				waiting[id] = w
			}
		}
		live = kept
		var ws []Waiting
		for _, w := range waiting {
			ws = append(ws, *w)
		}
		if len(ws) >= 2 {
			for _, w := range ws {
				if d := now.Sub(w.Since); d > Patience {
					t.Fatalf("%s waited %v with %d others waiting", w.ID, d, len(ws)-1)
				}
			}
		}
		pairs, _ := PairArena(ws, now)
		for _, p := range pairs {
			for _, id := range p {
				longest = max(longest, now.Sub(waiting[id].Since))
				delete(waiting, id)
			}
			live = append(live, running{p[0], p[1], now.Add(time.Duration(30+rng.IntN(150)) * time.Second)})
		}
	}
	if len(games) < 100 {
		t.Fatalf("only %d games in 30 minutes", len(games))
	}
	t.Logf("%d games; the longest wait for a new game: %v", len(games), longest)
}

// The podium: a withdrawn player takes no medal and no place (#44: the
// runner-up withdrew and the podium went 🥇, 🥉); ties share a place.
func TestPodium(t *testing.T) {
	row := func(id string, rank int, withdrawn bool) Standing {
		return Standing{ID: id, Rank: rank, Withdrawn: withdrawn}
	}
	cases := []struct {
		name string
		rows []Standing
		want string
	}{
		{"plain", []Standing{row("a", 1, false), row("b", 2, false), row("c", 3, false), row("d", 4, false)}, "a1 b2 c3"},
		{"runner-up withdrew", []Standing{row("a", 1, false), row("b", 2, true), row("c", 3, false), row("d", 4, false)}, "a1 c2 d3"},
		{"winner withdrew", []Standing{row("a", 1, true), row("b", 2, false), row("c", 3, false)}, "b1 c2"},
		{"tie for first", []Standing{row("a", 1, false), row("b", 1, false), row("c", 3, false), row("d", 4, false)}, "a1 b1 c3"},
		{"two players", []Standing{row("a", 1, false), row("b", 2, false)}, "a1 b2"},
	}
	for _, c := range cases {
		placed, places := Podium(c.rows)
		var got []string
		for i, r := range placed {
			got = append(got, fmt.Sprintf("%s%d", r.ID, places[i]))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
	}
}
