// Package storm is Puzzle Storm and Puzzle Streak in chat: /puzzle
// mode:storm deals a run of puzzles rising in difficulty, answered on one
// only-you message edited at each answer (the move menu), against a
// three-minute clock that combos add to and misses take from; mode:streak
// goes on until the first miss. Best scores show on /stats and a server's
// best Storm of the day in the next day's puzzle post. Package storm (at
// the top) holds the rules; the store keeps each run, moved by an answer
// only from where it stood. It mounts on the core service (package bot)
// as a capability.
package storm

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/puzzles"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
	"othello-bot/render"
	"othello-bot/storm"
)

// Store keeps runs and reads the puzzles they are dealt.
type Store interface {
	// StormPool is every puzzle a run in a server may be dealt: the
	// server's own and the built-in set.
	StormPool(ctx context.Context, guildID string) ([]storm.Candidate, error)
	// Puzzle loads a puzzle, or fails with record.ErrNotFound.
	Puzzle(ctx context.Context, id int64) (puzzle.Record, error)
	// StartRun keeps a new run and returns its id.
	StartRun(ctx context.Context, r storm.Run) (int64, error)
	// Run loads a run, or fails with record.ErrNotFound.
	Run(ctx context.Context, id int64) (storm.Run, error)
	// SaveRun writes a run an answer moved, if it still stood at (index,
	// step) and had not ended; false if another answer moved it first.
	SaveRun(ctx context.Context, r storm.Run, index, step int) (bool, error)
	// RunBests are a player's best scores in a mode since a time and
	// ever (0: none).
	RunBests(ctx context.Context, playerID string, mode storm.Mode, since time.Time) (today, ever int, err error)
	// BestRun is a server's best run of a mode started in [from, to), or
	// record.ErrNotFound.
	BestRun(ctx context.Context, guildID string, mode storm.Mode, from, to time.Time) (storm.Run, error)
	RaceStore
}

// Core is what runs need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	// Send and Edit post and edit a race's message.
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	MissingPermission(req bot.Request, size int, style record.Style) string
}

// Service runs Storm, Streak and Racer on a core.
type Service struct {
	Core
	store Store
	// stale are the races whose message an answer could not update
	// (edited less than a second before): the next tick does.
	staleMu sync.Mutex
	stale   map[int64]bool
	// links are the runs' and races' pages (nil: no pages to link).
	links Links
}

// New returns the capability; mount it on core, and give /puzzle its
// modes (Modes).
func New(core Core, store Store) *Service { return &Service{Core: core, store: store} }

// Routes answers the moves of a run's menu and a race's buttons.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{"storm:": s.answer, "racejoin:": s.joinRace, "racestart:": s.startRace, "raceplay:": s.playRace}
}

// Modes are /puzzle's modes this capability answers.
func (s *Service) Modes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"storm": func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.start(ctx, req, storm.Storm)
		},
		"streak": func(ctx context.Context, req bot.Request) (bot.Response, error) {
			return s.start(ctx, req, storm.Streak)
		},
		"race": s.openRace,
	}
}

// start deals a run and shows its first puzzle.
func (s *Service) start(ctx context.Context, req bot.Request, mode storm.Mode) (bot.Response, error) {
	me := req.Me()
	r, err := s.begin(ctx, req.User, req.GuildID, mode)
	if errors.Is(err, errNoPuzzles) {
		return bot.Refuse(me.T("storm.no_puzzles")), nil
	}
	if err != nil {
		return bot.Response{}, err
	}
	m, err := s.runMessage(ctx, me, r, nil)
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Response{Message: m}, nil
}

// answer takes a move from a run's menu ("storm:RUN:INDEX:STEP").
func (s *Service) answer(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	c := req.Component()
	id, ok1 := c.Int(0)
	index, ok2 := c.Int(1)
	step, ok3 := c.Int(2)
	if !ok1 || !ok2 || !ok3 || len(req.Values) != 1 {
		return bot.Refuse(me.T("error.dead_button")), nil
	}
	a, err := s.take(ctx, me, req.User, id, int(index), int(step), req.Values[0])
	switch {
	case err != nil:
		return bot.Response{}, err
	case a.refused != "":
		return bot.Refuse(a.refused), nil
	case a.ended:
		return s.endMessage(ctx, me, a.run, a.notes, a.now)
	}
	m, err := s.runMessage(ctx, me, a.run, a.notes)
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Response{Update: true, Message: m}, nil
}

