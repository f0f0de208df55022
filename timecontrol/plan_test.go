package timecontrol

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	// Tenths under ten seconds, as every live-chess site shows them (#44);
	// a clock never reads more than it has (tenths are cut, not rounded).
	for d, want := range map[time.Duration]string{172 * time.Second: "2:52", 172900 * time.Millisecond: "2:52", 0: "0:00.0", -time.Second: "0:00.0",
		59 * time.Second: "0:59", 10 * time.Minute: "10:00", time.Hour + 2*time.Minute + 3*time.Second: "1:02:03", 999 * time.Millisecond: "0:00.9",
		9399 * time.Millisecond: "0:09.3", 10 * time.Second: "0:10", 9999 * time.Millisecond: "0:09.9"} {
		if got := Format(d); got != want {
			t.Errorf("Format(%v) = %q, want %q", d, got, want)
		}
	}
}

// Played out with the budget, a whole game never flags, whatever the
// control and board, when every move's think takes the whole budget and
// its answer PerMoveCost more; and the engine does use its time (over
// half of a 1+0 clock on an 8x8 game).
func TestBudgetNeverFlags(t *testing.T) {
	for _, tc := range []struct {
		control string
		empties int
	}{{"1+0", 60}, {"1+0", 672}, {"3+2", 60}, {"1+1", 672}, {"10+0", 60}, {"1+0", 20}} {
		c, _ := Parse(tc.control)
		left, least := c.Base, c.Base
		for e := tc.empties; e > 0; e -= 2 { // its moves, one every two plies
			spent := Budget(left, c.Increment, e) + PerMoveCost
			if spent >= left {
				t.Fatalf("%s, %d empties: flagged with %v left, spending %v", tc.control, e, left, spent)
			}
			left = left - spent + c.Increment
			least = min(least, left)
		}
		if tc.control == "1+0" && tc.empties == 60 && c.Base-left < c.Base/2 {
			t.Errorf("1+0 on 8x8 used only %v of its minute", c.Base-left)
		}
		t.Logf("%s over %d empties: least left %v, left at the end %v", tc.control, tc.empties, least, left)
	}
	if Budget(Safety, 0, 60) != 0 || Budget(0, time.Second, 60) != 0 {
		t.Error("with no time past the safety margin the engine must move at once")
	}
}

// The phase plan never flags even when every move takes its Max (the most
// an unsettled search may take) and its answer PerMoveCost more; it uses
// most of a clock; it gives the endgame's decisive stretch more than the
// opening; and with nothing spare it moves at once.
func TestPlanMoveNeverFlags(t *testing.T) {
	for _, tc := range []struct {
		control string
		empties int
	}{{"1+0", 60}, {"1+0", 672}, {"3+2", 60}, {"1+1", 672}, {"10+0", 60}, {"1+0", 20}} {
		c, _ := Parse(tc.control)
		for _, onMax := range []bool{false, true} {
			left := c.Base
			total := 64
			if tc.empties > 60 {
				total = 676
			}
			for e := tc.empties; e > 0; e -= 2 {
				p := PlanMove(left, c.Increment, e, total)
				if p.Target > p.Max {
					t.Fatalf("%s, %d empties: target %v over max %v", tc.control, e, p.Target, p.Max)
				}
				spent := p.Target + PerMoveCost
				if onMax {
					spent = p.Max + PerMoveCost
				}
				if spent >= left {
					t.Fatalf("%s, %d empties (on max %v): flagged with %v left, spending %v", tc.control, e, onMax, left, spent)
				}
				left = left - spent + c.Increment
			}
			if tc.control == "1+0" && tc.empties == 60 && !onMax && c.Base-left < c.Base/2 {
				t.Errorf("1+0 on 8x8 used only %v of its minute", c.Base-left)
			}
		}
	}
	full := 3 * time.Minute
	opening, decisive := PlanMove(full, 0, 56, 64), PlanMove(full, 0, 24, 64)
	if opening.Target >= decisive.Target {
		t.Errorf("on a full clock the opening gets %v, the endgame's stretch %v", opening.Target, decisive.Target)
	}
	if p := PlanMove(Safety, 0, 60, 64); p != (Plan{}) {
		t.Errorf("with nothing spare: %+v", p)
	}
}
