// Package tv is Othello TV in chat: a server's admins pick a channel
// (/settings tv:here), and there the server's best live game (package tv
// chooses it) is shown and followed move by move — the board, the score,
// an evaluation bar and a Watch button to its page — within the channel's
// rate limit; when it ends, the next one takes its place in a message of
// its own. It mounts on the core service (package bot) as a capability.
package tv

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/record"
	"othello-bot/schedule"
)

// Store keeps each server's TV and gives the games it follows.
type Store interface {
	// SetTV sets the channel of a server's TV ("" turns it off).
	SetTV(ctx context.Context, guildID, channelID string, now time.Time) error
	// TVSettings lists the servers with a TV channel.
	TVSettings(ctx context.Context) ([]record.TVSetting, error)
	// SaveTVShow records the message and game a server's TV shows, if
	// its channel is still channelID.
	SaveTVShow(ctx context.Context, guildID, channelID, messageID string, gameID int64, now time.Time) error
	// RunningGames returns a server's active games, oldest first.
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
	// Game loads a game by number.
	Game(ctx context.Context, id int64) (*record.Game, error)
	// Rating is a player's rating in a scope, or record.ErrNotFound.
	Rating(ctx context.Context, playerID, scope string) (record.Rating, error)
}

// Core is what TV needs of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	MissingPermission(req bot.Request, size int, style record.Style) string
	// GameMessage is a game's message as its channel sees it.
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
}

// FollowEvery is how often the TV looks at the games it follows: a move
// shows within it, and a channel gets at most one edit per round — four
// in five seconds, under Discord's five per five seconds for a channel's
// messages, with room for anything else the bot posts there.
const FollowEvery = 1250 * time.Millisecond

// maxCandidates bounds the live games weighed for the screen.
const maxCandidates = 50

// Service runs the TV on a core.
type Service struct {
	Core
	store Store
	eng   *engine.Engine

	mu     sync.Mutex       // one round at a time
	shown  map[string]int64 // the game version each screen shows
	failed map[string]int   // edits refused in a row, by screen
	// resting holds back a server's screen after a failed round.
	resting map[string]time.Time
}

// maxEditFailures is how many edits of a screen may fail in a row before
// it is taken for deleted and the game is put on a new one.
const maxEditFailures = 3

// New returns the TV capability; mount it on core, and run its Job.
func New(core Core, store Store, eng *engine.Engine) *Service {
	return &Service{Core: core, store: store, eng: eng, shown: map[string]int64{}, failed: map[string]int{},
		resting: map[string]time.Time{}}
}

// Routes: the TV has no command of its own; /settings tv: reaches it as
// a settings section.
func (s *Service) Routes() map[string]bot.Handler { return nil }

// Job is the TV's round as timed work: every FollowEvery, on the one
// process holding the TV's lease where several share a database (so a
// screen is never edited twice over).
func (s *Service) Job() schedule.Job {
	return schedule.Job{Name: "tv", Run: func(ctx context.Context, _ time.Time) { s.Follow(ctx) }}
}

// Follow does one round: each server's screen brought up to its game,
// and a new game put on a screen whose game ended or that shows none.
func (s *Service) Follow(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	log := s.Logger(ctx)
	defer func() {
		if r := recover(); r != nil {
			log.Error("tv: panic", "panic", r)
		}
	}()
	sets, err := s.store.TVSettings(ctx)
	if err != nil {
		log.Error("tv: settings", "err", err)
		return
	}
	now := s.Now()
	for _, set := range sets {
		if ctx.Err() != nil {
			return
		}
		if now.Before(s.resting[set.GuildID]) {
			continue
		}
		if err := s.follow(ctx, set); err != nil {
			// A screen that cannot be shown (the bot may no longer post
			// there) is tried again after a rest, not every round.
			log.Warn("tv: following", "guild", set.GuildID, "game", set.GameID, "err", err)
			s.resting[set.GuildID] = now.Add(restAfterFailure)
			continue
		}
		delete(s.resting, set.GuildID)
	}
}

// restAfterFailure is how long a server's screen rests after a round
// that failed.
const restAfterFailure = time.Minute

// ChannelDeleted turns off the TV of a server whose TV channel is gone.
func (s *Service) ChannelDeleted(ctx context.Context, channelID string) {
	sets, err := s.store.TVSettings(ctx)
	if err != nil {
		s.Logger(ctx).Warn("tv: settings", "err", err)
		return
	}
	for _, set := range sets {
		if set.ChannelID == channelID {
			if err := s.store.SetTV(ctx, set.GuildID, "", s.Now()); err != nil {
				s.Logger(ctx).Warn("tv: turning off a deleted channel's", "guild", set.GuildID, "err", err)
			}
		}
	}
}

// follow brings one server's screen up to date.
func (s *Service) follow(ctx context.Context, set record.TVSetting) error {
	key := set.GuildID + " " + set.ChannelID + " " + set.MessageID
	if set.GameID != 0 {
		g, err := s.store.Game(ctx, set.GameID)
		switch {
		case errors.Is(err, record.ErrNotFound):
			set.GameID = 0
		case err != nil:
			return err
		case s.shown[key] == g.Version:
			if g.Status == record.Active {
				return nil
			}
			// Shown to its end: the next game gets a screen of its own.
			delete(s.shown, key)
			set.GameID, set.MessageID = 0, ""
			if err := s.store.SaveTVShow(ctx, set.GuildID, set.ChannelID, "", 0, s.Now()); err != nil {
				return err
			}
		default:
			t := s.PublicPrinter(ctx, set.GuildID)
			err := s.Edit(ctx, set.ChannelID, set.MessageID, s.screen(ctx, t, g))
			if err == nil {
				s.shown[key], s.failed[key] = g.Version, 0
				return nil
			}
			if s.failed[key]++; s.failed[key] < maxEditFailures {
				s.Logger(ctx).Warn("tv: an edit of the screen refused", "guild", set.GuildID, "err", err)
				return nil // tried again next round
			}
			// Deleted, most likely: the game goes on a new screen.
			delete(s.failed, key)
			s.Logger(ctx).Info("tv: the screen does not take edits; posting a new one", "guild", set.GuildID, "err", err)
			return s.show(ctx, set, g)
		}
	}
	g, ok, err := s.best(ctx, set.GuildID)
	if err != nil || !ok {
		return err
	}
	return s.show(ctx, set, g)
}

// show puts a game on a new screen.
func (s *Service) show(ctx context.Context, set record.TVSetting, g *record.Game) error {
	t := s.PublicPrinter(ctx, set.GuildID)
	id, err := s.Send(ctx, set.ChannelID, s.screen(ctx, t, g))
	if err != nil {
		return err
	}
	s.shown[set.GuildID+" "+set.ChannelID+" "+id] = g.Version
	s.Logger(ctx).Info("tv: showing a game", "guild", set.GuildID, "game", g.ID)
	return s.store.SaveTVShow(ctx, set.GuildID, set.ChannelID, id, g.ID, s.Now())
}

// Drain: a round in progress ends with the context; nothing else runs.
func (s *Service) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
}
