// Package analyses is /analyze in chat: a finished game's moves compared
// with the engine's best, worked out in the background one game at a time
// (with a progress message edited as it goes) and kept in the store, so
// each game is analysed once. The analysis itself is package analysis's.
// It mounts on the core service (package bot) as a capability.
package review

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/engine"
	"othello-bot/record"
)

// Store keeps analyses.
type Store interface {
	// Analysis returns a game's stored analysis, or fails with
	// record.ErrNotFound.
	Analysis(ctx context.Context, gameID int64) ([]byte, error)
	// SaveAnalysis stores a game's analysis (replacing one stored).
	SaveAnalysis(ctx context.Context, gameID int64, report []byte, at time.Time) error
}

// Core is what analyses need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	// Background is the context of work no request waits for: shutdown
	// cancels it.
	Background() context.Context
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	EditReply(ctx context.Context, token string, m bot.Message) (string, error)
	// FinishedGame is the game a number names for this request, or the
	// refusal that says why not.
	FinishedGame(ctx context.Context, req bot.Request, id int64) (*record.Game, *bot.Response, error)
}

// maxQueuedAnalyses bounds the analyses waiting or running; one runs at a
// time, so the engine stays free for the games being played.
const maxQueuedAnalyses = 8

// analyses is the queue of analyses.
type analyses struct {
	mu sync.Mutex
	// running holds the subjects queued or running ("game 12", a
	// record's digest), so one is never analysed twice at once.
	running map[string]bool
	queued  int
	slot    chan struct{}
	wg      sync.WaitGroup
}

func newAnalyses() *analyses {
	return &analyses{running: map[string]bool{}, slot: make(chan struct{}, 1)}
}

// Service draws replays and runs analyses on a core.
type Service struct {
	Core
	store Store
	eng   *engine.Engine
	queue *analyses
	// replays holds one token per replay being drawn.
	replays chan struct{}
}

// New returns the review capability; mount it on core.
func New(core Core, store Store, eng *engine.Engine) *Service {
	return &Service{Core: core, store: store, eng: eng, queue: newAnalyses(), replays: make(chan struct{}, maxReplays)}
}

// Routes answers /replay, the Replay button, /analyze and /export.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"replay": s.replayCommand,
		"replay:": func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.replayButton(ctx, req)
		},
		"analyze": s.analyzeCommand,
		"export":  s.exportCommand,
	}
}

// Drain waits until no analysis is queued or running: shutdown waits for
// them (each stops soon once the core's background context ends), and
// the terminal before it quits.
func (s *Service) Drain() { s.queue.wg.Wait() }