// runMessage shows a run where it stands: what the last answer did, the
// puzzle's board and stakes, the clock or the streak, the combo, and the
// move menu.
func (s *Service) runMessage(ctx context.Context, t *catalog.Printer, r storm.Run, notes []string) (*bot.Message, error) {
	rec, err := s.store.Puzzle(ctx, r.Puzzle())
	if err != nil {
		return nil, err
	}
	pos, err := rec.Position(r.Step)
	if err != nil {
		pos = rec.Start
	}
	last := game.Pass
	if r.Step > 0 {
		last = rec.Line[r.Step-1]
	}
	lines := append(append([]string(nil), notes...), render.Emoji(pos, last, true), puzzles.Stakes(t, rec))
	switch r.Mode {
	case storm.Storm:
		lines = append(lines, t.T("storm.clock", "When", bot.Stamp(r.Ends, bot.StampRelative), "Score", r.Solved), comboLine(t, r.Combo))
	case storm.Racer:
		lines = append(lines, t.T("storm.clock", "When", bot.Stamp(r.Ends, bot.StampRelative), "Score", r.Solved))
	default:
		lines = append(lines, t.T("storm.streak_score", "Score", r.Solved))
	}
	e := &bot.Embed{Title: bot.Clip(t.T(titleKey(r.Mode), "Name", bot.Escape(r.Player.Name)), bot.MaxEmbedTitle), Description: bot.JoinLines(lines, bot.MaxDescription),
		Footer: t.T("storm.footer", "Number", r.Index+1, "Rating", math.Round(rec.Rating.Rating)), Color: 0xf9a825}
	menu := &bot.Menu{CustomID: customid.Make("storm", r.ID, r.Index, r.Step), Placeholder: bot.Clip(t.T("storm.pick"), bot.MaxPlaceholder)}
	for i, sq := range pos.LegalMoves() {
		if i == bot.MaxMenuOptions {
			break
		}
		menu.Options = append(menu.Options, bot.MenuOption{Label: sq.String(), Value: sq.String()})
	}
	rows := []bot.Row{{Menu: menu}}
	if s.links != nil {
		rows = append(rows, bot.Row{Buttons: []bot.ButtonSpec{{Label: t.T("storm.on_board"), URL: s.links.RunLink(r.ID, r.Player)}}})
	}
	return &bot.Message{Embed: e, Components: rows, Ephemeral: true}, nil
}

// titleKey is the catalog's title of a run of a mode.
func titleKey(m storm.Mode) string {
	switch m {
	case storm.Storm:
		return "storm.title_storm"
	case storm.Racer:
		return "race.title_run"
	}
	return "storm.title_streak"
}

// comboLine is the combo bar: the right answers in a row towards the
// next bonus, and what it will add.
func comboLine(t *catalog.Printer, combo int) string {
	into := combo % storm.ComboStep
	bar := strings.Repeat("▰", into) + strings.Repeat("▱", storm.ComboStep-into)
	next := combo - into + storm.ComboStep
	return t.T("storm.combo", "Combo", combo, "Bar", bar, "Bonus", int(storm.Bonus(next)/time.Second), "Next", next)
}

// endMessage shows a finished run: its score and the player's bests.
func (s *Service) endMessage(ctx context.Context, t *catalog.Printer, r storm.Run, notes []string, now time.Time) (bot.Response, error) {
	title, lines, err := s.endLines(ctx, t, r, bot.Escape(r.Player.Name), notes, now)
	if err != nil {
		return bot.Response{}, err
	}
	color := 0xf9a825
	if r.Mode == storm.Racer {
		color = raceColor
	}
	e := &bot.Embed{Title: bot.Clip(title, bot.MaxEmbedTitle), Description: bot.JoinLines(lines, bot.MaxDescription), Color: color}
	return bot.Response{Update: true, Message: &bot.Message{Embed: e, Ephemeral: true}}, nil
}

// endLines are a finished run's title and lines: its score and, but for
// a racer (unrated, and the race has the standings), the player's bests.
func (s *Service) endLines(ctx context.Context, t *catalog.Printer, r storm.Run, name string, notes []string, now time.Time) (string, []string, error) {
	result := t.T("storm.result", "Score", r.Solved, "Misses", r.Misses, "Combo", r.BestCombo)
	lines := append(slices.Clone(notes), result)
	if r.Mode == storm.Racer {
		return t.T("race.over_run", "Name", name), append(lines, t.T("race.see_standings")), nil
	}
	today, ever, err := s.store.RunBests(ctx, r.Player.ID, r.Mode, dayStart(now))
	if err != nil {
		return "", nil, err
	}
	title, again := "storm.over_streak", "storm.again_streak"
	if r.Mode == storm.Storm {
		title, again = "storm.over_storm", "storm.again_storm"
	}
	lines = append(lines, t.T("storm.bests", "Today", today, "Ever", ever))
	if r.Solved > 0 && r.Solved >= ever {
		lines = append(lines, t.T("storm.new_best"))
	}
	return t.T(title, "Name", name), append(lines, t.T(again)), nil
}

// dayStart is the UTC day's start, as the daily puzzle counts days.
func dayStart(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// StatsFields are a player's bests for /stats: a field per mode they ran.
func (s *Service) StatsFields(ctx context.Context, t *catalog.Printer, playerID string) ([]bot.Field, error) {
	var out []bot.Field
	for _, m := range []struct {
		mode storm.Mode
		name string
	}{{storm.Storm, "storm.stats_storm"}, {storm.Streak, "storm.stats_streak"}} {
		today, ever, err := s.store.RunBests(ctx, playerID, m.mode, dayStart(s.Now()))
		if err != nil {
			return nil, err
		}
		if ever > 0 {
			out = append(out, bot.Field{Name: t.T(m.name), Value: t.T("storm.stats_bests", "Today", today, "Ever", ever), Inline: true})
		}
	}
	return out, nil
}

// DailyLines is the line a server's daily post begins with: the day's
// best Storm there, if anyone scored.
func (s *Service) DailyLines(ctx context.Context, t *catalog.Printer, guildID, day string) ([]string, error) {
	from, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return nil, nil
	}
	best, err := s.store.BestRun(ctx, guildID, storm.Storm, from, from.AddDate(0, 0, 1))
	if errors.Is(err, record.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []string{t.T("storm.daily_best", "Name", bot.Escape(best.Player.Name), "Score", best.Solved)}, nil
}
