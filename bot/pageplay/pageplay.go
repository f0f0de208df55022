// Package pageplay is playing a game on its web page: /board gives each
// player a private link that logs them in there, and a player's click on
// the page (a move, resigning, aborting) goes through the core's own
// handlers, as a press on the game message would, so the page and Discord
// share one rule path and one store, and the game message in Discord
// updates as it does for a move made there. It mounts on the core service
// as a capability and is the web server's Actor.
package pageplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/web"
)

// Store is what the page's actions read.
type Store interface {
	Game(ctx context.Context, id int64) (*record.Game, error)
	ActiveGame(ctx context.Context, channelID string) (*record.Game, error)
	Challenge(ctx context.Context, id int64) (*record.Challenge, error)
	PendingChallenges(ctx context.Context) ([]*record.Challenge, error)
	RunningGames(ctx context.Context, guildID, playerID string, limit int) ([]*record.Game, error)
	// "Watch in Discord" presses waiting for the Activity (see watch.go).
	RememberOpening(ctx context.Context, userID, channelID, publicID string, at, forgetBefore time.Time) error
	TakeOpening(ctx context.Context, userID, channelID string, since time.Time) (string, error)
}

// Core is what playing from a page uses of the core service.
type Core interface {
	MoveFor(ctx context.Context, who bot.Who, m play.Move) (bot.Response, *record.Game)
	// The doors a page opens games by, as the same press in chat would;
	// each request says who and where (no command or button in it).
	StartFor(ctx context.Context, req bot.Request, st bot.Start) bot.Response
	ChallengeFor(ctx context.Context, req bot.Request, c record.Challenge) bot.Response
	AcceptFor(ctx context.Context, req bot.Request, id int64) bot.Response
	RematchFor(ctx context.Context, req bot.Request, id int64) bot.Response
	ChannelGame(ctx context.Context, req bot.Request) (*record.Game, bot.Response, error)
	GameMessage(t *catalog.Printer, g *record.Game, notes []string) *bot.Message
	Edit(ctx context.Context, channelID, messageID string, m bot.Message) error
	Send(ctx context.Context, channelID string, m bot.Message) (string, error)
	Posted(ctx context.Context, channelID string, m *bot.Message, messageID string)
	Logger(ctx context.Context) *slog.Logger
	Task(ctx context.Context, what string, work func(ctx context.Context))
	Background() context.Context
	Now() time.Time
}

// Linker is a player's private link to a game's page: it logs them in.
type Linker func(publicID string, p record.Player) string

// Enders end a game for a player on the page, on the game it read: the
// capabilities that own resigning and aborting (bot/resigns, bot/aborts).
type Enders struct {
	Resign, Abort func(ctx context.Context, who bot.Who, g *record.Game) (bot.Response, *record.Game)
}

// Service answers /board and acts for a page's players.
type Service struct {
	core   Core
	store  Store
	link   Linker
	enders Enders
	seq    atomic.Int64 // names the page's requests in the log
	shows  showing
}

// New builds the capability; link nil: pages are for watching and /board
// gives no link.
func New(core Core, store Store, link Linker, enders Enders) *Service {
	return &Service{core: core, store: store, link: link, enders: enders, shows: showing{next: map[int64]*showJob{}, running: map[int64]bool{}}}
}

// Routes answers /board and "Watch in Discord".
func (s *Service) Routes() map[string]bot.Handler {
	return map[string]bot.Handler{"board": s.board, "watchhere:": s.watchHere}
}

// board shows the channel's game to everyone and, to a player of a running
// game with a page, their private link to play it there.
func (s *Service) board(ctx context.Context, req bot.Request) (bot.Response, error) {
	g, refusal, err := s.core.ChannelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	resp := bot.Response{Message: s.core.GameMessage(req.Pub(), g, nil)}
	if _, plays := bot.PlayerColor(g, req.User.ID); plays && s.link != nil && g.PublicID != "" && g.Status == record.Active {
		resp.Followups = append(resp.Followups, bot.Message{Ephemeral: true,
			Content: req.Me().T("board.private_link", "URL", s.link(g.PublicID, req.User))})
	}
	return resp, nil
}

