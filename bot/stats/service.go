// Package stats is what a server's and a player's games say, in chat:
// /stats, /leaderboard, /history, /openings and /games. The ratings are
// package rating's, the openings package opening's; this package reads
// the store and shows them. It mounts on the core service (package bot) as a
// capability.
package stats

import (
	"context"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/opening"
	"othello-bot/record"
)

// Store is what stats read. Errors other than the ones listed are
// failures of the store itself.
type Store interface {
	// Leaderboard returns the top of a scope, ranked as growth says.
	Leaderboard(ctx context.Context, scope string, growth record.DeviationGrowth, limit int) ([]record.Standing, error)
	// Standing returns a player's place in a scope, or fails with
	// record.ErrNotFound if they have no rating there.
	Standing(ctx context.Context, playerID, scope string, growth record.DeviationGrowth) (record.Standing, error)
	// History returns a player's latest finished games, newest first.
	History(ctx context.Context, playerID string, limit int) ([]record.HistoryEntry, error)
	// RecordAgainstBot returns a player's results per bot level.
	RecordAgainstBot(ctx context.Context, playerID string) ([]record.LevelRecord, error)
	// FinishedGames lists a server's finished games of one size, newest
	// first, at most limit ("" for games outside servers).
	FinishedGames(ctx context.Context, guildID string, size, limit int) ([]opening.Played, error)
	// RunningGames returns a server's active games, oldest first, at most
	// limit; with playerID set, only that player's.
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
}

// Core is what stats need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	// GamePage is a game's web page, or "" where none is served.
	GamePage(g *record.Game) string
}

// Service answers stats on a core.
type Service struct {
	Core
	store Store
	more  []FieldsFunc
}

// FieldsFunc gives /stats more fields about a player (Puzzle Storm's
// bests), none when there is nothing to say.
type FieldsFunc func(ctx context.Context, t *catalog.Printer, playerID string) ([]bot.Field, error)

// Also adds fields to every /stats, after the games' own. It is part of
// building the service, before it takes requests.
func (s *Service) Also(f FieldsFunc) { s.more = append(s.more, f) }

// New returns the stats capability; mount it on core.
func New(core Core, store Store) *Service { return &Service{Core: core, store: store} }

// Routes answers /stats, /leaderboard, /history, /openings and /games.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"stats":       s.stats,
		"leaderboard": s.leaderboard,
		"history":     s.history,
		"openings":    s.openings,
		"games":       s.listGames,
	}
}
