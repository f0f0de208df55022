package tournament

import (
	"time"

	"othello-bot/timecontrol"
)

// Status is where a tournament stands.
type Status string

const (
	SignUp   Status = "signup"   // taking entrants until it starts
	Running  Status = "running"  // rounds being played
	Paused   Status = "paused"   // no new pairings until resumed
	Finished Status = "finished" // every round played: the podium is out
	Canceled Status = "canceled" // stopped by its organiser or a moderator
)

// Open reports whether the tournament has not ended.
func (s Status) Open() bool { return s == SignUp || s == Running || s == Paused }

// Tournament is one event: its settings and where it stands.
type Tournament struct {
	ID int64
	// PublicID finds its web page (random; the number is guessable).
	PublicID           string
	GuildID, ChannelID string
	OrganiserID        string
	Name               string
	Format             Format
	// Rounds is a Swiss's rounds (set at the start for a round-robin).
	Rounds int
	// Double plays a round-robin twice, colours swapped.
	Double bool
	// Duration is an arena's length.
	Duration time.Duration
	Size     int
	Rated    bool
	Control  timecontrol.Control
	Status   Status
	// Round is the rounds paired so far (an arena's games paired).
	Round int
	// StartsAt is when it starts (then when it started); zero: when its
	// organiser starts it.
	StartsAt time.Time
	// EndsAt is when an arena stops pairing.
	EndsAt time.Time
	// TeamTop makes it a team battle between servers (teams.go): each
	// team scores its best TeamTop players' points; 0 for none.
	TeamTop int
	// HostTeam is the host server's team name, kept with its team when
	// the tournament is created (Teams reads it back).
	HostTeam string
	Reminded bool
	// The sign-up and standings messages, edited in place, and the
	// Discord scheduled event when there is one.
	SignupMessageID, StandingsMessageID, EventID string
	CreatedAt, FinishedAt                        time.Time
	Version                                      int64
}

// Pairing is a Game as stored: where it sits and the game played for it.
type Pairing struct {
	Game
	Board  int
	GameID int64 // 0 until the game is opened (always 0 for a bye)
	// ForfeitBy is who withdrew from it: their opponent wins without
	// play.
	ForfeitBy string
	// EndedAt is when its game ended (zero while it goes on, and for
	// byes and forfeits).
	EndedAt time.Time
	// GamePublicID finds its game's web page; GameChannelID is where it
	// is played (its thread).
	GamePublicID, GameChannelID string
}
