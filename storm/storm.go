// Package storm holds the rules of Puzzle Storm and Puzzle Streak as
// lichess runs them: puzzles rising in difficulty, answered one after
// another. Storm is against a three-minute clock: every five right in a
// row add time, a miss takes ten seconds away, and the score is the
// puzzles solved. Streak has no clock and ends at the first miss. Neither
// is rated. It knows nothing of Discord or SQL.
package storm

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"othello-bot/record"
)

// Mode is the kind of run.
type Mode int8

const (
	Storm  Mode = 1 // three minutes on a clock
	Streak Mode = 2 // no clock; one miss ends it
	Racer  Mode = 3 // a racer's run in a race (race.go)
)

// String names a mode for logs and errors.
func (m Mode) String() string {
	switch m {
	case Storm:
		return "storm"
	case Streak:
		return "streak"
	case Racer:
		return "racer"
	}
	return "mode " + strconv.Itoa(int(m))
}

const (
	// Duration is a Storm run's clock at the start.
	Duration = 3 * time.Minute
	// MissPenalty is what a miss takes off a Storm run's clock.
	MissPenalty = 10 * time.Second
	// ComboStep is how many right answers in a row earn a time bonus.
	ComboStep = 5
	// StormSize and StreakSize are how many puzzles a run is dealt: more
	// than anyone solves in three minutes, and a long streak's worth.
	StormSize  = 60
	StreakSize = 150
)

// Bonus is the time a Storm run gains when its combo reaches combo: at
// every fifth right answer in a row, growing as the combo does (3, 5 and
// 7 seconds, then 10), as lichess's combo bar.
func Bonus(combo int) time.Duration {
	if combo <= 0 || combo%ComboStep != 0 {
		return 0
	}
	switch combo / ComboStep {
	case 1:
		return 3 * time.Second
	case 2:
		return 5 * time.Second
	case 3:
		return 7 * time.Second
	}
	return 10 * time.Second
}

// Run is one player's run.
type Run struct {
	ID      int64
	Mode    Mode
	Race    int64 // a Racer's race
	Player  record.Player
	GuildID string // "" outside servers
	Started time.Time
	// Ends is when a Storm run's clock runs out (bonuses and penalties
	// move it), a Racer's race's end (zero until it starts); zero for a
	// Streak.
	Ends time.Time
	// Puzzles are the run's puzzles in order; Index is the one being
	// solved and Step the move within it.
	Puzzles     []int64
	Index, Step int
	// Solved is the score; Combo the right answers in a row now.
	Solved, Misses   int
	Combo, BestCombo int
	// Over is set when a run ended by its own rules (a Streak's miss,
	// the puzzles all dealt); a Storm run also ends when its clock does.
	Over bool
}

// New starts a run of the given puzzles at now.
func New(mode Mode, player record.Player, guildID string, puzzles []int64, now time.Time) Run {
	r := Run{Mode: mode, Player: player, GuildID: guildID, Started: now, Puzzles: puzzles, Over: len(puzzles) == 0}
	if mode == Storm {
		r.Ends = now.Add(Duration)
	}
	return r
}

// Left is the time on a Storm run's clock at now (0 once it ran out).
func (r Run) Left(now time.Time) time.Duration {
	if r.Mode == Streak {
		return 0
	}
	return max(0, r.Ends.Sub(now))
}

// Done says whether the run is over at now.
func (r Run) Done(now time.Time) bool {
	return r.Over || r.Index >= len(r.Puzzles) || r.Mode != Streak && !now.Before(r.Ends)
}

// Puzzle is the puzzle being solved.
func (r Run) Puzzle() int64 { return r.Puzzles[r.Index] }

// Advance moves within the puzzle: the answer was right and the puzzle
// goes on at step next (the opponent's reply played).
func (r *Run) Advance(next int) { r.Step = next }

// Solve counts the puzzle solved and deals the next; it returns the time
// bonus the combo earned (added to the clock).
func (r *Run) Solve() time.Duration {
	r.Solved++
	r.Combo++
	r.BestCombo = max(r.BestCombo, r.Combo)
	bonus := time.Duration(0)
	if r.Mode == Storm {
		bonus = Bonus(r.Combo)
		r.Ends = r.Ends.Add(bonus)
	}
	r.next()
	return bonus
}

// Miss counts a wrong answer: the combo is lost and, in Storm, ten
// seconds with it; a Streak ends; a racer goes on.
func (r *Run) Miss() {
	r.Misses++
	r.Combo = 0
	switch r.Mode {
	case Storm:
		r.Ends = r.Ends.Add(-MissPenalty)
	case Streak:
		r.Over = true
	}
	r.next()
}

func (r *Run) next() {
	r.Index++
	r.Step = 0
	if r.Index >= len(r.Puzzles) {
		r.Over = true
	}
}

// Candidate is a puzzle a run may be dealt: its id, its rating and
// whether it comes from the server's own games.
type Candidate struct {
	ID     int64
	Rating float64
	Own    bool
}

// Deal picks n puzzles for a run from pool, the server's own first (the
// built-in set fills in when they are too few), at random among them, and
// orders them by rating upward.
func Deal(pool []Candidate, n int, rng *rand.Rand) []int64 {
	var own, rest []Candidate
	for _, c := range pool {
		if c.Own {
			own = append(own, c)
		} else {
			rest = append(rest, c)
		}
	}
	rng.Shuffle(len(own), func(i, j int) { own[i], own[j] = own[j], own[i] })
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	picked := append(own[:min(n, len(own))], rest[:min(n-min(n, len(own)), len(rest))]...)
	slices.SortFunc(picked, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(a.Rating, b.Rating), cmp.Compare(a.ID, b.ID))
	})
	ids := make([]int64, len(picked))
	for i, c := range picked {
		ids[i] = c.ID
	}
	return ids
}
