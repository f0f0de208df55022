// Package sprt decides whether one engine is stronger than another from
// the games between them as they come in: the sequential probability
// ratio test chess engines are tested with (Stockfish's fishtest), in its
// usual normal approximation over win/draw/loss results. It stops a match
// as soon as the results say "at least elo1 better" or "not even elo0
// better" with the error rates asked for, and estimates the Elo
// difference with its 95% interval.
package sprt

import (
	"fmt"
	"math"
)

// Results are the games of the side under test.
type Results struct{ Wins, Draws, Losses int }

// Games is how many games were played.
func (r Results) Games() int { return r.Wins + r.Draws + r.Losses }

// Score is the side's mean score (a draw is half a point), with the
// variance of one game's score around it.
func (r Results) Score() (mean, variance float64) {
	n := float64(r.Games())
	if n == 0 {
		return 0.5, 0
	}
	mean = (float64(r.Wins) + float64(r.Draws)/2) / n
	variance = (float64(r.Wins)*sq(1-mean) + float64(r.Draws)*sq(0.5-mean) + float64(r.Losses)*sq(mean)) / n
	return mean, variance
}

func sq(x float64) float64 { return x * x }

// expected is the mean score of a side elo points stronger (the logistic
// Elo curve).
func expected(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// eloOf is the Elo difference a mean score stands for.
func eloOf(score float64) float64 {
	score = min(max(score, 1e-9), 1-1e-9)
	return -400 * math.Log10(1/score-1)
}

// Test is a test of H0 "the side is elo0 better" against H1 "it is elo1
// better", with alpha the chance of accepting H1 when H0 holds and beta
// the chance of accepting H0 when H1 holds.
type Test struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Decision is where a test stands.
type Decision int

const (
	Continue Decision = iota // play on
	AcceptH0                 // not elo1 better: the change is not worth it
	AcceptH1                 // at least elo1 better (within the error rates)
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "undecided"
}

// Bounds are the log-likelihood ratios at which the test stops: below
// lower it accepts H0, above upper H1.
func (t Test) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 against H0 given the results, in
// the normal approximation: N·(s1−s0)·(2x̄−s0−s1) / (2σ²), with x̄ the mean
// score, σ² a game's variance and s0, s1 the scores H0 and H1 expect.
func (t Test) LLR(r Results) float64 {
	mean, variance := r.Score()
	if variance == 0 {
		return 0 // every game alike so far: nothing to tell them apart by
	}
	s0, s1 := expected(t.Elo0), expected(t.Elo1)
	return float64(r.Games()) * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// Decide says whether the results settle the test.
func (t Test) Decide(r Results) Decision {
	llr := t.LLR(r)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// Elo estimates the side's Elo advantage and the half-width of its 95%
// interval.
func Elo(r Results) (elo, margin float64) {
	mean, variance := r.Score()
	n := float64(r.Games())
	if n == 0 {
		return 0, math.Inf(1)
	}
	se := math.Sqrt(variance / n)
	return eloOf(mean), (eloOf(mean+1.96*se) - eloOf(mean-1.96*se)) / 2
}

// String reports a test's state: the decision, the LLR against its
// bounds and the Elo estimate.
func (t Test) String(r Results) string {
	lower, upper := t.Bounds()
	elo, margin := Elo(r)
	return fmt.Sprintf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: %s, LLR %.2f (%.2f, %.2f) after %d games (+%d =%d -%d); Elo %+.1f ± %.1f",
		t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Decide(r), t.LLR(r), lower, upper, r.Games(), r.Wins, r.Draws, r.Losses, elo, margin)
}
