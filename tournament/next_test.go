package tournament

import (
	"errors"
	"testing"
	"time"
)

// TestNext is the decision of what a running tournament needs next, for
// each format and where it stands, without a store.
func TestNext(t *testing.T) {
	start := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	four := []Entrant{{ID: "a", Rating: 1600}, {ID: "b", Rating: 1550}, {ID: "c", Rating: 1500}, {ID: "d", Rating: 1450}}
	withdrawn := func(es []Entrant, ids ...string) []Entrant {
		out := append([]Entrant(nil), es...)
		for i := range out {
			for _, id := range ids {
				if out[i].ID == id {
					out[i].Withdrawn = true
				}
			}
		}
		return out
	}
	p := func(round, board int, black, white string, o Outcome) Pairing {
		return Pairing{Game: Game{Round: round, Black: black, White: white, Outcome: o}, Board: board, GameID: int64(10*round + board)}
	}
	roundOne := []Pairing{p(1, 1, "a", "c", BlackWins), p(1, 2, "b", "d", WhiteWins)}
	roundOneOn := []Pairing{p(1, 1, "a", "c", BlackWins), p(1, 2, "b", "d", Pending)}
	swiss := func(round, rounds int) *Tournament {
		return &Tournament{Format: Swiss, Status: Running, Round: round, Rounds: rounds, StartsAt: start}
	}
	rr := func(round, rounds int) *Tournament {
		return &Tournament{Format: RoundRobin, Status: Running, Round: round, Rounds: rounds, StartsAt: start}
	}
	arena := &Tournament{Format: Arena, Status: Running, StartsAt: start, EndsAt: start.Add(time.Hour), Round: 2}

	cases := []struct {
		name      string
		t         *Tournament
		entrants  []Entrant
		pairings  []Pairing
		now       time.Time
		want      StepKind
		wantGames int    // pairings in a Pair step
		wantRound int    // their round (an arena's first game's number)
		wantErr   error  // FinishEarly's reason
		forfeitBy string // the forfeit of the first pairing, if any
	}{
		{name: "swiss round 1", t: swiss(0, 3), entrants: four, want: Pair, wantGames: 2, wantRound: 1},
		{name: "swiss game under way", t: swiss(1, 3), entrants: four, pairings: roundOneOn, want: Wait},
		{name: "swiss round over", t: swiss(1, 3), entrants: four, pairings: roundOne, want: Pair, wantGames: 2, wantRound: 2},
		{name: "swiss last round over", t: swiss(1, 1), entrants: four, pairings: roundOne, want: Finish},
		{name: "swiss too few left", t: swiss(1, 3), entrants: withdrawn(four, "a", "b", "c"), pairings: roundOne,
			want: FinishEarly, wantErr: ErrTooFew},
		{name: "swiss no rematch-free round", t: swiss(1, 3),
			entrants: four[:2], pairings: []Pairing{p(1, 1, "a", "b", Draw)}, want: FinishEarly, wantErr: ErrNoPairing},
		{name: "round-robin next round", t: rr(1, 3), entrants: four, pairings: roundOne, want: Pair, wantGames: 2, wantRound: 2},
		{name: "round-robin withdrawn forfeits", t: rr(1, 3), entrants: withdrawn(four, "a", "b", "c", "d"), pairings: roundOne,
			want: Pair, wantGames: 2, wantRound: 2, forfeitBy: "*"},
		{name: "round-robin done", t: rr(3, 3), entrants: four, pairings: roundOne, want: Finish},
		{name: "arena start pairs all", t: arena, entrants: four, now: start.Add(time.Minute), want: Pair, wantGames: 2, wantRound: 3},
		{name: "arena all busy", t: arena, entrants: four, now: start.Add(time.Minute),
			pairings: []Pairing{p(1, 1, "a", "c", Pending), p(2, 1, "b", "d", Pending)}, want: Wait},
		{name: "arena over, game on", t: arena, entrants: four, now: start.Add(time.Hour),
			pairings: roundOneOn, want: Wait},
		{name: "arena over, all done", t: arena, entrants: four, now: start.Add(time.Hour + time.Second),
			pairings: roundOne, want: Finish},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := c.now
			if now.IsZero() {
				now = start
			}
			step, err := Next(c.t, c.entrants, c.pairings, now)
			if err != nil {
				t.Fatal(err)
			}
			if step.Kind != c.want {
				t.Fatalf("kind %d, want %d (%+v)", step.Kind, c.want, step)
			}
			if c.wantErr != nil && !errors.Is(step.Err, c.wantErr) {
				t.Fatalf("reason %v, want %v", step.Err, c.wantErr)
			}
			if c.want != Pair {
				if len(step.Pairings) != 0 {
					t.Fatalf("pairings with kind %d: %+v", step.Kind, step.Pairings)
				}
				return
			}
			if len(step.Pairings) != c.wantGames {
				t.Fatalf("%d pairings, want %d: %+v", len(step.Pairings), c.wantGames, step.Pairings)
			}
			seen := map[string]bool{}
			for i, q := range step.Pairings {
				want := c.wantRound
				if c.t.Format == Arena {
					want += i // an arena numbers its games in order of pairing
				}
				if q.Round != want {
					t.Errorf("pairing %+v: round %d, want %d", q, q.Round, want)
				}
				if q.GameID != 0 {
					t.Errorf("a new pairing has a game: %+v", q)
				}
				for _, id := range []string{q.Black, q.White} {
					if id != "" && seen[id] {
						t.Errorf("%s paired twice in one step", id)
					}
					seen[id] = true
				}
				if c.forfeitBy == "" && q.ForfeitBy != "" {
					t.Errorf("unexpected forfeit %+v", q)
				}
				if c.forfeitBy == "*" && q.ForfeitBy == "" {
					t.Errorf("a withdrawn player's pairing is not forfeited: %+v", q)
				}
			}
			if c.t.Format == Swiss && c.wantRound == 2 {
				// No rematch of round one.
				for _, q := range step.Pairings {
					for _, r := range roundOne {
						if q.Has(r.Black) && q.Has(r.White) {
							t.Errorf("rematch %s-%s", r.Black, r.White)
						}
					}
				}
			}
		})
	}
}
