package bot

// This file is playing a game: /start, moves by command and menu, the bot's
// replies, the end of a game, and /board.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// ChannelGame loads the channel's active game. Without one it returns nil
// and the refusal to answer with (or the error).
func (s *Service) ChannelGame(ctx context.Context, req Request) (*record.Game, Response, error) {
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return nil, Refuse(req.Me().T("play.no_game")), nil
	case err != nil:
		return nil, Response{}, err
	}
	return g, Response{}, nil
}

// Start is a game against the bot as /start asks for it, its options read
// (a zero Style: the player's own).
type Start struct {
	Level   int
	Size    int
	Color   record.ColorChoice
	Style   record.Style
	Control timecontrol.Control
	XOT     bool
}

func (s *Service) start(ctx context.Context, req Request) (Response, error) {
	level, err := IntOption(req, "level", s.cfg.DefaultLevel)
	if err != nil || level < engine.MinLevel || level > engine.MaxLevel {
		return Refuse(req.Me().T("start.bad_level")), nil
	}
	opts, refusal, err := s.readGameOptions(ctx, req)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	control, refusal := s.TimeOption(req, true)
	if refusal != nil {
		return *refusal, nil
	}
	useXOT, refusal := xotOption(req, opts.size)
	if refusal != nil {
		return *refusal, nil
	}
	return s.startGame(ctx, req, Start{Level: level, Size: opts.size, Color: opts.color, Style: opts.style, Control: control, XOT: useXOT})
}

// StartFor starts a game against the bot for req's member where req says
// (the Activity's channel), as /start with st's options would, served as
// Handle serves a request.
func (s *Service) StartFor(ctx context.Context, req Request, st Start) Response {
	return s.serve(ctx, req, "start", func(ctx context.Context, req Request) (Response, error) { return s.startGame(ctx, req, st) })
}

// startGame opens a game against the bot: in a thread of its own where
// threads are allowed, else in the channel if it has none running.
func (s *Service) startGame(ctx context.Context, req Request, st Start) (Response, error) {
	level, size, style, control, useXOT := st.Level, st.Size, st.Style, st.Control, st.XOT
	if style == "" {
		var err error
		if style, err = s.prefs.BoardStyle(ctx, req.User.ID); err != nil {
			return Response{}, err
		}
	}
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	refusal, inThread, err := s.finishedThread(ctx, req)
	if refusal != nil || err != nil {
		return Deref(refusal), err
	}
	threaded := !inThread && s.ThreadsHere(req)
	if !threaded {
		if r, err := s.channelBusy(ctx, req); r != nil || err != nil {
			return Deref(r), err
		}
	}
	if r, err := s.tooManyGames(ctx, req, req.User); r != nil || err != nil {
		return Deref(r), err
	}
	g, opened, err := s.flow.NewGame(play.Opening{GuildID: req.GuildID, ChannelID: req.ChannelID,
		Sides: [2]record.Side{record.Human(req.User), record.Bot(level)}, Color: st.Color, Size: size, Style: style,
		Control: control, XOT: useXOT})
	if err != nil {
		return Response{}, err
	}
	now, pub := g.CreatedAt, req.Pub()
	xotNote := xotOpened(pub, opened)
	var followups []Message
	if threaded {
		switch err := s.OpenThread(ctx, pub, req.ChannelID, g); {
		case errors.Is(err, ErrThreadsNotAllowed):
			threaded = false
			if r, err := s.channelBusy(ctx, req); r != nil || err != nil {
				return Deref(r), err
			}
			why := "start.no_threads"
			if errors.Is(err, ErrThreadsLater) {
				why = "start.threads_later"
			}
			followups = append(followups, Message{Ephemeral: true, Content: req.Me().T(why)})
		case err != nil:
			return Response{}, fmt.Errorf("opening a thread for a game: %w", err)
		}
	}
	// The game message is the reply itself unless the game has a thread or
	// lives in another channel than the one the reply shows in (a rematch
	// from a game's thread).
	inReply := !threaded && (req.repliedIn == "" || req.repliedIn == g.ChannelID)
	if inReply && g.ToMove().IsBot() && req.Token != "" {
		// The bot moves first: if it crashes while thinking, the restarted
		// bot finishes this reply.
		g.ReplyToken, g.ReplyExpires = req.Token, now.Add(replyTokenLife)
	}
	if err := s.games.CreateGame(ctx, g); errors.Is(err, record.ErrChannelBusy) {
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("start.channel_busy")), nil
	} else if err != nil {
		s.DropThread(ctx, g)
		return Response{}, err
	}
	s.Logger(ctx).Info("game started", "game", g.ID, "channel", g.ChannelID, "user", req.User.ID, "level", level, "size", size,
		"time", control.String())
	s.Arm(g)
	followups = append(followups, s.started(ctx, req, g)...)
	notes := []string{pub.T("start.started", "Name", name(req.User), "Bot", SideName(pub, record.Bot(level)))}
	if xotNote != "" {
		notes = append(notes, xotNote)
	}
	more, err := s.advance(ctx, pub, g)
	if err != nil {
		return Response{}, err
	}
	msg := s.GameMessage(pub, g, append(notes, more...))
	if inReply {
		return Response{Message: msg, Followups: followups}, nil
	}
	if _, err := s.Send(ctx, g.ChannelID, *msg); err != nil {
		s.Logger(ctx).Warn("posting a game in its channel or thread", "game", g.ID, "channel", g.ChannelID, "err", err)
	}
	return Response{Message: &Message{Content: pub.T("start.started_thread", "Name", name(req.User), "ID", g.ID,
		"Bot", SideName(pub, record.Bot(level)), "Thread", "<#"+g.ChannelID+">")}, Followups: followups}, nil
}

