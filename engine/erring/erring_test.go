package erring

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomValues is a position's move values as a search gives them: a few
// to a dozen moves, in discs, some equal.
func randomValues(rng *rand.Rand) []float64 {
	n := 1 + rng.IntN(12)
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(rng.IntN(41) - 20)
	}
	return v
}

// Over many positions and budgets, a better move is never less likely than
// a worse one, equal moves are equally likely, a move over the cap is
// never chosen, and the probabilities add up to one.
func TestProbabilitiesMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		values := randomValues(rng)
		target, limit := rng.Float64()*6, float64(rng.IntN(12))
		p := Probabilities(values, target, limit)
		best := slices.Max(values)
		var sum float64
		for i := range values {
			sum += p[i]
			if limit > 0 && best-values[i] > limit && p[i] != 0 {
				t.Fatalf("values %v cap %v: move %d loses %v and has chance %v", values, limit, i, best-values[i], p[i])
			}
			for j := range values {
				switch {
				case values[i] > values[j] && p[i] < p[j]:
					t.Fatalf("values %v target %v: the better move %d (%v) is less likely than %d (%v)", values, target, i, p[i], j, p[j])
				case values[i] == values[j] && math.Abs(p[i]-p[j]) > 1e-12:
					t.Fatalf("values %v: equal moves %d and %d have chances %v and %v", values, i, j, p[i], p[j])
				}
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("values %v: chances add up to %v", values, sum)
		}
	}
}

// The average loss is the target whenever the allowed moves can give it;
// with no budget only the best moves are played.
func TestMeetsTheTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		values := randomValues(rng)
		best := slices.Max(values)
		target := rng.Float64() * 4
		p := Probabilities(values, target, 0)
		var mean, uniform float64
		for i, v := range values {
			mean += p[i] * (best - v)
			uniform += (best - v) / float64(len(values))
		}
		want := min(target, uniform)
		if math.Abs(mean-want) > 1e-6 {
			t.Fatalf("values %v target %v: mean loss %v, want %v", values, target, mean, want)
		}
	}
	p := Probabilities([]float64{3, 5, 5, -2}, 0, 0)
	if !slices.Equal(p, []float64{0, 0.5, 0.5, 0}) {
		t.Errorf("no budget: %v", p)
	}
}

// Drawn many times, the choices follow the probabilities: the better move
// is chosen more often, and the average loss is the target.
func TestChooseFollowsTheChances(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	values := []float64{10, 8, 8, 2, -12}
	const draws = 200000
	count := make([]int, len(values))
	var lost float64
	for range draws {
		i := Choose(rng, values, 1.5, 10)
		count[i]++
		lost += values[0] - values[i]
	}
	if count[0] <= count[1] || count[1] <= count[3] || count[4] != 0 {
		t.Errorf("counts %v: not falling with the loss, or the move over the cap chosen", count)
	}
	if math.Abs(float64(count[1]-count[2])) > draws/50 {
		t.Errorf("equal moves drawn %d and %d times", count[1], count[2])
	}
	if mean := lost / draws; math.Abs(mean-1.5) > 0.05 {
		t.Errorf("mean loss %.3f over %d draws, want 1.5", mean, draws)
	}
}

// The phase weights spend the budget where people err: more in the
// midgame than in the opening or the last empties, and a game's moves
// spend about its budget.
func TestBudgetOverAGame(t *testing.T) {
	b := Budget{PerGame: 12, Cap: 8}
	if !(b.Target(40, 64) > b.Target(58, 64) && b.Target(40, 64) > b.Target(6, 64)) {
		t.Errorf("targets: opening %v, midgame %v, end %v", b.Target(58, 64), b.Target(40, 64), b.Target(6, 64))
	}
	var spent float64
	for empties := 59; empties >= 1; empties -= 2 { // one side's 30 moves
		spent += b.Target(empties, 64)
	}
	if math.Abs(spent-b.PerGame)/b.PerGame > 0.1 {
		t.Errorf("a game's moves aim at %.2f discs, the budget is %v", spent, b.PerGame)
	}
}
