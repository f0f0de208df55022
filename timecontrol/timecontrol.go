// Package timecontrol holds the rules of time in a game: the time controls
// players choose (a live clock as minutes+increment, or correspondence as
// days per move), the speed category a control belongs to (for ratings
// kept per speed, as lichess defines them), and the clocks themselves:
// what each move is charged, when a flag falls, and when a live game
// whose first move never comes is aborted. Nothing here knows Discord or
// a database; the bot stores a Clock with every turn.
package timecontrol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Control is a time control: live (Base for each side, Increment added
// after each timed move) or correspondence (PerMove for every move).
type Control struct {
	Base, Increment time.Duration
	PerMove         time.Duration
}

// Limits of a control a person may type.
const (
	MaxMinutes   = 180 // a live side's time, in minutes
	MaxIncrement = 180 // seconds added per move
	MaxDays      = 14  // correspondence days per move
)

// Errors of Parse; the bot words each for the reader.
var (
	// ErrSyntax: not "M+S" nor "Nd".
	ErrSyntax = errors.New("timecontrol: write minutes+seconds like 3+2, or days like 1d")
	// ErrNoTime: 0+0 or 0d, a game nobody could play.
	ErrNoTime = errors.New("timecontrol: a control needs some time")
	// ErrTooLong: past MaxMinutes, MaxIncrement or MaxDays.
	ErrTooLong = errors.New("timecontrol: more time than a game may have")
)

// Default is today's behaviour: a day per move.
var Default = Control{PerMove: 24 * time.Hour}

// Common are the controls offered first, as players know them.
func Common() []Control {
	var out []Control
	for _, s := range []string{"1+0", "3+2", "5+3", "10+5", "15+10", "30+0", "1d", "3d", "7d"} {
		c, _ := Parse(s)
		out = append(out, c)
	}
	return out
}

// Parse reads a control as people type it: "3+2" (minutes + increment
// seconds), "1d" (days per move). Spaces around the parts are allowed.
func Parse(s string) (Control, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := number(days, 3)
		switch {
		case err != nil:
			return Control{}, ErrSyntax
		case n == 0:
			return Control{}, ErrNoTime
		case n > MaxDays:
			return Control{}, ErrTooLong
		}
		return Control{PerMove: time.Duration(n) * 24 * time.Hour}, nil
	}
	m, inc, ok := strings.Cut(s, "+")
	if !ok {
		return Control{}, ErrSyntax
	}
	minutes, err1 := number(m, 3)
	seconds, err2 := number(inc, 3)
	switch {
	case err1 != nil || err2 != nil:
		return Control{}, ErrSyntax
	case minutes == 0 && seconds == 0, minutes == 0:
		// A live game starts with time on the clock; increment alone
		// would flag before the first move.
		return Control{}, ErrNoTime
	case minutes > MaxMinutes || seconds > MaxIncrement:
		return Control{}, ErrTooLong
	}
	return Control{Base: time.Duration(minutes) * time.Minute, Increment: time.Duration(seconds) * time.Second}, nil
}

// number reads a small whole number of at most digits digits.
func number(s string, digits int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > digits || strings.Trim(s, "0123456789") != "" {
		return 0, ErrSyntax
	}
	return strconv.Atoi(s)
}

// Live says the control is a clock, not days per move.
func (c Control) Live() bool { return c.PerMove == 0 && c.Base > 0 }

// IsZero says there is no control: a game against the bot with no clock
// (it ends as abandoned when left alone, never on time).
func (c Control) IsZero() bool { return c == Control{} }

// String writes the control as Parse reads it, and as the results log
// shows it (time=3+2, time=1d).
func (c Control) String() string {
	const day = 24 * time.Hour
	switch {
	case c.IsZero():
		return ""
	case !c.Live() && c.PerMove%day == 0:
		return fmt.Sprintf("%dd", c.PerMove/day)
	case !c.Live():
		// A move timeout configured in hours (moveTimeout), not days.
		return fmt.Sprintf("%dh", c.PerMove/time.Hour)
	}
	return fmt.Sprintf("%d+%d", c.Base/time.Minute, c.Increment/time.Second)
}

// Category is a speed, for ratings kept apart.
type Category string

const (
	Bullet         Category = "bullet"
	Blitz          Category = "blitz"
	Rapid          Category = "rapid"
	Classical      Category = "classical"
	Correspondence Category = "correspondence"
)

// Categories lists the speeds, fastest first.
func Categories() []Category {
	return []Category{Bullet, Blitz, Rapid, Classical, Correspondence}
}

// Estimated is a live game's expected length per side, as lichess
// defines it: the base time plus 40 increments.
func (c Control) Estimated() time.Duration { return c.Base + 40*c.Increment }

// Category is the control's speed: under 3 minutes estimated is bullet,
// under 8 blitz, under 25 rapid, classical beyond; days per move are
// correspondence.
func (c Control) Category() Category {
	e := c.Estimated()
	switch {
	case !c.Live():
		return Correspondence
	case e < 3*time.Minute:
		return Bullet
	case e < 8*time.Minute:
		return Blitz
	case e < 25*time.Minute:
		return Rapid
	}
	return Classical
}

// AbortWindow is how long a live game waits for a side's first move before
// it is aborted (not lost): 30 seconds, or the control's minutes as
// seconds when that is longer (a 3+2 game gives 30 s, a 60+0 game 60 s).
func (c Control) AbortWindow() time.Duration {
	return max(30*time.Second, time.Duration(c.Base/time.Minute)*time.Second)
}
