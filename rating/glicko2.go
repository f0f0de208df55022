// Package rating implements Glicko-2 (Mark Glickman, "Example of the
// Glicko-2 system", 2012): a rating, its deviation and a volatility per
// player, updated after each rating period from the games played in it.
package rating

import "math"

// The Glicko-2 constants othello-bot uses.
const (
	// Initial values for a new player.
	InitialRating     = 1500.0
	InitialDeviation  = 350.0
	InitialVolatility = 0.06
	// Tau constrains how fast volatility may change; Glickman suggests 0.3
	// to 1.2.
	Tau = 0.5
	// scale converts between the Glicko and Glicko-2 scales.
	scale = 173.7178
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 0.000001
)

// Player is a rating on the Glicko scale.
type Player struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// New returns the rating of a player who has not played.
func New() Player {
	return Player{Rating: InitialRating, Deviation: InitialDeviation, Volatility: InitialVolatility}
}

// Result is one game against an opponent: Score is 1 for a win, 0.5 for a
// draw, 0 for a loss.
type Result struct {
	Opponent Player
	Score    float64
}

// Idle returns the rating after periods rating periods without games: the
// deviation grows as uncertainty about the player returns (step 6 of the
// algorithm on its own), never past the initial deviation.
func (p Player) Idle(periods float64) Player {
	if periods <= 0 {
		return p
	}
	phi := p.Deviation / scale
	phi = math.Sqrt(phi*phi + periods*p.Volatility*p.Volatility)
	p.Deviation = math.Min(phi*scale, InitialDeviation)
	return p
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muJ, phiJ float64) float64 { return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ))) }

// Update returns the player's rating after a rating period with the given
// games. With no games only the deviation grows.
func (p Player) Update(games []Result) Player {
	if len(games) == 0 {
		return p.Idle(1)
	}
	// Step 2: to the Glicko-2 scale.
	mu := (p.Rating - InitialRating) / scale
	phi := p.Deviation / scale
	sigma := p.Volatility

	// Steps 3 and 4: the estimated variance v and improvement delta.
	var vInv, sum float64
	for _, r := range games {
		muJ := (r.Opponent.Rating - InitialRating) / scale
		phiJ := r.Opponent.Deviation / scale
		e := expected(mu, muJ, phiJ)
		gj := g(phiJ)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (r.Score - e)
	}
	v := 1 / vInv
	delta := v * sum

	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > epsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	newSigma := math.Exp(A / 2)

	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + newSigma*newSigma)
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	newMu := mu + newPhi*newPhi*sum

	// Step 8: back to the Glicko scale.
	return Player{Rating: newMu*scale + InitialRating, Deviation: newPhi * scale, Volatility: newSigma}
}

// Period is the length of a rating period: a player's deviation grows by
// one period's worth for each one spent without rated games.
const Period = 24 * 60 * 60 // seconds

// ProvisionalDeviation is the deviation above which a rating is still
// provisional: too uncertain to rank with the established ones.
const ProvisionalDeviation = 110.0

// Scale converts Glicko-2 volatility into Glicko deviation units, for
// callers that compute idle growth themselves (as the store does in SQL).
const Scale = scale
