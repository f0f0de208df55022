// Package record holds the records the bot keeps about play: players, games
// with their moves, results and clocks (and what each stored change does to
// a game), challenges, ratings and standings, history, preferences and
// languages, puzzles with their tries and solvers, the daily puzzle, and the
// errors stores report. They are plain Go types, free of Discord and SQL;
// storage persists them and the bot works with them.
package record

import (
	"errors"
	"slices"
	"time"

	"othello-bot/game"
	"othello-bot/pool"
	"othello-bot/timecontrol"
)

// Player is a person who plays, known by their chat user id.
type Player struct {
	ID   string
	Name string
}

// Side is who plays one colour: a player, or the bot at a level.
type Side struct {
	Player Player // zero for the bot
	Level  int    // the bot's level when Player is zero
}

// IsBot reports whether the engine plays this side.
func (s Side) IsBot() bool { return s.Player.ID == "" }

// Bot returns the side played by the engine at a level.
func Bot(level int) Side { return Side{Level: level} }

// Human returns the side played by a player.
func Human(p Player) Side { return Side{Player: p} }

// Status is where a game stands.
type Status string

const (
	Active   Status = "active"
	Finished Status = "finished"
	Aborted  Status = "aborted"
)

// EndReason says how a game ended.
type EndReason string

const (
	EndNormal  EndReason = "normal"  // neither side could move
	EndResign  EndReason = "resign"  // a player resigned
	EndTimeout EndReason = "timeout" // the player to move ran out of time
	EndAbort   EndReason = "abort"   // ended before each side moved twice; unrated
	// EndAbandoned ends a game against the bot whose player stopped
	// moving; unrated.
	EndAbandoned EndReason = "abandoned"
	// EndModerator is a game a moderator ended, with a reason; unrated.
	EndModerator EndReason = "aborted-by-moderator"
)

// Unfinished says a game that ended this way has no result: no winner, no
// rating change, and it counts as unfinished in statistics.
func (r EndReason) Unfinished() bool {
	return r == EndAbort || r == EndAbandoned || r == EndModerator
}

// Game is one game in a channel, with everything needed to resume it.
type Game struct {
	ID        int64
	GuildID   string // the server; "" for direct messages and the terminal
	ChannelID string // where the game lives: a channel, or its own thread
	// ParentID is the channel the game's thread was opened from; "" when
	// the game lives in a channel itself.
	ParentID string
	// PublicID names the game's web page: random, so pages of other
	// servers' games cannot be guessed from the game numbers.
	PublicID string
	Black    Side
	White    Side
	Rated    bool
	Status   Status

	// State is the game itself: where it began, every turn (passes
	// included) and where it stands. The one copy of the game's state:
	// a move is played on it, then stored.
	State *game.Game

	// Version rises with every change; writers name the version they read
	// and are refused if it moved on meanwhile.
	Version int64

	CreatedAt     time.Time
	UpdatedAt     time.Time
	TurnStartedAt time.Time
	// Deadline is when the player to move loses on time (their flag
	// falls), a live game whose first move never came is aborted, or a
	// game against the bot left alone is abandoned; zero: none.
	Deadline time.Time
	// RemindAt is when the player to move is pinged that their time runs
	// low (live: 10 s before the flag); zero: the configured time before
	// the deadline. Reminded says that ping has gone out.
	RemindAt time.Time
	Reminded bool
	// TournamentID is the tournament the game was paired in; 0 for none.
	TournamentID int64
	// Control is the game's time control; zero for none (a game against
	// the bot without a clock). Left is each side's clock when its
	// current or next turn begins (live controls only).
	Control   timecontrol.Control
	Left      [2]time.Duration
	Takebacks int // moves taken back with /undo
	// Opening is how the standard start led to State.Start(): an XOT
	// game's eight opening moves, which are its start, not its moves.
	Opening   []game.Square
	MessageID string // the chat message showing the board, if any
	// ShownIn is the message the last turn's own write recorded as showing
	// this version (Turn.Shows): held in memory only, "" once anything
	// else changes the game.
	ShownIn string
	Style   Style // how the board is shown
	// ReplyToken is the chat's handle on a reply the bot still owes the
	// player (it is thinking), valid until ReplyExpires; "" when none.
	ReplyToken   string
	ReplyExpires time.Time

	Result *Result // set once the game has ended
}

