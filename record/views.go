package record

import (
	"errors"
	"time"

	"othello-bot/game"
)

// Turn is one turn to store: the plies it made (a move and any pass it
// forced; the game's state already holds them) and the timers it starts.
type Turn struct {
	Plies    []game.Ply
	At       time.Time
	Deadline time.Time // zero: no move timeout
	RemindAt time.Time // see Game.RemindAt
	Left     [2]time.Duration
	// ReplyToken and ReplyExpires note the reply owed to the player who
	// made this turn while the bot thinks about its own; a turn without
	// them (the bot's) clears the note.
	ReplyToken   string
	ReplyExpires time.Time
	// Shows is the message that will show the game after this turn (the
	// live message whose menu made it, edited in place by the answer):
	// when it is the game's live message, the turn records that message
	// as showing its version, in the same write — no write of its own
	// after the answer lands. "" records nothing.
	Shows string
	// End, on the turn that ends the game, is its result (and Rate the
	// ratings' update): stored with the turn, in one transaction, so no
	// reader sees the last move with the game still running.
	End  *Result
	Rate *RatingUpdate
}

// Standing is a player's place on a leaderboard.
type Standing struct {
	Rating
	Rank        int
	Provisional bool
}

// LevelRecord is a player's record against one bot level.
type LevelRecord struct {
	Level               int
	Wins, Losses, Draws int
}

// Outcome is how a finished game went for one player.
type Outcome int

const (
	Won Outcome = iota + 1
	Lost
	Drew
	AbortedGame // ended without a result (aborted, abandoned); it does not count
)

// String is the outcome as a past-tense verb: "won", "lost", "drew",
// "aborted".
func (o Outcome) String() string {
	switch o {
	case Won:
		return "won"
	case Lost:
		return "lost"
	case Drew:
		return "drew"
	case AbortedGame:
		return "aborted"
	}
	return "unknown"
}

// GameHome is where a game lives and whether it runs: enough to tell a
// game's thread from a channel without loading the game.
type GameHome struct {
	GameID   int64
	ParentID string // "" for a game in a channel itself
	Status   Status
}

// GameVersion is a game's version, by its web page's id.
type GameVersion struct {
	PublicID string
	Version  int64
}

// ThreadToArchive is a finished game's thread due to be archived.
type ThreadToArchive struct {
	GameID   int64
	ThreadID string
}

// HistoryEntry is one finished game seen from one player.
type HistoryEntry struct {
	GameID     int64
	Takebacks  int // moves taken back with /undo
	FinishedAt time.Time
	Color      game.Color
	Opponent   Side
	Mine       int // the player's discs
	Theirs     int
	Result     Outcome
	Reason     EndReason
	Size       int
	Transcript string
	Control    string // the time control as the results log writes it; "" none
}

// Errors about challenges.
var (
	// ErrChallengePending: the challenger already has a pending challenge
	// in the channel.
	ErrChallengePending = errors.New("you already have a pending challenge in this channel")
	// ErrNotPending: the challenge was already accepted, declined,
	// canceled or expired.
	ErrNotPending = errors.New("the challenge is no longer open")
)

// RatingUpdate is how a finished rated game changes ratings: in each of
// Scopes, the store hands Apply both players' ratings before the game
// (zero, with Games 0, for a player new there) and saves what it returns.
// The rules live with the caller; the store only keeps the numbers.
type RatingUpdate struct {
	Scopes []string
	Apply  func(black, white Rating) (Rating, Rating)
}

// DeviationGrowth is how a store ranks ratings at a time: a deviation
// grows with idle time as Glicko-2 does (deviation² + periods·(volatility·
// Scale)², at most Max), and a rating whose grown deviation is above
// Threshold is provisional, listed after the established ones.
type DeviationGrowth struct {
	Now       time.Time
	Period    time.Duration
	Scale     float64
	Max       float64
	Threshold float64
}
