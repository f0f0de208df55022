package bot

// This file is games in threads: where the bot may, each game gets its own
// thread off the channel it was started from, so a channel holds any number
// of games without filling with boards. The thread is archived a while after
// the game ends; a thread deleted mid-game ends its game.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"othello-bot/bot/ratelimit"
	"othello-bot/catalog"
	"othello-bot/record"
)

// Permissions the bot needs in a channel to run games in threads off it.
const (
	PermCreatePublicThreads   int64 = 1 << 35
	PermSendMessagesInThreads int64 = 1 << 38
)

// ErrThreadsNotAllowed is what a Notifier returns when it may not open a
// thread in a channel (missing permission, or a channel that cannot hold
// threads); the game then lives in the channel itself.
var ErrThreadsNotAllowed = errors.New("threads are not allowed here")

// ErrThreadsLater is ErrThreadsNotAllowed for a while: Discord holds thread
// starts back for minutes (discord-api-docs#7816), so games play in channels.
var ErrThreadsLater = fmt.Errorf("discord holds back new threads on this server for now: %w", ErrThreadsNotAllowed)

// maxThreadName is Discord's limit on a thread's name.
const maxThreadName = 100

// ThreadsHere says whether a new game started from req's channel gets its
// own thread: threads are on and allowed there (ThreadsAllowed).
func (s *Service) ThreadsHere(req Request) bool { return s.cfg.Threads && ThreadsAllowed(req) }

// ThreadsAllowed says whether a thread may be opened off req's channel: it
// is a server, the channel is not a thread itself (Discord has no thread
// in a thread: 50024), the bot is a member here, and (where the transport
// says) it may open threads and post in them. Tournaments, whose games
// always have threads, ask it directly.
func ThreadsAllowed(req Request) bool {
	if req.GuildID == "" || req.InThread || !req.Place.Threads() {
		return false
	}
	need := PermCreatePublicThreads | PermSendMessagesInThreads
	return !req.PermissionsKnown || req.AppPermissions&need == need
}

// gameThread tells about the game whose thread channelID is, or nil when
// the channel is not a game's thread.
func (s *Service) gameThread(ctx context.Context, channelID string) (*record.GameHome, error) {
	h, err := s.games.LatestHome(ctx, channelID)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case h.ParentID == "":
		return nil, nil
	}
	return &h, nil
}

// finishedThread is the refusal for a new game asked for in the thread of
// a finished one (nil otherwise); inThread says the channel is a thread (a
// game's or a member's), where no thread can be opened.
func (s *Service) finishedThread(ctx context.Context, req Request) (refusal *Response, inThread bool, err error) {
	g, err := s.gameThread(ctx, req.ChannelID)
	if err != nil || g == nil {
		return nil, req.InThread, err // a member's thread: games play in it
	}
	if g.Status != record.Active {
		return Refusal(req.Me().T("thread.over", "ID", g.GameID, "Channel", "<#"+g.ParentID+">")), true, nil
	}
	return nil, true, nil
}

// OpenThread opens a thread off parent for game g and moves g into it. The
// game takes its number first, so the thread is opened once, with its
// final name: Discord's "started a thread" notice shows that name.
func (s *Service) OpenThread(ctx context.Context, t *catalog.Printer, parent string, g *record.Game) error {
	if g.ID == 0 {
		id, err := s.games.ReserveGameID(ctx)
		if err != nil {
			return err
		}
		g.ID = id
	}
	if s.threadsBack.Held(g.GuildID, s.clock.Now()) {
		return ErrThreadsLater
	}
	// A player waits: a thread not to be had at once means a game in the channel.
	id, err := s.notify.CreateThread(ratelimit.WaitAtMost(ctx, 2*time.Second), parent, Clip(t.T("thread.name", "ID", g.ID, "Players", threadName(t, g)), maxThreadName))
	if later := (*ratelimit.RetryLater)(nil); errors.As(err, &later) {
		// The limit is the server's: none of its channels asks until it lifts.
		s.threadsBack.Hold(g.GuildID, s.clock.Now().Add(later.After))
		s.Logger(ctx).Warn("discord holds back thread starts on this server: games play in their channels until then",
			"guild", g.GuildID, "retry_after", later.After, "scope", later.Scope)
		return fmt.Errorf("%w (%v)", ErrThreadsLater, err)
	}
	if err != nil {
		return err
	}
	g.ChannelID, g.ParentID = id, parent
	return nil
}

// threadName names a game's thread after its players, as plain text.
func threadName(t *catalog.Printer, g *record.Game) string {
	return t.T("game.players", "Black", plainSide(t, g.Black), "White", plainSide(t, g.White))
}