// Clone returns a copy of g that changes independently of it.
func (g *Game) Clone() *Game {
	c := *g
	c.State = g.State.Clone()
	if g.Result != nil {
		r := *g.Result
		c.Result = &r
	}
	return &c
}

// Size returns the board size.
func (g *Game) Size() int { return g.State.Start().Size() }

// Position returns where the game stands.
func (g *Game) Position() game.Position { return g.State.Position() }

// Plies returns every turn so far, passes included.
func (g *Game) Plies() []game.Ply { return g.State.Plies() }

// PlyCount is len(Plies()) without the copy.
func (g *Game) PlyCount() int { return g.State.PlyCount() }

// Transcript is the game from the standard start: its opening, if any,
// then its moves.
func (g *Game) Transcript() string {
	return game.FormatTranscript(append(slices.Clip(g.Opening), g.State.Moves()...), g.Size())
}

// Side returns who plays a colour.
func (g *Game) Side(c game.Color) Side {
	if c == game.White {
		return g.White
	}
	return g.Black
}

// ToMove returns who is to move.
func (g *Game) ToMove() Side { return g.Side(g.State.Position().ToMove()) }

// ClockSide is a colour's index in the clocks: black 0, white 1.
func ClockSide(c game.Color) timecontrol.Side {
	if c == game.White {
		return 1
	}
	return 0
}

// Clock is the game's clocks as they stand: the stored times, each side's
// moves so far (a first move is not timed) and the turn running since
// TurnStartedAt. Meaningful when Control is set.
func (g *Game) Clock() timecontrol.Clock {
	return timecontrol.Clock{Control: g.Control, Left: g.Left, Moves: [2]int{g.MovesBy(game.Black), g.MovesBy(game.White)},
		ToMove: ClockSide(g.Position().ToMove()), TurnStart: g.TurnStartedAt}
}

// MovesBy counts the moves a colour made, passes left out.
func (g *Game) MovesBy(c game.Color) int { return g.State.MovesBy(c) }

// Style is how a board is shown in chat.
type Style string

const (
	StyleAuto  Style = "auto"  // emoji up to the configured size, a picture above
	StyleEmoji Style = "emoji" // emoji where the size allows
	StyleImage Style = "image" // always a picture
)

// ParseStyle reads a style name; "" is StyleAuto.
func ParseStyle(s string) (Style, bool) {
	switch Style(s) {
	case StyleAuto, StyleEmoji, StyleImage:
		return Style(s), true
	case "":
		return StyleAuto, true
	}
	return "", false
}

// Result is how a game ended.
type Result struct {
	GameID     int64
	FinishedAt time.Time
	BlackDiscs int
	WhiteDiscs int
	Winner     game.Color // Empty for a draw, and for an aborted game
	Reason     EndReason
	// Note is why a moderator ended the game, WithdrawalNote on a game
	// lost as a resignation because its player left its tournament, and
	// "" otherwise.
	Note string
	// ArchiveAt is when the game's thread is to be archived; zero for none.
	ArchiveAt time.Time
}

// WithdrawalNote marks a resignation that was a tournament withdrawal:
// lost as a resignation is, said as a withdrawal.
const WithdrawalNote = "withdrawal"

// Withdrawal says the game was lost by leaving its tournament.
func (r *Result) Withdrawal() bool {
	return r != nil && r.Reason == EndResign && r.Note == WithdrawalNote
}

// Challenge is an invitation to a player-vs-player game.
type Challenge struct {
	ID         int64
	GuildID    string
	ChannelID  string
	Challenger Player
	Opponent   Player      // zero for an open challenge anyone may take
	Color      ColorChoice // the challenger's
	Size       int
	Rated      bool
	Status     ChallengeStatus
	CreatedAt  time.Time
	ExpiresAt  time.Time
	MessageID  string
	GameID     int64 // the game it became, once accepted
	Style      Style // the board style of the game it becomes
	// Control is the time control of the game it becomes.
	Control timecontrol.Control
	// XOT starts the game from a random balanced 8-move opening.
	XOT bool
}

