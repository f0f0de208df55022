// Package puzzles is the flow of puzzles in chat: /puzzle gives a player
// a position from their server's own games, answered with the move menu
// and rated as lichess rates puzzles; the daily puzzle is posted in a
// channel each server picks; finished games are searched for new puzzles
// in the background. The rules are package puzzle's; that each try is
// answered once and each day posted once is the store's. It mounts on the
// core service (package bot) as a capability.
package puzzles

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/schedule"
)

// Store keeps puzzles, tries and the daily puzzle. Each change is
// conditional, so that with several processes on one database each thing
// happens once; errors other than the ones listed are failures of the
// store itself.
type Store interface {
	// UnsearchedGames lists up to limit finished games not yet searched
	// for puzzles, oldest first.
	UnsearchedGames(ctx context.Context, limit int) ([]int64, error)
	// Game loads a game, or fails with record.ErrNotFound.
	Game(ctx context.Context, id int64) (*record.Game, error)
	// SavePuzzles stores what a game's search found, each with the
	// rating it starts from, and marks it searched; false if another
	// process did first.
	SavePuzzles(ctx context.Context, guildID string, gameID int64, found []puzzle.Record, now time.Time) (bool, error)
	// AddBuiltinPuzzles stores the built-in set, each puzzle once by its
	// key with the rating it starts from, and says how many were new.
	AddBuiltinPuzzles(ctx context.Context, set map[string]puzzle.Record, now time.Time) (int, error)
	// Puzzle loads a puzzle, or fails with record.ErrNotFound.
	Puzzle(ctx context.Context, id int64) (puzzle.Record, error)
	// PickPuzzle chooses a puzzle a player has not tried, from their
	// server's (the built-in set when none is left), its rating near
	// near; record.ErrNotFound when none is left at all.
	PickPuzzle(ctx context.Context, guildID, playerID string, near float64) (puzzle.Record, error)
	// StartTry starts a player's try at a puzzle (of the day's puzzle
	// when daily is set).
	StartTry(ctx context.Context, p record.Player, guildID string, puzzleID int64, daily string, now time.Time) (puzzle.Try, error)
	// Try loads a try, or fails with record.ErrNotFound.
	Try(ctx context.Context, id int64) (puzzle.Try, error)
	// AdvanceTry moves a try from step to next; false if it was not at
	// step (answered twice).
	AdvanceTry(ctx context.Context, id int64, step, next int) (bool, error)
	// FinishTry ends a try at step, solved or not, and rates it in the
	// same transaction as rate says (puzzle.Finish); false if it was not
	// at step.
	FinishTry(ctx context.Context, id int64, step int, solved bool, now time.Time,
		rate func(before *puzzle.Solver, puzzle record.Glicko) record.TryRating) (puzzle.Solver, bool, error)
	// Solver is a player's puzzle record, or record.ErrNotFound before
	// their first finished try.
	Solver(ctx context.Context, playerID string) (puzzle.Solver, error)
	// PuzzleLeaderboard is the top solvers of a server.
	PuzzleLeaderboard(ctx context.Context, guildID string, limit int) ([]record.PuzzleStanding, error)
	// SetDailyPuzzle sets where and when a server's daily puzzle is
	// posted (channelID "" turns it off).
	SetDailyPuzzle(ctx context.Context, guildID, channelID string, hour int, now time.Time) error
	// DailyPuzzleSettings lists the servers with a daily puzzle;
	// DailyPuzzleSetting reads one server's (zero if none).
	DailyPuzzleSettings(ctx context.Context) ([]record.DailySetting, error)
	DailyPuzzleSetting(ctx context.Context, guildID string) (record.DailySetting, error)
	// ClaimDaily takes a server's day for the caller: true once, or again
	// after retryAfter when its post never came.
	ClaimDaily(ctx context.Context, d record.Daily, retryAfter time.Duration, now time.Time) (bool, error)
	// PostedDaily records the day's message.
	PostedDaily(ctx context.Context, guildID, day, messageID string, now time.Time) error
	// Daily loads a server's day, or fails with record.ErrNotFound.
	Daily(ctx context.Context, guildID, day string) (record.Daily, error)
	// DailySolvers are who solved a server's day's puzzle, first first.
	DailySolvers(ctx context.Context, guildID, day string) ([]record.Player, error)
	// DailyCandidate picks the day's puzzle of a server, or fails with
	// record.ErrNotFound.
	DailyCandidate(ctx context.Context, guildID string) (puzzle.Record, error)
	// SaveLessons keeps a game's lessons for a player (puzzles they alone
	// are given) and marks the game done for them; false if it was.
	SaveLessons(ctx context.Context, guildID string, gameID int64, ownerID string, lessons []puzzle.Record, now time.Time) (bool, error)
	// Lessons are a player's lessons from a game, and whether they were
	// made; NextLesson their next untried one, or record.ErrNotFound.
	Lessons(ctx context.Context, gameID int64, ownerID string) ([]puzzle.Record, bool, error)
	NextLesson(ctx context.Context, ownerID string) (puzzle.Record, error)
	// PuzzlesSolved counts each player's puzzles solved in each server
	// over [from, to).
	PuzzlesSolved(ctx context.Context, from, to time.Time) ([]record.SolvedCount, error)
}