// Act does what a player did on the page as the core's handler for the
// same press in Discord, and shows its answer where the game lives. A
// move, a resignation and an abort are the flow's typed operations on the
// game the page read (no other read of it); a rematch still goes as the
// button's press.
func (s *Service) Act(ctx context.Context, a web.Action) (web.Outcome, error) {
	g := a.Game
	var resp bot.Response
	var after *record.Game
	who := bot.Who{User: a.Player, GuildID: g.GuildID, Locale: string(a.Lang)}
	switch a.Kind {
	case "move":
		resp, after = s.core.MoveFor(ctx, who,
			play.Move{ChannelID: g.ChannelID, Game: g.Clone(), Player: a.Player.ID, Square: a.Square, OnGame: g.ID, OnPly: a.Ply,
				At: s.core.Now()})
		if after == nil || after.ID != g.ID || after.Version == g.Version {
			after = g // refused: the game as the page read it
		}
	case "resign", "abort":
		end := s.enders.Resign
		if a.Kind == "abort" {
			end = s.enders.Abort
		}
		resp, after = end(ctx, who, g.Clone())
		if after == nil || after.Version == g.Version {
			after = g // refused: the game as the page read it
		}
	case "rematch":
		req := bot.Request{User: a.Player, GuildID: g.GuildID, ChannelID: g.ChannelID, InThread: g.ParentID != "",
			ParentID: g.ParentID, Locale: string(a.Lang), ID: "web-" + strconv.FormatInt(s.seq.Add(1), 10)}
		resp = s.core.RematchFor(ctx, req, g.ID)
		var err error
		if after, err = s.store.Game(ctx, g.ID); err != nil {
			resp.Delivered()
			return web.Outcome{}, fmt.Errorf("game %d after a page's rematch: %w", g.ID, err)
		}
	default:
		return web.Outcome{}, fmt.Errorf("pageplay: no action %q", a.Kind)
	}
	out := web.Outcome{Changed: after.Version != g.Version}
	// Discord is told after the page hears: the pages never wait on its
	// rate limits (see discord.go).
	job := showJob{game: after, after: []func(){resp.Delivered}}
	if m := resp.Message; m != nil {
		switch {
		case m.Ephemeral:
			out.Note = m.Content
		case resp.Update || a.Kind == "move":
			job.board = m // the board the press was on
		default:
			job.posts = append(job.posts, *m) // a reply: in the game's channel
		}
	}
	if a.Kind == "rematch" {
		// Against the bot the rematch is a game at once: its page is next.
		where := g.ChannelID
		if g.ParentID != "" {
			where = g.ParentID
		}
		if next, err := s.store.ActiveGame(ctx, where); err == nil && next.ID > g.ID {
			out.Next = next.PublicID
		}
	}
	for _, f := range resp.Followups {
		if !f.Ephemeral {
			job.posts = append(job.posts, f)
		}
	}
	s.enqueue(g.ID, job)
	return out, nil
}