// ChallengeStatus is where a challenge stands.
type ChallengeStatus string

const (
	ChallengePending  ChallengeStatus = "pending"
	ChallengeAccepted ChallengeStatus = "accepted"
	ChallengeDeclined ChallengeStatus = "declined"
	ChallengeCanceled ChallengeStatus = "canceled"
	ChallengeExpired  ChallengeStatus = "expired"
)

// GlobalScope is the rating scope across all servers.
const GlobalScope = "global"

// SpeedScope is the rating scope of one speed within a scope (a server id
// or GlobalScope): correspondence keeps the scope's own name, which the
// ratings from before time controls were kept under; a live speed's is
// the scope with "/speed" after it.
func SpeedScope(scope string, c timecontrol.Category) string {
	if c == timecontrol.Correspondence || c == "" {
		return scope
	}
	return scope + "/" + string(c)
}

// Rating is a player's Glicko-2 rating in one scope (a server id, or
// GlobalScope).
type Rating struct {
	Player     Player
	Scope      string
	Rating     float64
	Deviation  float64
	Volatility float64
	Games      int
	Wins       int
	Losses     int
	Draws      int
	UpdatedAt  time.Time
}

// Errors the store reports in domain terms.
var (
	ErrNotFound    = errors.New("not found")
	ErrStale       = errors.New("the game changed meanwhile")
	ErrChannelBusy = errors.New("a game is already running in this channel")
	ErrNotActive   = errors.New("the game is not active")
)

// ColorChoice is the colour a player asks for: one of the two, or drawn at
// random when the game starts.
type ColorChoice int

const (
	RandomColor ColorChoice = iota
	ChooseBlack
	ChooseWhite
)

// Choose asks for a colour.
func Choose(c game.Color) ColorChoice {
	switch c {
	case game.Black:
		return ChooseBlack
	case game.White:
		return ChooseWhite
	}
	return RandomColor
}

// Color is the colour asked for, and false for a random draw.
func (c ColorChoice) Color() (game.Color, bool) {
	switch c {
	case ChooseBlack:
		return game.Black, true
	case ChooseWhite:
		return game.White, true
	}
	return game.Empty, false
}

// Languages are the language choices stored for a player and a server, as
// catalog language codes ("en", "ja"); "" where none was made (then
// Discord's language applies). GuildLocale is the server's Discord
// language as last seen, for posts no interaction brings.
type Languages struct {
	User, Guild, GuildLocale string
}

// PuzzleStanding is one line of a server's puzzle leaderboard: a player's
// puzzle rating, their best streak, and the puzzles they tried and solved
// in that server.
type PuzzleStanding struct {
	Player            Player
	Rating, Deviation float64
	BestStreak        int
	Solved, Tried     int
}

// SolvedCount is how many puzzles a player solved in a server over a
// span (a month, for its puzzle leader).
type SolvedCount struct {
	GuildID, PlayerID string
	Count             int
}

// DailySetting is where and when a server's daily puzzle is posted: a
// channel ("" for none) and an hour of the day, UTC.
type DailySetting struct {
	GuildID, ChannelID string
	Hour               int
}

// PoolEntry is a player waiting in a server's pairing pool: what they
// want (pool.Entry), where they asked and the message that shows them
// waiting.
type PoolEntry struct {
	pool.Entry
	Player    Player
	ChannelID string
	MessageID string
	// PingMessageID is the message that pinged the server's play role
	// for it ("" for none).
	PingMessageID string
}

// ErrWaiting: the player waits in the server's pool already.
var ErrWaiting = errors.New("already waiting in the pool")

// TVSetting is a server's Othello TV: the channel where its best live
// game is followed ("" for none), the message showing it and that game (0
// while none is shown).
type TVSetting struct {
	GuildID, ChannelID, MessageID string
	GameID                        int64
}

// Daily is a server's daily puzzle of one day (YYYY-MM-DD, UTC): the
// puzzle, and the message that posted it once it is out.
type Daily struct {
	GuildID, Day         string
	PuzzleID             int64
	ChannelID, MessageID string
	Posted               time.Time
}
