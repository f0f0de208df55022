package bot

// This file is the store the service needs, declared where it is used.

import (
	"context"
	"time"

	"othello-bot/record"
)

// Stores are what the core keeps and reads, one interface per kind of
// record: storage.Store (SQLite or PostgreSQL) is each of them, and the
// core's tests use a fake. Errors other than the ones listed are failures
// of the store itself.
type Stores struct {
	Games      GameStore
	Challenges ChallengeStore
	Prefs      PreferenceStore
}

// StoresOf is every store of the core kept in one place.
func StoresOf(s interface {
	GameStore
	ChallengeStore
	PreferenceStore
}) Stores {
	return Stores{Games: s, Challenges: s, Prefs: s}
}

// GameStore keeps games: their turns, results, timers and messages.
type GameStore interface {
	// ReserveGameID hands out the number of a game not stored yet; CreateGame
	// stores a game whose ID is set under that number.
	ReserveGameID(ctx context.Context) (int64, error)
	// CreateGame stores a new active game and sets its ID and Version.
	// It fails with record.ErrChannelBusy if the channel has an active game.
	CreateGame(ctx context.Context, g *record.Game) error
	// Game loads a game by id, or fails with record.ErrNotFound.
	Game(ctx context.Context, id int64) (*record.Game, error)
	// ActiveGame loads a channel's active game, or fails with
	// record.ErrNotFound.
	ActiveGame(ctx context.Context, channelID string) (*record.Game, error)
	// ActiveGames loads every active game.
	ActiveGames(ctx context.Context) ([]*record.Game, error)
	// StalledGames loads the active games untouched since before in which
	// the bot is to move or no one can, reading only the rows of the rest.
	StalledGames(ctx context.Context, before time.Time) ([]*record.Game, error)
	// AppendTurn stores a turn of g, whose state already holds it, and
	// moves g.Version on. It fails with record.ErrStale if the game moved
	// past g.Version meanwhile, record.ErrNotActive if it has ended.
	AppendTurn(ctx context.Context, g *record.Game, t record.Turn) error
	// FinishGame ends an active game with its result and, with rate set,
	// updates the ratings in the same transaction; then the results log
	// gets the game's line. It fails with record.ErrStale or
	// record.ErrNotActive as AppendTurn does.
	FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error
	// RestartTurn moves g's running turn to start at t.At with t's
	// clocks, deadline and reminder (its clock stood still while the bot
	// was down) and g.Version on; plies and the reminder's mark stay.
	// It fails with record.ErrStale or record.ErrNotActive as AppendTurn
	// does.
	RestartTurn(ctx context.Context, g *record.Game, t record.Turn) error
	// TakeBack rewinds an active game to its first keep plies (a
	// takeback), as of the game's version (record.ErrStale,
	// record.ErrNotActive), its turn starting again as t says.
	TakeBack(ctx context.Context, g *record.Game, keep int, t record.Turn) error
	// RunningGames returns a server's active games, oldest first, at most
	// limit; with playerID set, only that player's.
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
	// LatestHome tells where the newest game, running or not, of a
	// channel or thread lives, or fails with record.ErrNotFound.
	LatestHome(ctx context.Context, channelID string) (record.GameHome, error)
	// ActiveGameCount is how many running games a player plays in.
	ActiveGameCount(ctx context.Context, playerID string) (int, error)
	// DueArchives lists the threads of finished games due to be archived;
	// ClaimArchive takes one for the caller until `until` (true once,
	// whichever of the processes sharing the store asks first; due again
	// then unless ArchiveDone says it was archived, so a process that
	// stops between the two loses nothing).
	DueArchives(ctx context.Context, now time.Time) ([]record.ThreadToArchive, error)
	ClaimArchive(ctx context.Context, gameID int64, now, until time.Time) (bool, error)
	ArchiveDone(ctx context.Context, gameID int64) error
	// DueGames returns the active games whose reminder or deadline is due.
	DueGames(ctx context.Context, now time.Time, remindBefore time.Duration) ([]*record.Game, error)
	// MarkReminded notes that g's player to move was reminded; false if
	// someone else did or the game moved on.
	MarkReminded(ctx context.Context, g *record.Game) (bool, error)
	// SetGameMessage records a game's live message (see Service.Posted):
	// the message it replaces, and whether this one is now the live one.
	SetGameMessage(ctx context.Context, gameID, version int64, messageID string) (previous string, live bool, err error)
	// ActiveTournamentGame is a player's running tournament game and
	// where it is played, or record.ErrNotFound.
	ActiveTournamentGame(ctx context.Context, playerID string) (gameID int64, channelID string, err error)
}

// ChallengeStore keeps challenges between members.
type ChallengeStore interface {
	// CreateChallenge stores a pending challenge and sets its ID. It fails
	// with record.ErrChallengePending if the challenger has one pending in
	// the channel.
	CreateChallenge(ctx context.Context, c *record.Challenge) error
	// Challenge loads a challenge, or fails with record.ErrNotFound.
	Challenge(ctx context.Context, id int64) (*record.Challenge, error)
	// SetChallengeMessage records the message that shows a challenge.
	SetChallengeMessage(ctx context.Context, id int64, messageID string) error
	// CloseChallenge moves a pending challenge to a final status; false if
	// it was no longer pending.
	CloseChallenge(ctx context.Context, id int64, status record.ChallengeStatus) (bool, error)
	// AcceptChallenge closes a pending challenge and creates its game in
	// one transaction. It fails with record.ErrNotPending or
	// record.ErrChannelBusy.
	AcceptChallenge(ctx context.Context, challengeID int64, g *record.Game) error
	// PendingChallenges returns the pending challenges, soonest to expire
	// first.
	PendingChallenges(ctx context.Context) ([]*record.Challenge, error)
	// RecentChallenges returns a player's last n challenges, newest first.
	RecentChallenges(ctx context.Context, playerID string, n int) ([]*record.Challenge, error)
}

// PreferenceStore keeps players' and servers' choices, and small values
// kept between runs.
type PreferenceStore interface {
	// BoardStyle returns a player's chosen board style (auto if none).
	BoardStyle(ctx context.Context, playerID string) (record.Style, error)
	// SetBoardStyle remembers a player's board style.
	SetBoardStyle(ctx context.Context, p record.Player, style record.Style, now time.Time) error

	// Languages returns a player's and a server's language choices (either
	// id may be empty); nothing stored is no error.
	Languages(ctx context.Context, playerID, guildID string) (record.Languages, error)
	// SetUserLanguage stores a player's language ("" follows Discord's).
	SetUserLanguage(ctx context.Context, p record.Player, lang string, now time.Time) error
	// SetGuildLanguage stores a server's language ("" follows Discord's).
	SetGuildLanguage(ctx context.Context, guildID, lang string, now time.Time) error
	// SetGuildLocale remembers a server's Discord language.
	SetGuildLocale(ctx context.Context, guildID, locale string, now time.Time) error

	// Setting reads a small value kept between runs ("" if none);
	// SetSetting writes one ("" clears it).
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
}