// Core is what puzzles need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	MissingPermission(req bot.Request, size int, style record.Style) string
	Background() context.Context
}

// solver is a player's puzzle record: a newcomer's before their first.
func (s *Service) solver(ctx context.Context, playerID string) (puzzle.Solver, error) {
	v, err := s.store.Solver(ctx, playerID)
	if errors.Is(err, record.ErrNotFound) {
		return puzzle.NewSolver(), nil
	}
	return v, err
}

// Config is what puzzles need from the configuration.
type Config struct {
	// Empties is the most empty squares of a puzzle found in a game; 0
	// is 20, the solver's quick range.
	Empties int
	// Crowned hears, once a month begins, who solved the most puzzles in
	// each server the month before (several when they tie).
	Crowned func(ctx context.Context, guildID string, playerIDs []string)
	// SearchEvery is how often one finished game is searched for puzzles,
	// in the background, by the process holding the timers (the built-in
	// set added first); 0: never (the terminal searches as it waits).
	SearchEvery time.Duration
	// Modes answer /puzzle's other modes (mode:storm, mode:streak: Puzzle
	// Storm's capability), by the mode's value.
	Modes map[string]bot.Handler
	// DailyLines are lines a server's daily post begins with, about the
	// day before day (Puzzle Storm's best); nil: none.
	DailyLines func(ctx context.Context, t *catalog.Printer, guildID, day string) ([]string, error)
}

// Service runs puzzles on a core.
type Service struct {
	Core
	store Store
	eng   *engine.Engine
	cfg   Config

	crownedMu sync.Mutex
	crowned   string // the month whose leaders were last crowned here

	search searching
}

// New returns the puzzles capability; mount it on core.
func New(core Core, store Store, eng *engine.Engine, cfg Config) *Service {
	return &Service{Core: core, store: store, eng: eng, cfg: cfg}
}

// Routes answers /puzzle, its answers, the daily puzzle's button and a
// finished game's lessons button.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"puzzle": s.puzzleCommand,
		"puzzle:": func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.puzzleAnswer(ctx, req)
		},
		"daily:": func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.dailyButton(ctx, req)
		},
		"lessons:": s.lessonsButton,
	}
}

// Jobs post each server's daily puzzle once its hour has come, and crown
// the month's puzzle leaders as a month begins.
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{{Name: "daily puzzles", Run: s.postDailyPuzzles}, {Name: "puzzle leaders", Run: s.crownLeaders},
		{Name: "puzzle search", Run: s.searchDue}}
}

// crownLeaders tells Crowned the leaders of the month before, once a
// month (and once after each start, which changes nothing where they are
// crowned already: the title's holders are kept and compared). A month
// with no puzzle solved in a server leaves its title where it was.
func (s *Service) crownLeaders(ctx context.Context, now time.Time) {
	if s.cfg.Crowned == nil {
		return
	}
	month := puzzle.Month(now)
	// The month is claimed before the work, which calls Discord: no lock
	// is held across it, and a tick meanwhile finds the month taken.
	s.crownedMu.Lock()
	last := s.crowned
	s.crowned = month
	s.crownedMu.Unlock()
	if last == month {
		return
	}
	from, to := puzzle.PreviousMonth(now)
	counts, err := s.store.PuzzlesSolved(ctx, from, to)
	if err != nil {
		s.Logger(ctx).Error("tick: the month's puzzle leaders", "err", err)
		s.crownedMu.Lock()
		s.crowned = last // the next tick tries again
		s.crownedMu.Unlock()
		return
	}
	for guildID, leaders := range puzzle.Leaders(counts) {
		s.cfg.Crowned(ctx, guildID, leaders)
	}
}

// Settings answers /settings puzzle-channel: and puzzle-hour:.
func (s *Service) Settings(ctx context.Context, req bot.Request) (bot.Response, bool, error) {
	if req.Options["puzzle-channel"] == "" && req.Options["puzzle-hour"] == "" {
		return bot.Response{}, false, nil
	}
	if req.Options["language"] != "" {
		return bot.Refuse(req.Me().T("daily.one_at_a_time")), true, nil
	}
	resp, err := s.puzzleSettings(ctx, req)
	return resp, true, err
}

// SettingsOptions are the options of /settings the daily puzzle owns.
func (s *Service) SettingsOptions() []bot.OptionSpec {
	return []bot.OptionSpec{
		{Name: "puzzle-channel", Kind: bot.StringOption,
			Choices: []bot.OptionChoice{bot.ChoiceFor("choice.daily.here", "here"), bot.ChoiceFor("choice.daily.off", "off")}},
		{Name: "puzzle-hour", Kind: bot.IntegerOption, Min: 0, Max: 23},
	}
}

// SettingsLines say where and when the server's daily puzzle is posted.
func (s *Service) SettingsLines(ctx context.Context, req bot.Request) ([]string, error) {
	if req.GuildID == "" {
		return nil, nil
	}
	me := req.Me()
	daily, err := s.store.DailyPuzzleSetting(ctx, req.GuildID)
	if err != nil {
		return nil, err
	}
	if daily.ChannelID == "" {
		return []string{me.T("settings.show_daily_off")}, nil
	}
	return []string{me.T("settings.show_daily", "Channel", "<#"+daily.ChannelID+">", "Hour", daily.Hour)}, nil
}
