package web

// This file is what a game's page shows beside its board: each player's
// box (rating, avatar, clock) and the game as Discord's rich presence
// shows it.

import (
	"context"
	"errors"
	"math"
	"strconv"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

// Presence is a game in two short lines, for Discord's rich presence.
type Presence struct {
	Details string `json:"details"`
	State   string `json:"state"`
}

// presenceOf says where g stands: "alice vs bob", "3+2 · move 14".
func presenceOf(t *catalog.Printer, g *record.Game, black, white string) Presence {
	p := Presence{Details: t.T("web.presence.details", "Black", black, "White", white)}
	moves := g.MovesBy(game.Black) + g.MovesBy(game.White)
	switch {
	case g.Status != record.Active:
		p.State = t.T("web.presence.over")
	case g.Control.IsZero():
		p.State = t.T("web.presence.move", "N", moves+1)
	default:
		p.State = t.T("web.presence.timed", "Control", g.Control.String(), "N", moves+1)
	}
	return p
}

// boxesOf fills what a page's first copy of g shows of its players
// beside the board: their ratings and avatars.
func (s *Server) boxesOf(ctx context.Context, g *record.Game, d *Data) {
	d.Ratings = s.ratingsOf(ctx, g)
	var pics [2]string
	for i, side := range []record.Side{g.Black, g.White} {
		if side.IsBot() {
			continue
		}
		hash, err := s.src.Avatar(ctx, side.Player.ID)
		if err != nil {
			s.log.Warn("web: reading a player's avatar", "game", g.ID, "err", err)
			continue
		}
		pics[i] = avatarURL(side.Player.ID, hash)
	}
	d.Avatars = &pics
}

// ratingsOf reads g's players' ratings for their boxes; a rating that
// cannot be read is left out (the box shows the name alone) and logged.
func (s *Server) ratingsOf(ctx context.Context, g *record.Game) *[2]string {
	var out [2]string
	scope := record.SpeedScope(g.GuildID, g.Control.Category())
	for i, side := range []record.Side{g.Black, g.White} {
		if side.IsBot() {
			continue
		}
		r, err := s.src.Rating(ctx, side.Player.ID, scope)
		if err != nil {
			if !errors.Is(err, record.ErrNotFound) {
				s.log.Warn("web: reading a player's rating", "game", g.ID, "err", err)
			}
			continue
		}
		out[i] = strconv.Itoa(int(math.Round(r.Rating)))
		if r.Deviation > rating.ProvisionalDeviation {
			out[i] += "?"
		}
	}
	return &out
}

// Clock is a live game's clocks as the page ticks them: each side's time
// when its turn began (milliseconds) and, while a side's time runs, which
// side and when its flag falls (Unix milliseconds), so the page counts down
// from the flag itself and a cached payload never goes stale.
type Clock struct {
	Black   int64  `json:"black"`
	White   int64  `json:"white"`
	Running string `json:"running"` // "X", "O", or "" when no time runs
	FlagAt  int64  `json:"flagAt"`
}

// clockOf is g's clocks for its page, nil if it has none.
func clockOf(g *record.Game) *Clock {
	if !g.Control.Live() {
		return nil
	}
	c := &Clock{Black: g.Left[0].Milliseconds(), White: g.Left[1].Milliseconds()}
	if k := g.Clock(); g.Status == record.Active && !g.State.Over() && k.Timed() {
		c.Running, c.FlagAt = "X", k.FlagAt().UnixMilli()
		if g.Position().ToMove() == game.White {
			c.Running = "O"
		}
	}
	return c
}
