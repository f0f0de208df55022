package sprt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// play draws games of a side trueElo stronger, with draws at drawRate,
// until the test decides (or 200,000 games).
func play(t Test, trueElo, drawRate float64, rng *rand.Rand) (Decision, Results) {
	// Win and loss chances around the draws so the mean score is the
	// logistic curve's at trueElo.
	score := expected(trueElo)
	win := score - drawRate/2
	var r Results
	for r.Games() < 200000 {
		switch x := rng.Float64(); {
		case x < win:
			r.Wins++
		case x < win+drawRate:
			r.Draws++
		default:
			r.Losses++
		}
		if d := t.Decide(r); d != Continue {
			return d, r
		}
	}
	return Continue, r
}

// The test keeps its promises: a side truly elo1 stronger is accepted as
// such nearly always, one truly elo0 stronger nearly never (each within
// a few points of the error rates asked, over many simulated matches),
// and one far stronger is accepted within a few hundred games.
func TestErrorRates(t *testing.T) {
	test := Test{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	rng := rand.New(rand.NewPCG(1, 2))
	const runs = 400
	count := func(trueElo float64) (h1 int, games int) {
		for range runs {
			d, r := play(test, trueElo, 0.1, rng)
			if d == Continue {
				t.Fatalf("true Elo %v: undecided after %d games", trueElo, r.Games())
			}
			if d == AcceptH1 {
				h1++
			}
			games += r.Games()
		}
		t.Logf("true Elo %+v: H1 accepted %d times in %d, %d games a match", trueElo, h1, runs, games/runs)
		return h1, games / runs
	}
	if h1, avg := count(10); float64(runs-h1)/runs > 0.09 {
		t.Errorf("a side truly 10 Elo better was turned down %d times in %d (beta 0.05); %d games a match", runs-h1, runs, avg)
	}
	if h1, avg := count(0); float64(h1)/runs > 0.09 {
		t.Errorf("an equal side was accepted as better %d times in %d (alpha 0.05); %d games a match", h1, runs, avg)
	}
	d, r := play(test, 100, 0.1, rng)
	if d != AcceptH1 || r.Games() > 600 {
		t.Errorf("a side 100 Elo better: %s after %d games", d, r.Games())
	}
}

// The bounds are Wald's for the error rates; the estimate's interval
// holds the truth for a large sample and shrinks as games come in.
func TestBoundsAndEstimate(t *testing.T) {
	lower, upper := Test{Alpha: 0.05, Beta: 0.05}.Bounds()
	if math.Abs(lower+2.944) > 0.001 || math.Abs(upper-2.944) > 0.001 {
		t.Fatalf("bounds %.3f %.3f, want ±2.944", lower, upper)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var small, large Results
	for i := 0; i < 40000; i++ {
		r := &large
		if i < 400 {
			r = &small
		}
		switch x := rng.Float64(); {
		case x < expected(50)-0.1:
			r.Wins++
		case x < expected(50)+0.1:
			r.Draws++
		default:
			r.Losses++
		}
	}
	elo, margin := Elo(large)
	if math.Abs(elo-50) > margin || margin > 5 {
		t.Errorf("40,000 games at +50: estimated %+.1f ± %.1f", elo, margin)
	}
	if _, m := Elo(small); m <= margin {
		t.Errorf("400 games' interval ±%.1f is no wider than 40,000's ±%.1f", m, margin)
	}
	if llr := (Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}).LLR(Results{Wins: 10}); llr != 0 {
		t.Errorf("ten wins and nothing else gave LLR %v; no variance says nothing", llr)
	}
}
