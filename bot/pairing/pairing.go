// Package pairing is the pairing pool in chat: /play time:3+2 pairs a
// member with whoever on the server waits for the same game (package pool
// decides who), wherever they asked — the game starts where the newcomer
// is, as an accepted challenge would, and the one who waited is pinged
// where they waited; with nobody to pair with, the member waits, shown
// with Play and Leave buttons, until paired, gone or lapsed (30 minutes).
// /play alone shows who waits. Servers may open their pools to each other
// for casual games on a clock (across.go) and name a role to ping for a
// new wait (ping.go). It mounts on the core service (package bot) as a
// capability.
package pairing

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/game"
	"othello-bot/internal/keyed"
	"othello-bot/pool"
	"othello-bot/record"
	"othello-bot/schedule"
	"othello-bot/timecontrol"
)

// Store keeps the pool and gives what pairing needs besides.
type Store interface {
	JoinPool(ctx context.Context, e *record.PoolEntry) error
	PoolEntries(ctx context.Context, guildID string) ([]record.PoolEntry, error)
	PoolEntryOf(ctx context.Context, guildID, playerID string) (record.PoolEntry, error)
	LapsedPoolEntries(ctx context.Context, before time.Time) ([]record.PoolEntry, error)
	// TakePoolEntry removes an entry: true for the one caller that did.
	TakePoolEntry(ctx context.Context, id int64) (bool, error)
	SetPoolMessage(ctx context.Context, id int64, messageID string) error
	SetPoolPing(ctx context.Context, id int64, messageID string) error
	// SetPlayRole and PlayRole keep the role a server's pool pings ("":
	// none).
	SetPlayRole(ctx context.Context, guildID, roleID string, now time.Time) error
	PlayRole(ctx context.Context, guildID string) (string, error)
	// SetPoolOpen and PoolOpen keep whether a server's pool pairs across
	// servers; OpenPoolEntries lists the casual waits of the other open
	// servers.
	SetPoolOpen(ctx context.Context, guildID string, open bool, now time.Time) error
	PoolOpen(ctx context.Context, guildID string) (bool, error)
	OpenPoolEntries(ctx context.Context, exceptGuild string) ([]record.PoolEntry, error)
	// CreateChallenge, Challenge and CloseChallenge: a pairing becomes a
	// challenge the newcomer accepts at once.
	CreateChallenge(ctx context.Context, c *record.Challenge) error
	Challenge(ctx context.Context, id int64) (*record.Challenge, error)
	CloseChallenge(ctx context.Context, id int64, status record.ChallengeStatus) (bool, error)
	Game(ctx context.Context, id int64) (*record.Game, error)
	Rating(ctx context.Context, playerID, scope string) (record.Rating, error)
}

// Core is what pairing needs of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	TimeOption(req bot.Request, vsBot bool) (timecontrol.Control, *bot.Response)
	// AcceptPaired opens the game of the pairing's challenge, accepted by
	// the newcomer, in the channel the request names.
	AcceptPaired(ctx context.Context, req bot.Request, c *record.Challenge) (bot.Response, *record.Game, error)
	// GamePage is a game's web page ("" where none is served);
	// ServesPages says whether pages are served at all (a game across
	// servers is played on its page).
	GamePage(g *record.Game) string
	ServesPages() bool
}

// Config is what pairing needs from the configuration.
type Config struct {
	DefaultSize int
}

// Service runs the pool on a core.
type Service struct {
	Core
	store Store
	cfg   Config
	// pinged paces each server's role pings (in this process: a second
	// process may ping once more within the pause).
	pinged keyed.Pace
}

// New returns the pairing capability; mount it on core.
func New(core Core, store Store, cfg Config) *Service {
	if cfg.DefaultSize == 0 {
		cfg.DefaultSize = 8
	}
	return &Service{Core: core, store: store, cfg: cfg, pinged: keyed.Pace{Every: pingEvery}}
}

// Routes answers /play and the Play and Leave buttons of a wait.
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{
		"play":    s.play,
		"pplay:":  s.playButton,
		"pleave:": s.leaveButton,
	}
}

// Jobs let lapsed waits go.
func (s *Service) Jobs() []schedule.Job {
	return []schedule.Job{{Name: "pairing pool", Run: s.lapse}}
}

// maxRange is the widest rating range a player may ask for.
const maxRange = 1000

