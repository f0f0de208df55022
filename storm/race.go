package storm

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"othello-bot/record"
)

// Puzzle Racer, as lichess's: up to ten players race on the same puzzles
// for ninety seconds from the moment the host starts; each right answer
// is a point, a miss costs nothing but the combo. Unrated, and with no
// leaderboard of races (where there is one, there is cheating).
const (
	RaceDuration = 90 * time.Second
	MaxRacers    = 10
	RaceSize     = 40
	// LobbyLife is how long a race waits for its host to start it.
	LobbyLife = 10 * time.Minute
)

// RaceStatus is where a race stands.
type RaceStatus int8

const (
	Lobby    RaceStatus = 0 // taking racers
	Racing   RaceStatus = 1
	Finished RaceStatus = 2
	Closed   RaceStatus = 3 // never started
)

// Race is one race: its message in a channel, its host, the puzzles
// every racer is dealt, and when it ran.
type Race struct {
	ID                   int64
	GuildID, ChannelID   string
	MessageID            string
	Host                 record.Player
	Puzzles              []int64
	Status               RaceStatus
	Created, Starts, End time.Time
}

// Join is a racer's run in race r, dealt its puzzles.
func (r Race) Join(p record.Player, now time.Time) Run {
	run := New(Racer, p, r.GuildID, r.Puzzles, now)
	run.Race, run.Ends = r.ID, r.End
	return run
}

// Due says whether a race's time has come at now: a running race's end,
// or a lobby's closing.
func (r Race) Due(now time.Time) bool {
	switch r.Status {
	case Racing:
		return !now.Before(r.End)
	case Lobby:
		return !now.Before(r.Created.Add(LobbyLife))
	}
	return false
}

// Standings orders a race's runs: most solved first, then fewest missed,
// then who joined first.
func Standings(runs []Run) []Run {
	out := slices.Clone(runs)
	slices.SortStableFunc(out, func(a, b Run) int {
		return cmp.Or(cmp.Compare(b.Solved, a.Solved), cmp.Compare(a.Misses, b.Misses), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Errors of joining a race.
var (
	ErrJoined     = errors.New("already in this race")
	ErrRaceClosed = errors.New("the race is not taking racers")
)
