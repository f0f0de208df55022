// Package follows is following a player: /follow user:@bob, and whoever
// follows bob on a server is pinged when bob starts a game there, with a
// Watch button to its page. /follow again stops it; /follow alone lists
// whom one follows. It mounts on the core service (package bot) as a
// capability.
package follows

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/record"
)

// Store keeps who follows whom.
type Store interface {
	// ToggleFollow follows, or stops following: true if following now.
	ToggleFollow(ctx context.Context, guildID, followerID string, followed record.Player, now time.Time) (bool, error)
	Following(ctx context.Context, guildID, followerID string) ([]record.Player, error)
	Followers(ctx context.Context, guildID, followedID string) ([]string, error)
}

// Core is what follows need of the shared flow: *bot.Service.
type Core interface {
	Now() time.Time
	Logger(ctx context.Context) *slog.Logger
	PublicPrinter(ctx context.Context, guildID string) *catalog.Printer
	GamePage(g *record.Game) string
}

// maxPinged bounds the followers one game's start pings (the others are
// not told; a message's mentions stay few).
const maxPinged = 25

// Service answers /follow and pings followers.
type Service struct {
	Core
	store Store
}

// New builds the capability.
func New(core Core, store Store) *Service { return &Service{Core: core, store: store} }

// Routes answers /follow.
func (s *Service) Routes() map[string]bot.Handler { return map[string]bot.Handler{"follow": s.follow} }

func (s *Service) follow(ctx context.Context, req bot.Request) (bot.Response, error) {
	me := req.Me()
	if req.GuildID == "" {
		return bot.Refuse(me.T("follows.no_server")), nil
	}
	if strings.TrimSpace(req.Options["user"]) == "" {
		list, err := s.store.Following(ctx, req.GuildID, req.User.ID)
		if err != nil {
			return bot.Response{}, err
		}
		if len(list) == 0 {
			return bot.Refuse(me.T("follows.nobody")), nil
		}
		names := make([]string, len(list))
		for i, p := range list {
			names[i] = bot.Escape(p.Name)
		}
		return bot.Refuse(bot.Clip(me.T("follows.list", "Names", strings.Join(names, ", ")), bot.MaxContent)), nil
	}
	who := bot.Subject(req)
	if who.ID == req.User.ID {
		return bot.Refuse(me.T("follows.self")), nil
	}
	on, err := s.store.ToggleFollow(ctx, req.GuildID, req.User.ID, who, s.Now())
	if err != nil {
		return bot.Response{}, err
	}
	if on {
		return bot.Refuse(me.T("follows.on", "Name", bot.Escape(who.Name))), nil
	}
	return bot.Refuse(me.T("follows.off", "Name", bot.Escape(who.Name))), nil
}

// GameStarted pings, with the game's answer, who follows its players.
func (s *Service) GameStarted(ctx context.Context, g *record.Game) []bot.Message {
	if g.GuildID == "" {
		return nil
	}
	var pinged, starters []string
	for _, side := range []record.Side{g.Black, g.White} {
		if !side.IsBot() {
			starters = append(starters, side.Player.ID)
		}
	}
	for _, side := range []record.Side{g.Black, g.White} {
		if side.IsBot() {
			continue
		}
		followers, err := s.store.Followers(ctx, g.GuildID, side.Player.ID)
		if err != nil {
			s.Logger(ctx).Warn("follows: reading followers", "game", g.ID, "err", err)
			continue
		}
		for _, f := range followers {
			// A player is never pinged for their own game, nor takes the
			// place of a follower who would be.
			if !slices.Contains(pinged, f) && !slices.Contains(starters, f) && len(pinged) < maxPinged {
				pinged = append(pinged, f)
			}
		}
	}
	if len(pinged) == 0 {
		return nil
	}
	t := s.PublicPrinter(ctx, g.GuildID)
	mentions := make([]string, len(pinged))
	for i, id := range pinged {
		mentions[i] = bot.Mention(id)
	}
	m := bot.Message{Content: t.T("follows.started", "Mentions", strings.Join(mentions, " "), "ID", g.ID,
		"Players", bot.GamePlayers(t, g), "Where", "<#"+g.ChannelID+">"), Mentions: pinged}
	if url := s.GamePage(g); url != "" {
		m.Components = []bot.Row{{Buttons: []bot.ButtonSpec{{Label: t.T("button.watch"), URL: url}}}}
	}
	return []bot.Message{m}
}
