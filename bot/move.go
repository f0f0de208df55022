package bot

// This file is /move and the move menu: the player's move, then the bot's.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"othello-bot/catalog"
	"othello-bot/customid"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
)

func (s *Service) moveCommand(ctx context.Context, req Request) (Response, error) {
	return s.playMove(ctx, req, req.Options["square"], 0, -1, "")
}

// moveComponent plays a move picked from a game message's select menu,
// whose custom id carries the game and ply it was made for.
func (s *Service) moveComponent(ctx context.Context, req Request) (Response, error) {
	c := customid.Parse(req.CustomID)
	id, ok1 := c.Int(0)
	ply, ok2 := c.Int(1)
	if !ok1 || !ok2 || len(req.Values) != 1 {
		return Refuse(req.Me().T("play.dead_menu")), nil
	}
	// The answer edits the menu's own message (Update): the turns record
	// it as showing the game after them.
	resp, err := s.playMove(ctx, req, req.Values[0], id, int(ply), req.MessageID)
	if resp.Message != nil && !resp.Message.Ephemeral {
		resp.Update = true
	}
	return resp, err
}

// playMove plays a human move. wantGame and wantPly (0 and -1 for a typed
// command) name the board a component was pressed on, and onMessage the
// message it was on when the answer edits that message ("" otherwise).
func (s *Service) playMove(ctx context.Context, req Request, square string, wantGame int64, wantPly int, onMessage string) (Response, error) {
	resp, _, err := s.PlayMove(ctx, req.Me(), req.Pub(), play.Move{ChannelID: req.ChannelID, Player: req.User.ID,
		Square: square, OnGame: wantGame, OnPly: wantPly, OnMessage: onMessage, At: s.receivedAt(req), Token: req.Token})
	return resp, err
}

// instantReply plays the bot's answer on g.State when its level answers at
// once (engine.Instant): the move and the answer then reach the database
// in one write, not two (play.Move.Reply). On a clock it plays one move
// (a second, after a pass, is advance's, charged on its own). A level that
// thinks is answered by advance after the move is stored, as before.
func (s *Service) instantReply(ctx context.Context, g *record.Game) ([]game.Ply, error) {
	var out []game.Ply
	for !g.State.Over() && g.ToMove().IsBot() {
		level := g.ToMove().Level
		if !engine.Instant(level, g.Size()) || live(g) && len(out) > 0 {
			break
		}
		r, err := s.eng.Move(ctx, g.Position(), level, rand.New(rand.NewPCG(rand.Uint64(), uint64(g.ID))))
		if err != nil {
			return out, fmt.Errorf("engine move in game %d: %w", g.ID, err)
		}
		plies, err := g.State.Play(r.Move)
		if err != nil {
			return out, fmt.Errorf("engine chose %s in game %d: %w", r.Move, g.ID, err)
		}
		out = append(out, plies...)
	}
	return out, nil
}

// PlayMove plays a member's move (play.Flow.Move) and answers it: the game
// message after it, with the bot's replies, and the pings it owes; or a
// refusal in the mover's words (me). It returns the game after it (nil
// when there is none).
func (s *Service) PlayMove(ctx context.Context, me, pub *catalog.Printer, m play.Move) (Response, *record.Game, error) {
	s.cfg.Settle(ctx) // an outage given back before this move's clock is read
	unlock := s.LockChannel(m.ChannelID)
	defer unlock()
	m.Reply = s.instantReply
	out, err := s.flow.Move(ctx, m)
	g := out.Game
	var turn play.NotYourTurnError
	var illegal play.IllegalError
	switch {
	case err == nil:
	case errors.Is(err, play.ErrTimeUp):
		// The flag fell before the move arrived, and no timer has ended
		// the game yet: it ends now, at the flag's time.
		resp, err := s.timeRanOut(ctx, me, pub, g)
		return resp, g, err
	case errors.As(err, &turn):
		return Refuse(me.T("play.not_your_turn", "Side", SideLabel(me, g, turn.ToMove))), g, nil
	case errors.As(err, &illegal):
		return Refuse(me.T("play.illegal", "Why", me.MoveError(illegal.Square, illegal.Size, illegal.Err),
			"Moves", game.SquareList(illegal.Legal))), g, nil
	case errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive):
		return Refuse(me.T("play.changed")), g, nil
	case errors.Is(err, play.ErrNoSquare):
		return Refuse(me.T("play.which_square", "Moves", game.SquareList(g.Position().LegalMoves()))), g, nil
	default:
		for _, r := range moveRefusals {
			if errors.Is(err, r.err) {
				return Refuse(me.T(r.key)), g, nil
			}
		}
		return Response{}, g, err
	}
	notes := append(describePlies(pub, g, out.Plies), describePlies(pub, g, out.Replies)...)
	if len(out.Replies) > 0 {
		s.Arm(g) // as the bot's own turn would have (commit)
	}
	more, err := s.advance(ctx, pub, g)
	if err != nil {
		return Response{}, g, err
	}
	resp := Response{Message: s.GameMessage(pub, g, append(notes, more...))}
	// In a game between members, the turn passing to the other player
	// pings them (an edited message would not) in correspondence; a live
	// game, watched as it is played, pings only at its start, on low time
	// and at its end.
	switch other := g.Side(g.Position().ToMove()); {
	case g.Status == record.Active && !live(g) && !other.IsBot() && other.Player.ID != m.Player:
		text := pub.T("play.your_move", "ID", g.ID)
		if !g.Deadline.IsZero() {
			text = pub.T("play.your_move_deadline", "ID", g.ID, "When", Stamp(g.Deadline, StampRelative))
		}
		resp.Followups = []Message{ping(other.Player.ID, text)}
	case g.Status != record.Active && live(g):
		if opp := opponentOf(g, m.Player); opp != nil {
			resp.Followups = []Message{ping(opp.Player.ID, pub.T("play.game_over_ping", "ID", g.ID, "Result", ResultLine(pub, g)))}
		}
	}
	return resp, g, nil
}