// tooManyGames refuses a new game to a player who has as many running as
// the configured limit.
func (s *Service) tooManyGames(ctx context.Context, req Request, p record.Player) (*Response, error) {
	// A tournament game has the player's whole attention: no other game
	// starts while it runs.
	switch id, channel, err := s.games.ActiveTournamentGame(ctx, p.ID); {
	case err == nil:
		return Refusal(req.Me().T("thread.tournament_game", "Name", name(p), "ID", id, "Where", "<#"+channel+">")), nil
	case !errors.Is(err, record.ErrNotFound):
		return nil, err
	}
	if s.cfg.MaxGamesPerPlayer <= 0 {
		return nil, nil
	}
	n, err := s.games.ActiveGameCount(ctx, p.ID)
	if err != nil || n < s.cfg.MaxGamesPerPlayer {
		return nil, err
	}
	return Refusal(req.Me().T("thread.too_many", "Name", name(p), "Count", n)), nil
}

// deletedNote is the results log's note for a game whose home was deleted.
func deletedNote(g *record.Game) string {
	if g.ParentID != "" {
		return "its thread was deleted"
	}
	return "its channel was deleted"
}

// archiveThreads archives the threads of games that ended long enough ago.
// archiveClaim is how long a claimed thread waits for its archiving.
const archiveClaim = 45 * time.Second

func (s *Service) archiveThreads(ctx context.Context) {
	now := s.clock.Now()
	due, err := s.games.DueArchives(ctx, now)
	if err != nil {
		s.Logger(ctx).Error("tick: threads to archive", "err", err)
		return
	}
	for _, t := range due {
		// Claimed first: with several processes on one database, one
		// archives it.
		mine, err := s.games.ClaimArchive(ctx, t.GameID, now, now.Add(archiveClaim))
		if err != nil {
			s.Logger(ctx).Error("tick: claiming a thread to archive", "game", t.GameID, "err", err)
			continue
		}
		if !mine {
			continue
		}
		if err := s.notify.ArchiveThread(ctx, t.ThreadID); err != nil {
			// Deleted or archived by hand meanwhile: nothing left to do.
			s.Logger(ctx).Warn("archiving a game's thread", "game", t.GameID, "thread", t.ThreadID, "err", err)
		}
		if err := s.games.ArchiveDone(ctx, t.GameID); err != nil {
			s.Logger(ctx).Error("tick: noting a thread archived", "game", t.GameID, "err", err)
		}
	}
}

// ChannelDeleted ends the game running in a channel or thread that was
// deleted (by a moderator, usually): it ends without a result, and where it
// had a thread, the channel it came from is told.
func (s *Service) ChannelDeleted(ctx context.Context, channelID string) {
	if !s.enter() {
		return
	}
	defer s.inflight.Done()
	for _, l := range s.channelDelete {
		l.ChannelDeleted(ctx, channelID)
	}
	unlock := s.LockChannel(channelID)
	defer unlock()
	g, err := s.games.ActiveGame(ctx, channelID)
	if errors.Is(err, record.ErrNotFound) {
		return
	}
	if err != nil {
		s.Logger(ctx).Error("channel deleted: loading its game", "channel", channelID, "err", err)
		return
	}
	pub := s.PublicPrinter(ctx, g.GuildID)
	_, err = s.FinishWith(ctx, pub, g, record.Result{Reason: record.EndModerator, Note: deletedNote(g)})
	if err != nil {
		s.Logger(ctx).Error("channel deleted: ending its game", "game", g.ID, "err", err)
		return
	}
	s.Logger(ctx).Info("game ended: its channel or thread was deleted", "game", g.ID, "channel", channelID)
	if g.ParentID != "" {
		text := pub.T("thread.deleted", "ID", g.ID, "Players", GamePlayers(pub, g))
		if _, err := s.Send(ctx, g.ParentID, Message{Content: text}); err != nil {
			s.Logger(ctx).Warn("telling a deleted thread's channel", "game", g.ID, "err", err)
		}
	}
}

// OpenInThread opens game g (play.Flow.NewGame made it) in a thread of its
// own off parent, stored by store (the way in's own write: a tournament's
// pairing), armed, and posted there with note, its two players pinged in:
// the door a game opened by no member's press takes. A refused thread or
// write leaves nothing behind.
func (s *Service) OpenInThread(ctx context.Context, pub *catalog.Printer, parent string, g *record.Game, note string,
	store func(ctx context.Context) error) error {
	if err := s.OpenThread(ctx, pub, parent, g); err != nil {
		return fmt.Errorf("a thread for a game off %s: %w", parent, err)
	}
	if err := store(ctx); err != nil {
		s.DropThread(ctx, g)
		return err
	}
	s.Arm(g)
	if _, err := s.Send(ctx, g.ChannelID, s.WelcomeMessage(pub, g, note, g.Black.Player.ID, g.White.Player.ID)); err != nil {
		s.Logger(ctx).Warn("posting a game in its thread", "game", g.ID, "err", err)
	}
	return nil
}