func (s *Service) play(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	dm := req.GuildID == "" // the bot's DM: pairs only across, casual games on a clock
	switch {
	case dm && !s.ServesPages():
		return bot.Refuse(me.T("pool.no_server")), nil
	case strings.TrimSpace(req.Options["time"]) == "" && dm:
		return bot.Refuse(me.T("pool.dm_how")), nil
	case strings.TrimSpace(req.Options["time"]) == "":
		return s.list(ctx, req)
	}
	control, refusal := s.TimeOption(req, false)
	if refusal != nil {
		return *refusal, nil
	}
	want := pool.Want{Control: control.String(), Size: s.cfg.DefaultSize, Rated: req.Options["rated"] != "false" && !dm}
	if v := req.Options["size"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !game.ValidSize(n) {
			return bot.Refuse(me.T("pool.bad_size")), nil
		}
		want.Size = n
	}
	if v := req.Options["range"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxRange {
			return bot.Refuse(me.T("pool.bad_range", "Max", maxRange)), nil
		}
		want.Range = n
	}
	switch mine, err := s.store.PoolEntryOf(ctx, req.GuildID, req.User.ID); {
	case err == nil:
		return bot.Refuse(me.T("pool.already", "Game", describe(me, mine.Want))), nil
	case !errors.Is(err, record.ErrNotFound):
		return bot.Response{}, err
	}
	if dm && !pool.Crosses(want) {
		return bot.Refuse(me.T("pool.dm_casual")), nil
	}
	rating, err := s.rating(ctx, req.GuildID, req.User.ID, control)
	if err != nil {
		return bot.Response{}, err
	}
	var waiting []record.PoolEntry // nobody else waits in one's own DM
	if !dm {
		if waiting, err = s.store.PoolEntries(ctx, req.GuildID); err != nil {
			return bot.Response{}, err
		}
	}
	for {
		e, ok := pool.Match(req.User.ID, want, rating, plain(waiting))
		if !ok {
			break
		}
		entry := byID(waiting, e.ID)
		waiting = without(waiting, e.ID)
		took, err := s.store.TakePoolEntry(ctx, e.ID)
		if err != nil {
			return bot.Response{}, err
		}
		if took { // paired, unless another took it first
			return s.pair(ctx, req, entry, false)
		}
	}
	if resp, ok, err := s.matchAcross(ctx, req, want, rating); ok || err != nil {
		return resp, err
	}
	return s.wait(ctx, req, want, rating)
}

// rating is a player's rating in a control's speed on the server, or
// the starting rating.
func (s *Service) rating(ctx context.Context, guildID, playerID string, c timecontrol.Control) (float64, error) {
	r, err := s.store.Rating(ctx, playerID, record.SpeedScope(guildID, c.Category()))
	if errors.Is(err, record.ErrNotFound) {
		return 1500, nil
	}
	return r.Rating, err
}

// wait puts the member in the pool, shown waiting in the channel.
func (s *Service) wait(ctx context.Context, req bot.Request, want pool.Want, rating float64) (bot.Response, error) {
	e := record.PoolEntry{Entry: pool.Entry{GuildID: req.GuildID, PlayerID: req.User.ID, Want: want, Rating: rating, Since: s.Now()},
		Player: req.User, ChannelID: req.ChannelID}
	switch err := s.store.JoinPool(ctx, &e); {
	case errors.Is(err, record.ErrWaiting):
		return bot.Refuse(req.Me().T("pool.already", "Game", describe(req.Me(), want))), nil
	case err != nil:
		return bot.Response{}, err
	}
	s.Logger(ctx).Info("waiting in the pool", "guild", e.GuildID, "entry", e.ID, "control", want.Control, "size", want.Size)
	m := waitMessage(req.Pub(), e)
	id := e.ID
	m.OnPosted(func(ctx context.Context, messageID string) {
		if err := s.store.SetPoolMessage(ctx, id, messageID); err != nil {
			s.Logger(ctx).Warn("recording a wait's message", "entry", id, "err", err)
		}
	})
	return bot.Response{Message: m, Followups: s.ping(ctx, req.Pub(), e)}, nil
}

// waitMessage shows a member waiting, with Play (for another member) and
// Leave (for them).
func waitMessage(t *catalog.Printer, e record.PoolEntry) *bot.Message {
	if e.GuildID == "" { // the bot's DM: nobody else sees it
		return &bot.Message{Content: t.T("pool.waiting_dm", "Game", describe(t, e.Want)),
			Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("button.leave"), CustomID: customid.Make("pleave", e.ID), Style: bot.Secondary}}}}}
	}
	return &bot.Message{Content: t.T("pool.waiting", "Name", bot.Escape(e.Player.Name), "Game", describe(t, e.Want)),
		Components: []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("button.play"), CustomID: customid.Make("pplay", e.ID), Style: bot.Primary},
			{Label: t.T("button.leave"), CustomID: customid.Make("pleave", e.ID), Style: bot.Secondary}}}}}
}

// describe words a wanted game: "3+2 · 8x8 · rated · ±200".
func describe(t *catalog.Printer, w pool.Want) string {
	parts := []string{w.Control, t.T("pool.size", "N", w.Size)}
	if w.Rated {
		parts = append(parts, t.T("pool.rated"))
	} else {
		parts = append(parts, t.T("pool.casual"))
	}
	if w.Range > 0 {
		parts = append(parts, t.T("pool.range", "Range", w.Range))
	}
	return strings.Join(parts, " · ")
}

func plain(list []record.PoolEntry) []pool.Entry {
	out := make([]pool.Entry, len(list))
	for i, e := range list {
		out[i] = e.Entry
	}
	return out
}

func byID(list []record.PoolEntry, id int64) record.PoolEntry {
	for _, e := range list {
		if e.ID == id {
			return e
		}
	}
	return record.PoolEntry{}
}

func without(list []record.PoolEntry, id int64) []record.PoolEntry {
	out := list[:0:0]
	for _, e := range list {
		if e.ID != id {
			out = append(out, e)
		}
	}
	return out
}
