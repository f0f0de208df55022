package rating

import (
	"math"
	"testing"
)

// The worked example of Glickman's paper: a 1500/200 player beats a
// 1400/30 player and loses to 1550/100 and 1700/300 players in one period.
// The paper computes mu' = -0.2069, phi' = 0.8722 and sigma' = 0.05999 on
// the Glicko-2 scale, four decimals each, and from the rounded mu' the
// Glicko-scale r' = 1464.06 and RD' = 151.52.
func TestGlickmanExample(t *testing.T) {
	p := Player{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := p.Update([]Result{
		{Player{1400, 30, 0.06}, 1},
		{Player{1550, 100, 0.06}, 0},
		{Player{1700, 300, 0.06}, 0},
	})
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %.6f within %g", name, got, want, tol)
		}
	}
	check("mu'", (got.Rating-1500)/scale, -0.2069, 0.00005)
	check("phi'", got.Deviation/scale, 0.8722, 0.00005)
	check("sigma'", got.Volatility, 0.05999, 0.00001)
	check("r'", got.Rating, 1464.06, 0.01)
	check("RD'", got.Deviation, 151.52, 0.005)
}

func TestIdleDeviationGrows(t *testing.T) {
	p := Player{Rating: 1600, Deviation: 60, Volatility: 0.06}
	prev := p.Deviation
	for _, periods := range []float64{1, 10, 100, 1000} {
		q := p.Idle(periods)
		if q.Deviation <= prev || q.Rating != p.Rating || q.Volatility != p.Volatility {
			t.Errorf("after %v idle periods: %+v", periods, q)
		}
		prev = q.Deviation
	}
	if p.Idle(1e9).Deviation != InitialDeviation {
		t.Error("deviation grew past the initial value")
	}
	if p.Idle(0) != p || p.Update(nil) != p.Idle(1) {
		t.Error("no games should only grow the deviation")
	}
}

// A win raises, a loss lowers, and winning against a stronger player gains
// more than against a weaker one; the deviation shrinks with play.
func TestUpdateDirections(t *testing.T) {
	me := New()
	strong, weak := Player{1800, 50, 0.06}, Player{1200, 50, 0.06}
	winStrong := me.Update([]Result{{strong, 1}})
	winWeak := me.Update([]Result{{weak, 1}})
	lose := me.Update([]Result{{weak, 0}})
	draw := me.Update([]Result{{Player{1500, 50, 0.06}, 0.5}})
	if !(winStrong.Rating > winWeak.Rating && winWeak.Rating > me.Rating && lose.Rating < me.Rating) {
		t.Errorf("win strong %.1f, win weak %.1f, lose %.1f", winStrong.Rating, winWeak.Rating, lose.Rating)
	}
	if math.Abs(draw.Rating-me.Rating) > 0.01 || winWeak.Deviation >= me.Deviation {
		t.Errorf("draw %.2f, deviation %.1f", draw.Rating, winWeak.Deviation)
	}
}
