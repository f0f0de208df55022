// Package tournaments is the flow of tournaments in chat: /tournament's
// subcommands, the sign-up buttons, and the driver that moves a running
// tournament on (pair the next round, open its games in threads, post
// the standings, finish with a podium). The rules, and the decision of
// what a tournament needs next, are package tournament's; that each thing
// happens once, whoever tries, is the store's. It mounts on the core
// service (package bot) as a capability.
package tournaments

import (
	"context"
	"log/slog"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/schedule"
	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// PermManageEvents is Discord's Manage Events permission: creating a
// tournament, which is an event of the server.
const PermManageEvents int64 = 1 << 33

// tournamentReminder is how long before its start a tournament pings its
// entrants.
const tournamentReminder = 10 * time.Minute

// tournamentControl is a tournament's clock when its organiser names none.
var tournamentControl = timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second}

// Store keeps tournaments. Each change is conditional, so that with
// several processes on one database each thing happens once; errors
// other than the ones listed are failures of the store itself.
type Store interface {
	// CreateTournament stores a new tournament taking sign-ups, with its
	// organiser, and sets its ID, PublicID and Version.
	CreateTournament(ctx context.Context, t *tournament.Tournament, organiser record.Player) error
	// Tournament loads one, or fails with record.ErrNotFound.
	Tournament(ctx context.Context, id int64) (*tournament.Tournament, error)
	// OpenTournaments lists the tournaments not ended, newest first: of
	// one channel, or of every channel with channelID "".
	OpenTournaments(ctx context.Context, channelID string) ([]*tournament.Tournament, error)
	// UpdateTournament stores t's settings and status and moves its
	// Version on; record.ErrStale if it changed since t was read.
	UpdateTournament(ctx context.Context, t *tournament.Tournament) error
	// JoinTournament enters a player at a rating, for a team in a team
	// battle ("" in any other);
	// tournament.ErrAlreadyEntered if they are in it.
	JoinTournament(ctx context.Context, id int64, p record.Player, team string, rating float64, at time.Time) error
	// LeaveTournament takes a player out: their entry deleted before the
	// start, marked withdrawn after it. False if they were not in it.
	LeaveTournament(ctx context.Context, id int64, playerID string, started bool, at time.Time) (bool, error)
	// Tournaments lists a server's tournaments, open and over, newest
	// first, at most limit; with channelID set, only that channel's.
	Tournaments(ctx context.Context, guildID, channelID string, limit int) ([]*tournament.Tournament, error)
	// Entrants lists a tournament's players, in the order they entered.
	Entrants(ctx context.Context, id int64) ([]tournament.Entrant, error)
	// PairTournament stores the next pairings of a running tournament
	// unchanged since t was read, moving t's round and version on;
	// record.ErrStale if another process paired or changed it first,
	// tournament.ErrAlreadyPaired if a pairing is already stored.
	PairTournament(ctx context.Context, t *tournament.Tournament, pairings []tournament.Pairing) error
	// Pairings lists every pairing so far with its game's result.
	Pairings(ctx context.Context, id int64) ([]tournament.Pairing, error)
	// OpenPairingGame creates a pairing's game and links it in one
	// transaction; tournament.ErrAlreadyPaired if it has one,
	// tournament.ErrNotRunning if the tournament is no longer running.
	OpenPairingGame(ctx context.Context, id int64, round, board int, g *record.Game) error
	// ForfeitPairing gives a pairing without a result to the opponent of
	// by; false if it had one.
	ForfeitPairing(ctx context.Context, id int64, round, board int, by string) (bool, error)
	// Game loads a game, or fails with record.ErrNotFound.
	Game(ctx context.Context, id int64) (*record.Game, error)
	// Standing is a player's rating in a scope, or record.ErrNotFound.
	Standing(ctx context.Context, playerID, scope string, growth record.DeviationGrowth) (record.Standing, error)
	TeamStore
}

// Core is what tournaments need of the shared game flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	Notifier() bot.Notifier

	// Opening and ending a tournament's games: the game made by the flow,
	// opened in its thread, ended with its board shown.
	Flow() *play.Flow
	OpenInThread(ctx context.Context, pub *catalog.Printer, parent string, g *record.Game, note string, store func(ctx context.Context) error) error
	EndShown(ctx context.Context, pub *catalog.Printer, g *record.Game, result record.Result, line string) error

	// Reading a request as every command does.
	TimeOption(req bot.Request, vsBot bool) (timecontrol.Control, *bot.Response)
	MissingPermission(req bot.Request, size int, style record.Style) string
}

// Config is what tournaments need from the configuration.
type Config struct {
	// DefaultSize is a tournament's board when its organiser names none.
	DefaultSize int
	// Roles may create tournaments, besides members with Manage Events or
	// Manage Server.
	Roles []string
	// URL gives the address of a tournament's web page; nil without one.
	URL func(publicID string) string
	// GamePage is a game's web page, where a team battle's players from
	// other servers play; nil where none is served (no team battles).
	GamePage func(g *record.Game) string
	// Crowned hears who won a finished tournament (several on a shared
	// first place), after its podium; nil: nobody listens.
	Crowned func(ctx context.Context, guildID string, playerIDs []string)
}

// Service runs tournaments on a core.
type Service struct {
	Core
	store Store
	cfg   Config
	// tournaments keeps one step of each tournament at a time.
	tournaments tournamentLocks
}

// New returns the tournaments capability; mount it on core.
func New(core Core, store Store, cfg Config) *Service {
	return &Service{Core: core, store: store, cfg: cfg}
}

// Routes answers /tournament's subcommands and the sign-up buttons.
func (s *Service) Routes() map[string]bot.Handler {
	button := func(action string) bot.Handler {
		return func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.tournamentButton(ctx, req, action)
		}
	}
	return map[string]bot.Handler{
		"tournament create": s.tournamentCreate,
		"tournament join":   s.tournamentJoin,
		"tournament leave":  s.tournamentLeave,
		"tournament show":   s.tournamentShow,
		"tournament list":   s.tournamentList,
		"tournament start":  s.tournamentStart,
		"tournament pause":  s.tournamentPause,
		"tournament cancel": s.tournamentCancel,
		"tournament kick":   s.tournamentKick,
		"tournament invite": s.tournamentInvite,
		"tournament accept": s.tournamentAccept,
		"tjoin:":            button("tjoin"),
		"tleave:":           button("tleave"),
		"tleave-yes:":       s.withdrawYes,
		"tleave-no:":        s.withdrawNo,
	}
}

// Jobs move every open tournament on: reminders before the start, the
// start itself, and a step for running ones.
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{{Name: "tournaments", Run: s.tick}}
}

// GameEnded moves a tournament on after one of its games ended (the next
// round, the standings); a tick would do it anyway if this process
// stopped first. A game ended by a step of its own needs no other.
func (s *Service) GameEnded(ctx context.Context, g *record.Game) {
	if g.TournamentID != 0 && !steppingTournament(ctx, g.TournamentID) {
		s.stepTournament(ctx, g.TournamentID)
	}
}