// Launch starts what the Activity's player asked for in the channel it was
// launched in, as the same command or button in Discord would: /start
// against the bot, /challenge to someone in the Activity, Accept on a
// challenge. What the bot answers is shown in the channel; a game that
// starts is the page to go to next.
func (s *Service) Launch(ctx context.Context, l web.Launch) (web.Outcome, error) {
	req := bot.Request{User: l.Player, GuildID: l.GuildID, ChannelID: l.ChannelID, Locale: string(l.Lang),
		ID: "activity-" + strconv.FormatInt(s.seq.Add(1), 10),
		// No interaction says what the bot may do in the channel. A game
		// started here is played in the Activity and the channel itself:
		// no thread is tried (one Discord refused would be an invalid
		// request); every other permission stays unchecked, as unknown.
		PermissionsKnown: true, AppPermissions: ^bot.PermCreatePublicThreads}
	var challenge *record.Challenge
	var resp bot.Response
	switch l.Kind {
	case "start":
		resp = s.core.StartFor(ctx, req, bot.Start{Level: l.Level, Size: 8, Color: record.Choose(game.Black)})
	case "challenge":
		resp = s.core.ChallengeFor(ctx, req, record.Challenge{Opponent: l.Opponent, Size: 8, Rated: true, Color: record.RandomColor})
	case "open":
		// An open challenge: the seat a friend the player shares it with
		// takes (or anyone here).
		resp = s.core.ChallengeFor(ctx, req, record.Challenge{Size: 8, Rated: true, Color: record.RandomColor})
	case "accept":
		c, err := s.store.Challenge(ctx, l.Challenge)
		if errors.Is(err, record.ErrNotFound) {
			return web.Outcome{Note: req.Me().T("challenge.gone")}, nil
		}
		if err != nil {
			return web.Outcome{}, err
		}
		challenge = c
		req.ChannelID = c.ChannelID
		resp = s.core.AcceptFor(ctx, req, c.ID)
	default:
		return web.Outcome{}, fmt.Errorf("pageplay: no launch %q", l.Kind)
	}
	defer resp.Delivered()
	var out web.Outcome
	if m := resp.Message; m != nil {
		switch {
		case m.Ephemeral:
			out.Note = m.Content
		case resp.Update && challenge != nil && challenge.MessageID != "":
			// The answer replaces the challenge's message, as the button's would.
			if err := s.core.Edit(ctx, challenge.ChannelID, challenge.MessageID, *m); err == nil {
				s.core.Posted(ctx, challenge.ChannelID, m, challenge.MessageID)
			} else {
				s.send(ctx, req.ChannelID, m)
			}
		default:
			s.send(ctx, req.ChannelID, m)
		}
	}
	for i := range resp.Followups {
		if f := &resp.Followups[i]; !f.Ephemeral {
			s.send(ctx, req.ChannelID, f)
		}
	}
	if l.Kind == "open" {
		seat, err := s.openSeat(ctx, l.Player.ID, req.ChannelID)
		if err != nil {
			return out, err
		}
		out.Seat = seat
	}
	if l.Kind != "challenge" && l.Kind != "open" {
		// The game that started: in the channel, or in the thread opened
		// for it (the accept's answer names it).
		if g, err := s.newGame(ctx, l.GuildID, req.ChannelID, l.Player.ID); err == nil && g != nil {
			out.Next = g.PublicID
		}
	}
	return out, nil
}

// openSeat is the player's newest open challenge in a channel, as a share
// link's custom_id ("c" and its id); "" when there is none (the bot
// refused it, and said why).
func (s *Service) openSeat(ctx context.Context, playerID, channelID string) (string, error) {
	pending, err := s.store.PendingChallenges(ctx)
	if err != nil {
		return "", err
	}
	var newest *record.Challenge
	for _, c := range pending {
		if c.ChannelID == channelID && c.Challenger.ID == playerID && c.Opponent.ID == "" && (newest == nil || c.ID > newest.ID) {
			newest = c
		}
	}
	if newest == nil {
		return "", nil
	}
	return "c" + strconv.FormatInt(newest.ID, 10), nil
}

// newGame is the player's newest running game in a channel or in a
// thread off it.
func (s *Service) newGame(ctx context.Context, guildID, channelID, playerID string) (*record.Game, error) {
	games, err := s.store.RunningGames(ctx, guildID, playerID, 100)
	if err != nil {
		return nil, err
	}
	var newest *record.Game
	for _, g := range games {
		if (g.ChannelID == channelID || g.ParentID == channelID) && (newest == nil || g.ID > newest.ID) {
			newest = g
		}
	}
	return newest, nil
}

func (s *Service) send(ctx context.Context, channelID string, m *bot.Message) {
	_, err := s.core.Send(ctx, channelID, *m)
	switch {
	case errors.Is(err, bot.ErrUnreachable):
		// A DM or a server the bot is not in (a user's install): only an
		// interaction's reply shows there; the page is where this is seen.
		s.core.Logger(ctx).Debug("a page's action not posted: the bot cannot post here", "channel", channelID)
	case err != nil:
		s.core.Logger(ctx).Warn("posting after a page's action", "channel", channelID, "err", err)
	}
}
