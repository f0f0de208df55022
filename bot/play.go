package bot

// This file is playing a game: /start, moves by command and menu, the bot's
// replies, the end of a game, and /board.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// channelGame loads the channel's active game. Without one it returns nil
// and the refusal to answer with (or the error).
func (s *Service) channelGame(ctx context.Context, req Request) (*record.Game, Response, error) {
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return nil, Refuse(req.Me().T("play.no_game")), nil
	case err != nil:
		return nil, Response{}, err
	}
	return g, Response{}, nil
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
	size, style := opts.size, opts.style
	control, refusal := s.TimeOption(req, true)
	if refusal != nil {
		return *refusal, nil
	}
	useXOT, refusal := xotOption(req, size)
	if refusal != nil {
		return *refusal, nil
	}
	unlock := s.lockChannel(req.ChannelID)
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
	start, err := game.NewPosition(size)
	if err != nil {
		return Response{}, err
	}
	now := s.clock.Now()
	g := &record.Game{GuildID: req.GuildID, ChannelID: req.ChannelID, State: game.NewGame(start),
		CreatedAt: now, UpdatedAt: now, Style: style, Control: control}
	human := record.Human(req.User)
	g.Black, g.White = human, record.Bot(level)
	if settle(opts.color) == game.White {
		g.Black, g.White = g.White, g.Black
	}
	pub := req.Pub()
	var xotNote string
	if useXOT {
		if xotNote, err = openXOT(pub, g); err != nil {
			return Response{}, err
		}
	}
	s.StartClocks(g, now) // a game never moved in ends too
	var followups []Message
	if threaded {
		switch err := s.OpenThread(ctx, pub, req.ChannelID, g); {
		case errors.Is(err, ErrThreadsNotAllowed):
			threaded = false
			if r, err := s.channelBusy(ctx, req); r != nil || err != nil {
				return Deref(r), err
			}
			followups = append(followups, Message{Ephemeral: true, Content: req.Me().T("start.no_threads")})
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
	if err := s.store.CreateGame(ctx, g); errors.Is(err, record.ErrChannelBusy) {
		s.DropThread(ctx, g)
		return Refuse(req.Me().T("start.channel_busy")), nil
	} else if err != nil {
		s.DropThread(ctx, g)
		return Response{}, err
	}
	s.Logger(ctx).Info("game started", "game", g.ID, "channel", g.ChannelID, "user", req.User.ID, "level", level, "size", size,
		"time", control.String())
	s.Arm(g)
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

// channelBusy refuses a new game in a channel that has one running.
func (s *Service) channelBusy(ctx context.Context, req Request) (*Response, error) {
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	me := req.Me()
	_, playing := playerColor(g, req.User.ID)
	if parent := cmp.Or(req.ParentID, g.ParentID); req.InThread || g.ParentID != "" {
		// No thread opens from a thread: point to the channel it is in.
		if playing {
			r := Refuse(me.T("start.own_game_thread", "ID", g.ID, "Channel", "<#"+parent+">"))
			return &r, nil
		}
		r := Refuse(me.T("start.others_game_thread", "ID", g.ID, "Players", GamePlayers(me, g), "Channel", "<#"+parent+">"))
		return &r, nil
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
		mctx, cancel := context.WithTimeout(ctx, s.thinkTime(g, before))
		r, err := s.eng.Move(mctx, g.Position(), side.Level, rand.New(rand.NewPCG(rand.Uint64(), uint64(g.ID))))
		cancel()
		if err != nil {
			return notes, fmt.Errorf("engine move in game %d: %w", g.ID, err)
		}
		at := s.clock.Now()
		if timeUp(before, at) {
			// Only after a restart that kept the bot from its move past
			// its flag: the timer ends the game as it would a player's.
			return notes, nil
		}
		plies, err := g.State.Play(r.Move)
		if err != nil {
			return notes, fmt.Errorf("engine chose %s in game %d: %w", r.Move, g.ID, err)
		}
		if err := s.commit(ctx, g, plies, "", at, charge(before, at, g.Position().ToMove())); err != nil {
			return notes, err
		}
		notes = append(notes, describePlies(t, g, plies)...)
	}
	if g.State.Over() {
		note, err := s.finishByBoard(ctx, t, g)
		if err != nil {
			return notes, err
		}
		notes = append(notes, note)
	}
	return notes, nil
}

// commit stores a turn made at at, with the clocks left after it and the
// timer it starts. token is the reply owed to the player who made the
// turn, kept while the bot thinks about its own.
func (s *Service) commit(ctx context.Context, g *record.Game, plies []game.Ply, token string, at time.Time, left [2]time.Duration) error {
	t := s.turnTimers(g, record.Turn{Plies: plies, At: at, Left: left})
	if token != "" && !g.State.Over() && g.ToMove().IsBot() {
		t.ReplyToken, t.ReplyExpires = token, s.clock.Now().Add(replyTokenLife)
	}
	if err := s.store.AppendTurn(ctx, g, t); err != nil {
		return err
	}
	s.Arm(g)
	return nil
}

// thinkTime is how long the engine may think on its move: the configured
// time, and on a clock no more than its budget of the time it has left.
func (s *Service) thinkTime(g *record.Game, k timecontrol.Clock) time.Duration {
	if !live(g) {
		return s.cfg.EngineMoveTime
	}
	left := k.LeftAt(k.ToMove, s.clock.Now())
	return min(s.cfg.EngineMoveTime, timecontrol.Budget(left, g.Control.Increment, g.Position().Empties()))
}

// finishByBoard ends a game neither side can move in: the discs decide.
func (s *Service) finishByBoard(ctx context.Context, t *catalog.Printer, g *record.Game) (string, error) {
	return s.finish(ctx, t, g, record.EndNormal, g.Position().Winner())
}

// FinishAgainst ends a game that loser lost by reason (resignation, time)
// at at (zero: now); ended before each side moved twice, it is aborted and
// has no winner, except in a tournament, where the pairing needs a result
// (a player who never moves, or withdraws, loses).
func (s *Service) FinishAgainst(ctx context.Context, t *catalog.Printer, g *record.Game, reason record.EndReason, loser game.Color, at time.Time) (string, error) {
	if g.TournamentID == 0 && (g.MovesBy(game.Black) < 2 || g.MovesBy(game.White) < 2) {
		return s.finishWith(ctx, t, g, record.Result{Reason: record.EndAbort, FinishedAt: at})
	}
	return s.finishWith(ctx, t, g, record.Result{Reason: reason, Winner: loser.Opponent(), FinishedAt: at})
}

// finish stores a game's end; winner is Empty for a draw or an abort.
func (s *Service) finish(ctx context.Context, t *catalog.Printer, g *record.Game, reason record.EndReason, winner game.Color) (string, error) {
	return s.finishWith(ctx, t, g, record.Result{Reason: reason, Winner: winner})
}

// finishWith stores a game's end as result says, with the time (now,
// unless it says when) and the discs filled in, and returns the result
// line in the words of t.
func (s *Service) finishWith(ctx context.Context, t *catalog.Printer, g *record.Game, result record.Result) (string, error) {
	b, w := g.Position().Count()
	if result.FinishedAt.IsZero() {
		result.FinishedAt = s.clock.Now()
	}
	result.BlackDiscs, result.WhiteDiscs = b, w
	if g.ParentID != "" && result.ArchiveAt.IsZero() && s.cfg.ArchiveAfter > 0 && result.Note != deletedNote(g) {
		result.ArchiveAt = result.FinishedAt.Add(s.cfg.ArchiveAfter)
	}
	reason := result.Reason
	err := s.store.FinishGame(ctx, g, result, RatingUpdate(g, result))
	if err != nil {
		return "", err
	}
	s.Logger(ctx).Info("game over", "game", g.ID, "reason", reason, "black", b, "white", w)
	s.gameEnded(ctx, g)
	return resultLine(t, g), nil
}

func (s *Service) moveCommand(ctx context.Context, req Request) (Response, error) {
	return s.playMove(ctx, req, req.Options["square"], 0, -1)
}

// moveComponent plays a move picked from a game message's select menu,
// whose custom id carries the game and ply it was made for.
func (s *Service) moveComponent(ctx context.Context, req Request, args string) (Response, error) {
	id, ply, ok := parseGamePly(args)
	if !ok || len(req.Values) != 1 {
		return Refuse(req.Me().T("play.dead_menu")), nil
	}
	resp, err := s.playMove(ctx, req, req.Values[0], id, ply)
	if resp.Message != nil && !resp.Message.Ephemeral {
		resp.Update = true
	}
	return resp, err
}

func parseGamePly(args string) (id int64, ply int, ok bool) {
	a, b, found := strings.Cut(args, ":")
	id, err1 := strconv.ParseInt(a, 10, 64)
	ply, err2 := strconv.Atoi(b)
	return id, ply, found && err1 == nil && err2 == nil
}

// playMove plays a human move. wantGame and wantPly (0 and -1 for a typed
// command) name the board a component was pressed on.
func (s *Service) playMove(ctx context.Context, req Request, square string, wantGame int64, wantPly int) (Response, error) {
	unlock := s.lockChannel(req.ChannelID)
	defer unlock()
	me, pub := req.Me(), req.Pub()
	g, err := s.store.ActiveGame(ctx, req.ChannelID)
	if errors.Is(err, record.ErrNotFound) {
		if wantGame != 0 {
			return Refuse(me.T("play.game_over")), nil
		}
		return Refuse(me.T("play.no_game")), nil
	}
	if err != nil {
		return Response{}, err
	}
	if wantGame != 0 && (wantGame != g.ID || wantPly != len(g.Plies())) {
		return Refuse(me.T("play.stale_board")), nil
	}
	color, playing := playerColor(g, req.User.ID)
	if !playing {
		return Refuse(me.T("play.not_playing")), nil
	}
	if g.Position().ToMove() != color {
		return Refuse(me.T("play.not_your_turn", "Side", sideLabel(me, g, g.Position().ToMove()))), nil
	}
	at, before := s.receivedAt(req), g.Clock()
	if timeUp(before, at) {
		// The flag fell before the move arrived, and no timer has ended
		// the game yet: it ends now, at the flag's time.
		return s.timeRanOut(ctx, req, g)
	}
	if strings.TrimSpace(square) == "" {
		return Refuse(me.T("play.which_square", "Moves", game.SquareList(g.Position().LegalMoves()))), nil
	}
	var plies []game.Ply
	sq, err := game.ParseSquare(square, g.Size())
	if err == nil {
		plies, err = g.State.Play(sq) // a refused move leaves the game as it was
	}
	if err != nil {
		return Refuse(me.T("play.illegal", "Why", me.MoveError(square, g.Size(), err), "Moves", game.SquareList(g.Position().LegalMoves()))), nil
	}
	if err := s.commit(ctx, g, plies, req.Token, at, charge(before, at, g.Position().ToMove())); errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return Refuse(me.T("play.changed")), nil
	} else if err != nil {
		return Response{}, err
	}
	notes := describePlies(pub, g, plies)
	more, err := s.advance(ctx, pub, g)
	if err != nil {
		return Response{}, err
	}
	resp := Response{Message: s.GameMessage(pub, g, append(notes, more...))}
	// In a game between members, the turn passing to the other player
	// pings them (an edited message would not).
	if next := g.ToMove(); g.Status == record.Active && !next.IsBot() && next.Player.ID != req.User.ID {
		text := pub.T("play.your_move", "ID", g.ID)
		if !g.Deadline.IsZero() && !live(g) {
			text = pub.T("play.your_move_deadline", "ID", g.ID, "When", Stamp(g.Deadline, StampRelative))
		}
		resp.Followups = []Message{ping(next.Player.ID, text)}
	}
	return resp, nil
}

func playerColor(g *record.Game, userID string) (game.Color, bool) {
	switch {
	case !g.Black.IsBot() && g.Black.Player.ID == userID:
		return game.Black, true
	case !g.White.IsBot() && g.White.Player.ID == userID:
		return game.White, true
	}
	return game.Empty, false
}

func (s *Service) board(ctx context.Context, req Request) (Response, error) {
	g, refusal, err := s.channelGame(ctx, req)
	if g == nil {
		return refusal, err
	}
	return Response{Message: s.GameMessage(req.Pub(), g, nil)}, nil
}
