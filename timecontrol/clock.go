package timecontrol

import (
	"errors"
	"time"
)

// Side is a player's index: 0 black, 1 white.
type Side int

// Clock is a game's clocks as stored with every turn: each side's time
// left when its turn began, how many moves each side made, and when the
// side to move's turn began. Time is charged from the moment a turn
// passes to a side to the moment its move was received (the
// interaction's own time, not when the bot got round to it). Against the
// bot, the human's turn begins when the bot's reply was made: the bot's
// thinking is charged to the bot's own clock, never to a human.
type Clock struct {
	Control Control
	// Left is each side's time when its current or next turn begins.
	Left [2]time.Duration
	// Moves counts each side's moves: a side's first move is not timed
	// (it has the abort window instead), as on lichess.
	Moves [2]int
	// ToMove is the side whose turn it is, since TurnStart.
	ToMove    Side
	TurnStart time.Time
}

// ErrFlagged: the move came after the mover's time ran out.
var ErrFlagged = errors.New("timecontrol: the flag fell before the move")

// Start is the clock of a new game whose first turn (black's) starts at t.
func Start(c Control, first Side, t time.Time) Clock {
	return Clock{Control: c, Left: [2]time.Duration{c.Base, c.Base}, ToMove: first, TurnStart: t}
}

// Timed says the side to move's time is running: always in
// correspondence, and in a live game once that side has made its first
// move.
func (k Clock) Timed() bool {
	return !k.Control.Live() || k.Moves[k.ToMove] > 0
}

// FlagAt is when the side to move loses on time if it has not moved; the
// zero time while its move is not timed (see AbortAt).
func (k Clock) FlagAt() time.Time {
	switch {
	case !k.Control.Live():
		return k.TurnStart.Add(k.Control.PerMove)
	case !k.Timed():
		return time.Time{}
	}
	return k.TurnStart.Add(k.Left[k.ToMove])
}

// AbortAt is when a live game is aborted because the side to move has not
// made its first move; the zero time once it has (or in correspondence).
func (k Clock) AbortAt() time.Time {
	if !k.Control.Live() || k.Timed() {
		return time.Time{}
	}
	return k.TurnStart.Add(k.Control.AbortWindow())
}

// LeftAt is what the side has at time t: its stored time, less the
// running turn's for the side to move.
func (k Clock) LeftAt(s Side, t time.Time) time.Duration {
	if s != k.ToMove || !k.Timed() || !k.Control.Live() {
		return k.Left[s]
	}
	return max(0, k.Left[s]-max(0, t.Sub(k.TurnStart)))
}

// Move charges the side to move for a move received at t and passes the
// turn to next (the same side again when the other must pass). The
// increment follows every timed move. A move at or after the flag's time
// is refused with ErrFlagged and changes nothing: the game is lost on
// time at FlagAt, whatever arrives later.
func (k Clock) Move(t time.Time, next Side) (Clock, error) {
	if flag := k.FlagAt(); !flag.IsZero() && !t.Before(flag) {
		return k, ErrFlagged
	}
	if t.Before(k.TurnStart) {
		t = k.TurnStart // a move is never charged negative time
	}
	s := k.ToMove
	if k.Control.Live() && k.Timed() {
		k.Left[s] = k.Left[s] - t.Sub(k.TurnStart) + k.Control.Increment
	}
	k.Moves[s]++
	k.ToMove, k.TurnStart = next, t
	return k, nil
}

// StoodStill is the clock as if it had stood still from `from` until
// `until` (the bot was down, nobody could move): the running turn's side
// is charged nothing for that span. A live timed turn is charged what it
// used before the span and begins again at until, so its clock shows
// what was left, standing, until then; any other turn (correspondence, a
// first move's abort window) starts later by the span. A span over
// before the turn began changes nothing.
func (k Clock) StoodStill(from, until time.Time) Clock {
	from = later(from, k.TurnStart)
	if !until.After(from) {
		return k
	}
	if k.Control.Live() && k.Timed() {
		k.Left[k.ToMove] -= from.Sub(k.TurnStart)
		k.TurnStart = until
		return k
	}
	k.TurnStart = k.TurnStart.Add(until.Sub(from))
	return k
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// LowTime is how much time a live player has left when they are pinged,
// once, that their flag is near.
const LowTime = 10 * time.Second

// Due is when the side to move's time is up: its flag, or while its first
// live move is untimed the end of the abort window.
func (k Clock) Due() time.Time {
	if f := k.FlagAt(); !f.IsZero() {
		return f
	}
	return k.AbortAt()
}

// RemindAt is when the side to move of a live game is pinged that its
// flag is near: LowTime before it, on a turn that begins with more than
// LowTime (so the ping comes once as the clock crosses it, not on every
// later move); zero for none.
func (k Clock) RemindAt() time.Time {
	if !k.Control.Live() || !k.Timed() || k.Left[k.ToMove] <= LowTime {
		return time.Time{}
	}
	return k.FlagAt().Add(-LowTime)
}

// Up says the side to move's time ran out at or before at: its flag
// fell, or its first live move did not come within the abort window.
// A correspondence clock is never up (its deadline is the reminder's and
// time-out's business).
func (k Clock) Up(at time.Time) bool {
	if !k.Control.Live() {
		return false
	}
	due := k.Due()
	return !due.IsZero() && !at.Before(due)
}

// Charge is each side's time after the side to move's move, received at
// at, the turn passing to next. Callers ask Up first: a move after the
// flag is never charged. A correspondence clock keeps its times.
func (k Clock) Charge(at time.Time, next Side) [2]time.Duration {
	if !k.Control.Live() {
		return k.Left
	}
	moved, err := k.Move(at, next)
	if err != nil {
		return k.Left
	}
	return moved.Left
}
