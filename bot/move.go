package bot

// This file is /move and the move menu: the player's move, then the bot's.

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"othello-bot/game"
	"othello-bot/record"
)

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
	s.cfg.Settle(ctx) // an outage given back before this move's clock is read
	unlock := s.LockChannel(req.ChannelID)
	defer unlock()
	me, pub := req.Me(), req.Pub()
	g, err := s.games.ActiveGame(ctx, req.ChannelID)
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
	color, playing := PlayerColor(g, req.User.ID)
	if !playing {
		return Refuse(me.T("play.not_playing")), nil
	}
	if g.Position().ToMove() != color {
		return Refuse(me.T("play.not_your_turn", "Side", SideLabel(me, g, g.Position().ToMove()))), nil
	}
	at, before := s.receivedAt(req), g.Clock()
	if before.Up(at) {
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
	if err := s.commit(ctx, g, plies, req.Token, at, before.Charge(at, record.ClockSide(g.Position().ToMove()))); errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
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
	// pings them (an edited message would not) in correspondence; a live
	// game, watched as it is played, pings only at its start, on low time
	// and at its end.
	switch other := g.Side(g.Position().ToMove()); {
	case g.Status == record.Active && !live(g) && !other.IsBot() && other.Player.ID != req.User.ID:
		text := pub.T("play.your_move", "ID", g.ID)
		if !g.Deadline.IsZero() {
			text = pub.T("play.your_move_deadline", "ID", g.ID, "When", Stamp(g.Deadline, StampRelative))
		}
		resp.Followups = []Message{ping(other.Player.ID, text)}
	case g.Status != record.Active && live(g):
		if opp := opponentOf(g, req.User.ID); opp != nil {
			resp.Followups = []Message{ping(opp.Player.ID, pub.T("play.game_over_ping", "ID", g.ID, "Result", ResultLine(pub, g)))}
		}
	}
	return resp, nil
}

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
func PlayerColor(g *record.Game, userID string) (game.Color, bool) {
	switch {
	case !g.Black.IsBot() && g.Black.Player.ID == userID:
		return game.Black, true
	case !g.White.IsBot() && g.White.Player.ID == userID:
		return game.White, true
	}
	return game.Empty, false
}
