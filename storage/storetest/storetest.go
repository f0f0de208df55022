// Package storetest is the contract every store of the core's records
// passes: SQLite and PostgreSQL (package storage) and every in-memory fake
// a test uses instead. Each suite checks what the interfaces' documents
// promise, errors included, through the methods alone, so a fake that
// copies a rule wrong fails here rather than passing the tests it serves.
//
// The interfaces are declared here, with the methods the suites call; a
// store of the core (bot.GameStore and its kin) has them all.
package storetest

import (
	"context"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// Games is the game store's contract: bot.GameStore.
type Games interface {
	ReserveGameID(ctx context.Context) (int64, error)
	CreateGame(ctx context.Context, g *record.Game) error
	Game(ctx context.Context, id int64) (*record.Game, error)
	ActiveGame(ctx context.Context, channelID string) (*record.Game, error)
	ActiveGames(ctx context.Context) ([]*record.Game, error)
	StalledGames(ctx context.Context, before time.Time) ([]*record.Game, error)
	AppendTurn(ctx context.Context, g *record.Game, t record.Turn) error
	FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error
	TakeBack(ctx context.Context, g *record.Game, keep int, t record.Turn) error
	RestartTurn(ctx context.Context, g *record.Game, t record.Turn) error
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
	LatestHome(ctx context.Context, channelID string) (record.GameHome, error)
	ActiveGameCount(ctx context.Context, playerID string) (int, error)
	DueArchives(ctx context.Context, now time.Time) ([]record.ThreadToArchive, error)
	ClaimArchive(ctx context.Context, gameID int64, now, until time.Time) (bool, error)
	ArchiveDone(ctx context.Context, gameID int64) error
	DueGames(ctx context.Context, now time.Time, remindBefore time.Duration) ([]*record.Game, error)
	MarkReminded(ctx context.Context, g *record.Game) (bool, error)
	SetGameMessage(ctx context.Context, gameID, version int64, messageID string) (previous string, live bool, err error)
	ActiveTournamentGame(ctx context.Context, playerID string) (gameID int64, channelID string, err error)
}

// Challenges is the challenge store's contract: bot.ChallengeStore.
type Challenges interface {
	CreateChallenge(ctx context.Context, c *record.Challenge) error
	Challenge(ctx context.Context, id int64) (*record.Challenge, error)
	SetChallengeMessage(ctx context.Context, id int64, messageID string) error
	CloseChallenge(ctx context.Context, id int64, status record.ChallengeStatus) (bool, error)
	AcceptChallenge(ctx context.Context, challengeID int64, g *record.Game) error
	PendingChallenges(ctx context.Context) ([]*record.Challenge, error)
	RecentChallenges(ctx context.Context, playerID string, n int) ([]*record.Challenge, error)
}

// Preferences is the preference store's contract: bot.PreferenceStore.
type Preferences interface {
	BoardStyle(ctx context.Context, playerID string) (record.Style, error)
	SetBoardStyle(ctx context.Context, p record.Player, style record.Style, now time.Time) error
	Languages(ctx context.Context, playerID, guildID string) (record.Languages, error)
	SetUserLanguage(ctx context.Context, p record.Player, lang string, now time.Time) error
	SetGuildLanguage(ctx context.Context, guildID, lang string, now time.Time) error
	SetGuildLocale(ctx context.Context, guildID, locale string, now time.Time) error
	Setting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
	SetAvatar(ctx context.Context, p record.Player, hash string, now time.Time) error
	Avatar(ctx context.Context, playerID string) (string, error)
}

// The players and the time every suite uses.
var (
	Ann = record.Player{ID: "900000000000000001", Name: "ann"}
	Ben = record.Player{ID: "900000000000000002", Name: "ben"}
	Cat = record.Player{ID: "900000000000000003", Name: "cat"}
	T0  = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
)

// NewGame is a new active game of guild "g1" in channel, not stored yet.
func NewGame(t testing.TB, channel string, black, white record.Side, size int) *record.Game {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	return &record.Game{GuildID: "g1", ChannelID: channel, Black: black, White: white, State: game.NewGame(start),
		CreatedAt: T0, UpdatedAt: T0, TurnStartedAt: T0}
}

// created stores a new 6x6 game in channel.
func created(t *testing.T, s Games, channel string, black, white record.Side) *record.Game {
	t.Helper()
	g := NewGame(t, channel, black, white, 6)
	if err := s.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return g
}

// Play makes g's first legal move at at and stores the turn, with a
// deadline a day later.
func Play(t testing.TB, s Games, g *record.Game, at time.Time) error {
	t.Helper()
	moves := g.State.Position().LegalMoves()
	if len(moves) == 0 {
		t.Fatalf("game %d has no move to play", g.ID)
	}
	plies, err := g.State.Play(moves[0])
	if err != nil {
		t.Fatal(err)
	}
	return s.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: at, Deadline: at.Add(24 * time.Hour)})
}
