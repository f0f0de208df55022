package bot

// This file is the flow of time in a game: the time option, each turn's
// clocks and deadline, and what a move that came after the flag gets. The
// rules of time themselves are the timecontrol package's.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"othello-bot/catalog"
	"othello-bot/record"
	"othello-bot/render"
	"othello-bot/timecontrol"
)

// maxArrivalLag bounds how far before the bot got round to a request its
// own time (when Discord received it) may be taken to be: the
// acknowledgement is due within 3 s, so anything older is a clock out of
// step, not a move that waited.
const maxArrivalLag = 10 * time.Second

// receivedAt is when a request's move counts as made: when Discord received
// it (Request.At), not when the bot got round to it; never in the future,
// nor more than maxArrivalLag before now.
func (s *Service) receivedAt(req Request) time.Time {
	now := s.clock.Now()
	switch {
	case req.At.IsZero() || req.At.After(now):
		return now
	case now.Sub(req.At) > maxArrivalLag:
		return now.Add(-maxArrivalLag)
	}
	return req.At
}

// TimeOption reads the time option of /start and /challenge. Without one,
// a game against the bot has no clock and a game between members the
// server's default.
func (s *Service) TimeOption(req Request, vsBot bool) (timecontrol.Control, *Response) {
	v := strings.TrimSpace(req.Options["time"])
	if v == "" {
		if vsBot {
			return timecontrol.Control{}, nil
		}
		return s.defaultControl(), nil
	}
	c, err := timecontrol.Parse(v)
	if err != nil {
		return c, Refusal(timeError(req.Me(), v, err))
	}
	return c, nil
}

// timeError says why a typed control was refused, in the reader's words.
func timeError(t *catalog.Printer, typed string, err error) string {
	quoted := Typed(typed)
	switch {
	case errors.Is(err, timecontrol.ErrNoTime):
		return t.T("time.no_time", "Typed", quoted)
	case errors.Is(err, timecontrol.ErrTooLong):
		return t.T("time.too_long", "Typed", quoted, "Minutes", timecontrol.MaxMinutes,
			"Seconds", timecontrol.MaxIncrement, "Days", timecontrol.MaxDays)
	}
	return t.T("time.syntax", "Typed", quoted)
}

// defaultControl is the server's default for games between members: the
// configured control, else the move timeout per move.
func (s *Service) defaultControl() timecontrol.Control {
	if !s.cfg.DefaultControl.IsZero() {
		return s.cfg.DefaultControl
	}
	return timecontrol.Control{PerMove: s.cfg.MoveTimeout}
}

// live says g is played on a clock.
func live(g *record.Game) bool { return g.Control.Live() }

// clockLines are the game message's clocks: each side's time (the running
// one as it stands now) and, for the side to move, when its flag falls as
// a timestamp every reader's client counts down.
func clockLines(t *catalog.Printer, g *record.Game, now time.Time) (clocks, due string) {
	k := g.Clock()
	clocks = t.T("game.clocks", "BlackDisc", render.Black, "Black", timecontrol.Format(k.LeftAt(0, now)),
		"WhiteDisc", render.White, "White", timecontrol.Format(k.LeftAt(1, now)))
	if g.Status != record.Active || g.State.Over() {
		return clocks, ""
	}
	side := SideName(t, g.ToMove())
	switch {
	case g.Deadline.IsZero():
	case !k.Timed():
		due = t.T("game.first_move_by", "Side", side, "When", Stamp(g.Deadline, StampRelative))
		if g.TournamentID != 0 {
			due = t.T("game.first_move_or_lose", "Side", side, "When", Stamp(g.Deadline, StampRelative))
		}
	default:
		due = t.T("game.flag_at", "Side", side, "When", Stamp(g.Deadline, StampRelative))
	}
	return clocks, due
}

// ControlName is a control as the reader sees it: "3+2 · Blitz".
func ControlName(t *catalog.Printer, c timecontrol.Control) string {
	return t.T("time.control", "Control", c.String(), "Speed", t.T("speed."+string(c.Category())))
}

// StandStill, the core's part of giving back the time the bot was away
// (bot/downtime decides when and for whom), stands g's running clock
// still from `from` until `until` (timecontrol.Clock.StoodStill), stores
// the turn restarted and arms its timer. It reports false when that
// changes nothing, or another process moved the game meanwhile.
func (s *Service) StandStill(ctx context.Context, g *record.Game, from, until time.Time) (bool, error) {
	k := g.Clock().StoodStill(from, until)
	if g.Status != record.Active || g.State.Over() || !k.TurnStart.After(g.TurnStartedAt) {
		return false, nil
	}
	t := s.flow.Timers(g, record.Turn{At: k.TurnStart, Left: k.Left})
	unlock := s.LockChannel(g.ChannelID)
	err := s.games.RestartTurn(ctx, g, t)
	unlock()
	if errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("standing game %d's clock still: %w", g.ID, err)
	}
	s.Arm(g)
	return true, nil
}