// Who is a member acting from outside a chat interaction (the web board):
// who, in which server's game, in which language their page speaks.
type Who struct {
	User    record.Player
	GuildID string
	Locale  string
}

// MoveFor plays a member's move made outside chat (play.Move names the
// game as the caller read it) and answers it as the move menu's press
// would, with the game after it: one read of the game at most, none when
// given. It never panics, as Handle.
func (s *Service) MoveFor(ctx context.Context, who Who, m play.Move) (resp Response, after *record.Game) {
	resp = s.ServeFor(ctx, who, m.ChannelID, "move:", func(ctx context.Context, me, pub *catalog.Printer) (Response, error) {
		r, g, err := s.PlayMove(ctx, me, pub, m)
		after = g
		return r, err
	})
	return resp, after
}

// ServeFor runs h for a member acting from outside chat (the web board)
// in a channel's game as Handle runs a request's handler (see serve), h
// writing in their words (me) and their server's (pub).
func (s *Service) ServeFor(ctx context.Context, who Who, channelID, entry string,
	h func(ctx context.Context, me, pub *catalog.Printer) (Response, error)) Response {
	req := Request{User: who.User, GuildID: who.GuildID, ChannelID: channelID, Locale: who.Locale}
	return s.serve(ctx, req, entry, func(ctx context.Context, req Request) (Response, error) { return h(ctx, req.Me(), req.Pub()) })
}

// ServeOn runs h on game g, as the caller read it, for a member acting
// from outside chat, under the channel's lock, served as ServeFor serves;
// it returns g, as h left it.
func (s *Service) ServeOn(ctx context.Context, who Who, g *record.Game, entry string,
	h func(ctx context.Context, me, pub *catalog.Printer) (Response, error)) (Response, *record.Game) {
	resp := s.ServeFor(ctx, who, g.ChannelID, entry, func(ctx context.Context, me, pub *catalog.Printer) (Response, error) {
		unlock := s.LockChannel(g.ChannelID)
		defer unlock()
		return h(ctx, me, pub)
	})
	return resp, g
}

// Flow is the game flow's typed operations, for the capabilities.
func (s *Service) Flow() *play.Flow { return s.flow }

// moveRefusals put the flow's refusals of a move in words.
var moveRefusals = []struct {
	err error
	key string
}{{play.ErrNoGame, "play.no_game"}, {play.ErrGameOver, "play.game_over"}, {play.ErrStaleBoard, "play.stale_board"},
	{play.ErrNotPlaying, "play.not_playing"}}

// opponentOf is the member playing against userID in g, nil when it is
// the bot or userID does not play.
func opponentOf(g *record.Game, userID string) *record.Side {
	c, ok := PlayerColor(g, userID)
	if !ok {
		return nil
	}
	if other := g.Side(c.Opponent()); !other.IsBot() {
		return &other
	}
	return nil
}

// PlayerColor is the colour userID plays in g; false when they do not
// play in it.
func PlayerColor(g *record.Game, userID string) (game.Color, bool) { return play.Color(g, userID) }