// started is what a game's start says besides its board: the player's
// private link to its page (only them), and what capabilities add.
func (s *Service) started(ctx context.Context, req Request, g *record.Game) (out []Message) {
	if s.cfg.PlayerLink != nil && g.PublicID != "" {
		out = append(out, Message{Ephemeral: true, Content: req.Me().T("board.private_link", "URL", s.cfg.PlayerLink(g.PublicID, req.User))})
	}
	for _, l := range s.gameStart {
		out = append(out, l.GameStarted(ctx, g)...)
	}
	return out
}

// channelBusy refuses a new game in a channel that has one running.
func (s *Service) channelBusy(ctx context.Context, req Request) (*Response, error) {
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	me := req.Me()
	_, playing := PlayerColor(g, req.User.ID)
	if parent := cmp.Or(req.ParentID, g.ParentID); req.InThread || g.ParentID != "" {
		// No thread opens from a thread: point to the channel it is in.
		if playing {
			return Refusal(me.T("start.own_game_thread", "ID", g.ID, "Channel", "<#"+parent+">")), nil
		}
		return Refusal(me.T("start.others_game_thread", "ID", g.ID, "Players", GamePlayers(me, g), "Channel", "<#"+parent+">")), nil
	}
	r := Refuse(me.T("start.others_game", "ID", g.ID, "Players", GamePlayers(me, g)))
	if playing {
		r = Refuse(me.T("start.own_game", "ID", g.ID))
	}
	return &r, nil
}

// advance lets the bot move while it is to move, then ends the game if
// neither side can move. It returns what happened, for the message, in
// the words of t.
func (s *Service) advance(ctx context.Context, t *catalog.Printer, g *record.Game) ([]string, error) {
	var notes []string
	for !g.State.Over() && g.ToMove().IsBot() {
		side := g.ToMove()
		before := g.Clock()
		limit, target := s.thinkTime(g, before)
		mctx, cancel := context.WithTimeout(ctx, limit)
		r, err := s.eng.MoveOnClock(mctx, g.Position(), side.Level, rand.New(rand.NewPCG(rand.Uint64(), uint64(g.ID))), target)
		cancel()
		if err != nil {
			return notes, fmt.Errorf("engine move in game %d: %w", g.ID, err)
		}
		at := s.clock.Now()
		if before.Up(at) {
			// Only after a restart that kept the bot from its move past
			// its flag: the timer ends the game as it would a player's.
			return notes, nil
		}
		plies, err := g.State.Play(r.Move)
		if err != nil {
			return notes, fmt.Errorf("engine chose %s in game %d: %w", r.Move, g.ID, err)
		}
		// The answer that shows the turn before shows this one too.
		if err := s.commit(ctx, g, plies, "", g.ShownIn, at, before.Charge(at, record.ClockSide(g.Position().ToMove()))); err != nil {
			return notes, err
		}
		notes = append(notes, describePlies(t, g, plies)...)
	}
	if g.State.Over() && g.Status == record.Active { // stored over but running by a build before commit ended it
		if _, err := s.FinishWith(ctx, t, g, play.ByBoard(g)); err != nil {
			return notes, err
		}
	}
	if g.State.Over() {
		notes = append(notes, ResultLine(t, g))
	}
	return notes, nil
}

// commit stores a turn made at at, with the clocks left after it, or,
// when it ends the game, with the end in one write (play.Flow.Turn), and
// arms the game's timer. token is the reply owed to the player who made
// the turn, kept while the bot thinks about its own; shows, the message
// the answer will edit to show it (record.Turn.Shows).
func (s *Service) commit(ctx context.Context, g *record.Game, plies []game.Ply, token, shows string, at time.Time, left [2]time.Duration) error {
	if _, err := s.flow.Turn(ctx, g, record.Turn{Plies: plies, At: at, Left: left, Shows: shows}, token); err != nil {
		return err
	}
	s.Arm(g)
	return nil
}

// thinkTime is how long the engine may think on its move, and on a clock
// the time it aims at (0: all of it; see engine.MoveOnClock): the
// configured time, and on a clock no more than its plan of the time it
// has left gives (timecontrol.PlanMove).
func (s *Service) thinkTime(g *record.Game, k timecontrol.Clock) (limit, target time.Duration) {
	if !live(g) {
		return s.cfg.EngineMoveTime, 0
	}
	left := k.LeftAt(k.ToMove, s.clock.Now())
	p := timecontrol.PlanMove(left, g.Control.Increment, g.Position().Empties(), g.Size()*g.Size())
	return min(s.cfg.EngineMoveTime, p.Max), min(s.cfg.EngineMoveTime, p.Target)
}
