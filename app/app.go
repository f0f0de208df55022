// Package app builds the bot from its parts, in one visible order: the
// core service over the store and the engine, then each capability
// mounted on it. Every transport (Discord, the terminal) and every test
// that runs the whole bot gets it here.
package app

import (
	"log/slog"

	"othello-bot/bot"
	"othello-bot/bot/tournaments"
	"othello-bot/engine"
)

// Store is what the core and every capability keep: storage.Store is one.
type Store interface {
	bot.Store
	tournaments.Store
}

// Config is the core's configuration and each capability's.
type Config struct {
	bot.Config
	Tournaments tournaments.Config
}

// New builds the service and mounts the capabilities on it.
func New(store Store, eng *engine.Engine, clock bot.Clock, notify bot.Notifier, cfg Config, log *slog.Logger) *bot.Service {
	svc := bot.New(store, eng, clock, notify, cfg.Config, log)
	tc := cfg.Tournaments
	if tc.DefaultSize == 0 {
		tc.DefaultSize = cfg.DefaultSize
	}
	svc.Mount(tournaments.New(svc, store, tc))
	return svc
}
