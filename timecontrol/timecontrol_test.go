package timecontrol

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{"1+0": "1+0", "3+2": "3+2", " 5 + 3 ": "5+3", "180+180": "180+180", "1d": "1d", "7D": "7d",
		"14d": "14d", "010+05": "10+5"} {
		c, err := Parse(in)
		if err != nil || c.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, c, err, want)
		}
	}
	for in, want := range map[string]error{"0+0": ErrNoTime, "0+5": ErrNoTime, "0d": ErrNoTime, "999+999": ErrTooLong, "181+0": ErrTooLong,
		"3+181": ErrTooLong, "15d": ErrTooLong, "-1": ErrSyntax, "3+2+1": ErrSyntax, "5 minutes": ErrSyntax, "": ErrSyntax, "+": ErrSyntax,
		"3+": ErrSyntax, "+2": ErrSyntax, "1.5+0": ErrSyntax, "d": ErrSyntax, "1h": ErrSyntax, "９+0": ErrSyntax, "1e3+0": ErrSyntax,
		"99999999999999999999+0": ErrSyntax} {
		if _, err := Parse(in); !errors.Is(err, want) {
			t.Errorf("Parse(%q) error %v, want %v", in, err, want)
		}
	}
}

// Categories as lichess defines them: estimated = minutes + 40 x increment.
func TestCategories(t *testing.T) {
	for in, want := range map[string]Category{"1+0": Bullet, "2+0": Bullet, "1+2": Bullet, "3+0": Blitz, "3+2": Blitz, "5+3": Blitz,
		"7+0": Blitz, "8+0": Rapid, "10+5": Rapid, "10+0": Rapid, "15+10": Rapid, "15+15": Classical, "24+0": Rapid, "25+0": Classical, "30+0": Classical,
		"1d": Correspondence, "7d": Correspondence} {
		c, _ := Parse(in)
		if got := c.Category(); got != want {
			t.Errorf("%s (estimated %v): %s, want %s", in, c.Estimated(), got, want)
		}
	}
	if len(Common()) != 9 || Common()[1].String() != "3+2" {
		t.Errorf("common controls %v", Common())
	}
}

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// A 3+2 game scripted to the millisecond: first moves untimed, the
// increment after every timed move, a pass keeping the turn.
func TestIncrementsExactly(t *testing.T) {
	c, _ := Parse("3+2")
	k := Start(c, 0, t0)
	if !k.FlagAt().IsZero() || k.AbortAt() != t0.Add(30*time.Second) {
		t.Fatalf("before black's first move: flag %v, abort %v", k.FlagAt(), k.AbortAt())
	}
	step := func(after time.Duration, next Side) {
		t.Helper()
		var err error
		if k, err = k.Move(k.TurnStart.Add(after), next); err != nil {
			t.Fatal(err)
		}
	}
	step(20*time.Second, 1) // black's first move: free
	step(10*time.Second, 0) // white's first move: free
	if k.Left != [2]time.Duration{3 * time.Minute, 3 * time.Minute} {
		t.Fatalf("after the untimed first moves: %v", k.Left)
	}
	if want := k.TurnStart.Add(3 * time.Minute); k.FlagAt() != want || !k.AbortAt().IsZero() {
		t.Fatalf("black's flag at %v, want %v", k.FlagAt(), want)
	}
	step(12345*time.Millisecond, 1) // black: 180 - 12.345 + 2
	if want := 169655 * time.Millisecond; k.Left[0] != want {
		t.Fatalf("black has %v, want %v", k.Left[0], want)
	}
	step(1*time.Millisecond, 1) // white moves, black must pass: white again
	step(2*time.Second, 0)
	if want := 3*time.Minute + 2*time.Second - time.Millisecond + 2*time.Second - 2*time.Second; k.Left[1] != want {
		t.Fatalf("white has %v, want %v", k.Left[1], want)
	}
	if got := k.LeftAt(0, k.TurnStart.Add(time.Minute)); got != 169655*time.Millisecond-time.Minute {
		t.Fatalf("black's clock a minute into the turn: %v", got)
	}
	if k.LeftAt(1, k.TurnStart.Add(time.Minute)) != k.Left[1] {
		t.Fatal("the side not to move lost time")
	}
}

