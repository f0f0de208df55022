package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// A team scores its best top players' points; a team with fewer players
// than top counts them all; equal teams share a rank.
func TestTeamStandings(t *testing.T) {
	rows := []Standing{
		{ID: "a1", Points: 10}, {ID: "b1", Points: 9}, {ID: "a2", Points: 6}, {ID: "b2", Points: 6},
		{ID: "a3", Points: 5, Withdrawn: true}, {ID: "c1", Points: 4}, {ID: "b3", Points: 1}, {ID: "x", Points: 99},
	}
	teamOf := map[string]string{"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B", "b3": "B", "c1": "C"}
	got := TeamStandings(rows, teamOf, 2)
	if len(got) != 3 {
		t.Fatalf("%d teams", len(got))
	}
	want := []struct {
		team    string
		points  float64
		counted int
		rank    int
	}{{"A", 16, 2, 1}, {"B", 15, 2, 2}, {"C", 4, 1, 3}}
	for i, w := range want {
		g := got[i]
		if g.Team != w.team || g.Points != w.points || g.Counted != w.counted || g.Rank != w.rank {
			t.Errorf("place %d: %+v, want %+v", i+1, g, w)
		}
	}
	if len(got[0].Players) != 3 || got[0].Players[0].ID != "a1" || got[0].Players[2].ID != "a3" {
		t.Errorf("team A's players %+v", got[0].Players)
	}
	all := TeamStandings(rows, teamOf, 0)
	if all[0].Team != "A" || all[0].Points != 21 || all[1].Points != 16 {
		t.Errorf("every player counted: %+v", all)
	}
	tie := TeamStandings([]Standing{{ID: "a1", Points: 3}, {ID: "b1", Points: 3}}, teamOf, 1)
	if tie[0].Rank != 1 || tie[1].Rank != 1 {
		t.Errorf("a tie: %+v", tie)
	}
}

// The arena never pairs teammates, not even after any wait.
func TestArenaPairsNoTeammates(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	long := now.Add(-time.Hour)
	waiting := []Waiting{{ID: "a1", Team: "A", Since: long, Points: 8}, {ID: "a2", Team: "A", Since: long, Points: 8},
		{ID: "b1", Team: "B", Since: long, Points: 0}, {ID: "b2", Team: "B", Since: long, Points: 0}}
	pairs, still := PairArena(waiting, now)
	if len(pairs) != 2 || len(still) != 0 {
		t.Fatalf("pairs %v, still %v", pairs, still)
	}
	team := map[string]string{"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
	for _, p := range pairs {
		if team[p[0]] == team[p[1]] {
			t.Errorf("teammates paired: %v", p)
		}
	}
	if pairs, _ := PairArena(waiting[:2], now); len(pairs) != 0 {
		t.Errorf("two teammates alone were paired: %v", pairs)
	}
}

// A Swiss between two teams of three: every round pairs across the teams
// only, with no rematch, for as many rounds as that allows (three).
func TestSwissPairsNoTeammates(t *testing.T) {
	var entrants []Entrant
	team := map[string]string{}
	for i := 0; i < 6; i++ {
		id := fmt.Sprint("p", i)
		e := Entrant{ID: id, Rating: float64(1500 + 50*i), Team: []string{"A", "B"}[i%2]}
		entrants = append(entrants, e)
		team[id] = e.Team
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var games []Game
	met := map[[2]string]bool{}
	for round := 1; round <= 3; round++ {
		pairs, err := PairSwiss(entrants, games, round)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(pairs) != 3 {
			t.Fatalf("round %d: %d games", round, len(pairs))
		}
		for _, g := range pairs {
			if team[g.Black] == team[g.White] {
				t.Fatalf("round %d paired teammates %s and %s", round, g.Black, g.White)
			}
			k := [2]string{min(g.Black, g.White), max(g.Black, g.White)}
			if met[k] {
				t.Fatalf("round %d: a rematch %v", round, k)
			}
			met[k] = true
			g.Outcome = []Outcome{BlackWins, WhiteWins, Draw}[rng.IntN(3)]
			games = append(games, g)
		}
	}
	if _, err := PairSwiss(entrants, games, 4); err == nil {
		t.Error("a fourth round paired: every cross-team pairing was played")
	}
}

// A team Swiss with one team larger than the others together: its
// lowest-ranked sit each round out (no game, no bye), the rest are paired
// across teams; nobody meets a teammate.
func TestSwissSeatsATeamsSurplusOut(t *testing.T) {
	var entrants []Entrant
	team := map[string]string{}
	for i := 0; i < 7; i++ {
		id := fmt.Sprint("p", i)
		e := Entrant{ID: id, Rating: float64(2000 - 50*i), Team: "A"}
		if i >= 5 {
			e.Team = "B"
		}
		entrants = append(entrants, e)
		team[id] = e.Team
	}
	games, err := PairSwiss(entrants, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games: %+v", len(games), games)
	}
	for _, g := range games {
		if g.Bye() || team[g.Black] == team[g.White] {
			t.Fatalf("a bye or teammates: %+v", g)
		}
		if g.Has("p4") || g.Has("p3") || g.Has("p2") {
			t.Fatalf("the lowest-ranked of the large team were paired: %+v", games)
		}
	}
}
