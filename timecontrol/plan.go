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

// Plan is the engine's time for one move on a clock: it aims to spend
// Target, and may go on to Max while its search is unsettled (the best
// move changed in its last iteration), as strong engines do.
type Plan struct{ Target, Max time.Duration }

// PlanMove plans a move with left on the clock, the control's increment,
// and empties of total squares still empty. Unlike Budget's even spread,
// the time to come is shared by the weight of each of the engine's coming
// moves (phaseWeight): the opening, often from the book, gets less, and
// the stretch where the endgame is searched selectively and then solved
// gets most, since that is where games are won. Max is at most a third of
// what is spare, as Budget's cap, so a whole game on Max never flags.
func PlanMove(left, increment time.Duration, empties, total int) Plan {
	moves := max(1, (empties+1)/2)
	spare := left - Safety - time.Duration(moves)*PerMoveCost
	if spare <= 0 {
		return Plan{} // move at once
	}
	var sum float64
	for e := empties; e > 0; e -= 2 {
		sum += phaseWeight(e, total)
	}
	// Two moves' worth more than the moves to come, as Budget keeps, for
	// the passes and the longer games the count does not see.
	sum += 2 * phaseWeight(empties, total)
	share := time.Duration(float64(spare) * phaseWeight(empties, total) / sum)
	limit := spare / 3
	target := min(share+increment*4/5, limit)
	return Plan{Target: target, Max: min(target*5/2, limit)}
}

// phaseWeight is how much of the clock a move with empties of total
// squares empty deserves, against a middle-game move's 1.
func phaseWeight(empties, total int) float64 {
	switch {
	case empties <= 18:
		return 0.4 // solved exactly, and faster every move
	case empties <= 26:
		return 1.6 // the selective endgame and the first solve
	case empties*4 > total*3:
		return 0.6 // the opening
	}
	return 1
}
