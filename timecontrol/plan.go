package timecontrol

import (
	"fmt"
	"time"
)

// Format writes a clock as players read it: m:ss ("2:52"), h:mm:ss from an
// hour, and with tenths under ten seconds ("0:09.3"), as live-chess sites
// do. Time is shown rounded down, as clocks do: 0:00.0 means the flag is
// about to fall.
func Format(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	if d < 10*time.Second {
		return fmt.Sprintf("0:%02d.%d", s, int(d%time.Second/(100*time.Millisecond)))
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Safety is what the engine never spends of its own clock, and
// PerMoveCost what each of its answers costs beyond thinking (storing the
// move, sending the message), kept aside for every move still to come.
const (
	Safety      = 300 * time.Millisecond
	PerMoveCost = 25 * time.Millisecond
)

// Budget is how long the engine may think on a move with left on its
// clock, the control's increment, and empties squares still empty (on an
// Othello board a side makes about half of the remaining moves). It keeps
// Safety and each coming move's PerMoveCost aside, spreads the rest over
// the moves to come, uses most of the increment it gets back, and never
// spends more than a third of it on one move: planned this way, the
// engine never loses on time.
func Budget(left, increment time.Duration, empties int) time.Duration {
	moves := max(1, (empties+1)/2)
	spare := left - Safety - time.Duration(moves)*PerMoveCost
	if spare <= 0 {
		return 0 // move at once: the quickest answer still beats the flag
	}
	b := spare/time.Duration(moves+2) + increment*4/5
	return min(b, spare/3)
}