// The flag falls at its time exactly: a move received a millisecond
// before is taken, one at the time or after is refused and changes
// nothing, whenever it is processed.
func TestFlagFallsExactly(t *testing.T) {
	c, _ := Parse("1+0")
	k := Start(c, 0, t0)
	k, _ = k.Move(t0.Add(time.Second), 1)
	k, _ = k.Move(t0.Add(2*time.Second), 0)
	flag := k.FlagAt()
	if flag != t0.Add(2*time.Second+time.Minute) {
		t.Fatalf("flag at %v", flag)
	}
	if _, err := k.Move(flag.Add(-time.Millisecond), 1); err != nil {
		t.Errorf("a move a millisecond before the flag: %v", err)
	}
	for _, at := range []time.Time{flag, flag.Add(time.Hour)} {
		if got, err := k.Move(at, 1); !errors.Is(err, ErrFlagged) || got != k {
			t.Errorf("a move at %v: %v, clock changed %v", at.Sub(flag), err, got != k)
		}
	}
	if k.LeftAt(0, flag.Add(time.Second)) != 0 {
		t.Error("time left after the flag is not zero")
	}
}

// Correspondence: each move has its days, from the turn's start; the
// first move too; nothing accumulates.
func TestCorrespondence(t *testing.T) {
	k := Start(Default, 0, t0)
	if k.FlagAt() != t0.Add(24*time.Hour) || !k.AbortAt().IsZero() || !k.Timed() {
		t.Fatalf("1d: flag %v abort %v", k.FlagAt(), k.AbortAt())
	}
	k, _ = k.Move(t0.Add(23*time.Hour), 1)
	if k.FlagAt() != t0.Add(47*time.Hour) || k.Left != [2]time.Duration{} {
		t.Fatalf("after a move: flag %v, left %v", k.FlagAt(), k.Left)
	}
}

// The abort window: 30 s, or the control's minutes as seconds if longer.
func TestAbortWindow(t *testing.T) {
	for in, want := range map[string]time.Duration{"1+0": 30 * time.Second, "30+0": 30 * time.Second, "45+0": 45 * time.Second, "180+0": 3 * time.Minute} {
		c, _ := Parse(in)
		if got := c.AbortWindow(); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

// Whatever a person types, Parse answers without panicking, and what it
// accepts reads back the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"3+2", "1d", "0+0", "999+999", "-1", "3+2+1", "5 minutes", " 10 + 5 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(c.String())
		if err != nil || again != c {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, c, c.String(), again, err)
		}
		if c.Live() && c.Base <= 0 || !c.Live() && c.PerMove <= 0 {
			t.Fatalf("%q gives no time: %+v", s, c)
		}
	})
}

func TestDueAndRemindAt(t *testing.T) {
	c, _ := Parse("1+0")
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	k := Start(c, 0, t0)
	if !k.Due().Equal(t0.Add(30*time.Second)) || !k.RemindAt().IsZero() {
		t.Errorf("first move: due %v, remind %v", k.Due(), k.RemindAt())
	}
	k, _ = k.Move(t0.Add(time.Second), 1)
	k, _ = k.Move(t0.Add(2*time.Second), 0) // both first moves made: timed from here
	if want := t0.Add(2*time.Second + time.Minute); !k.Due().Equal(want) || !k.RemindAt().Equal(want.Add(-LowTime)) {
		t.Errorf("timed: due %v, remind %v", k.Due(), k.RemindAt())
	}
	k, _ = k.Move(t0.Add(55*time.Second), 1) // black has 7 s left
	k, _ = k.Move(t0.Add(56*time.Second), 0)
	if k.Left[0] != 7*time.Second || !k.RemindAt().IsZero() {
		t.Errorf("a turn starting under LowTime pings no more: left %v, remind %v", k.Left[0], k.RemindAt())
	}
	if d := (Clock{Control: Default, TurnStart: t0}); !d.Due().Equal(t0.Add(24*time.Hour)) || !d.RemindAt().IsZero() {
		t.Errorf("correspondence: due %v remind %v", d.Due(), d.RemindAt())
	}
}

// Up and Charge: a live clock is up at its flag (or the first move's
// window) and not before; a move before it is charged its time and gets
// the increment; correspondence is never up and keeps its times.
func TestUpAndCharge(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	blitz := Control{Base: 3 * time.Minute, Increment: 2 * time.Second}
	k := Start(blitz, 0, t0)
	k.Moves = [2]int{1, 1} // both sides have moved: black's time runs
	if k.Up(t0.Add(3*time.Minute - time.Millisecond)) {
		t.Fatal("up before the flag")
	}
	if !k.Up(t0.Add(3 * time.Minute)) {
		t.Fatal("not up at the flag")
	}
	left := k.Charge(t0.Add(10*time.Second), 1)
	if want := [2]time.Duration{3*time.Minute - 8*time.Second, 3 * time.Minute}; left != want {
		t.Fatalf("charged %v, want %v", left, want)
	}
	first := Start(blitz, 0, t0) // black's first move: the abort window, not the clock
	if first.Up(t0.Add(blitz.AbortWindow()-time.Millisecond)) || !first.Up(t0.Add(blitz.AbortWindow())) {
		t.Fatal("the first move's window is not what Up reads")
	}
	corr := Start(Control{PerMove: 24 * time.Hour}, 0, t0)
	if corr.Up(t0.Add(48*time.Hour)) || corr.Charge(t0.Add(time.Hour), 1) != corr.Left {
		t.Fatal("a correspondence clock ran")
	}
}

// A clock that stood still charges nothing for the span: the turn's side
// has what it had when the span began, for as long after it as before.
func TestStoodStill(t *testing.T) {
	c, _ := Parse("1+0")
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	k := Start(c, 0, t0)
	k, _ = k.Move(t0.Add(time.Second), 1) // first moves: untimed
	k, _ = k.Move(t0.Add(2*time.Second), 0)
	turn := t0.Add(2 * time.Second) // black's clock runs from here, 60 s
	down, back := turn.Add(20*time.Second), turn.Add(5*time.Minute)
	if !k.Up(back) {
		t.Fatal("without standing still the flag fell during the outage")
	}
	still := k.StoodStill(down, back)
	for _, at := range []time.Time{down, back.Add(-time.Minute), back} {
		if still.Up(at) || still.LeftAt(0, at) != 40*time.Second {
			t.Fatalf("standing still, at %v: up %v, left %v, want 40s", at, still.Up(at), still.LeftAt(0, at))
		}
	}
	if still.LeftAt(0, back.Add(time.Second)) != 39*time.Second || still.LeftAt(1, back) != k.Left[1] {
		t.Fatalf("after standing still: %v, %v", still.LeftAt(0, back.Add(time.Second)), still.LeftAt(1, back))
	}
	if want := back.Add(40 * time.Second); !still.FlagAt().Equal(want) {
		t.Fatalf("flag at %v, want %v", still.FlagAt(), want)
	}
	// A turn that began during the outage starts when it ends.
	if got := k.StoodStill(turn.Add(-time.Minute), back).TurnStart; !got.Equal(back) {
		t.Fatalf("turn begun in the outage starts at %v, want %v", got, back)
	}
	// A span over before the turn began changes nothing.
	if got := k.StoodStill(t0, turn.Add(-time.Second)); got != k {
		t.Fatalf("an earlier span moved the clock: %+v", got)
	}
	// The abort window stands still too.
	fresh := Start(c, 0, t0)
	if got := fresh.StoodStill(t0.Add(10*time.Second), t0.Add(time.Hour)).AbortAt(); !got.Equal(t0.Add(time.Hour + 20*time.Second)) {
		t.Fatalf("abort at %v", got)
	}
}
