package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"othello-bot/game"
)

// BenchmarkTopLevelLoss is what the top level gives away at a fixed node
// budget where the truth is known: positions of 12-22 empties from its own
// games against itself (seeded random openings, then 50,000 nodes a move),
// each one's best move and the move the top level plays there solved
// exactly. It reports the mean loss in discs a position and the share of
// positions where the move played is not a best one, and logs them by
// empties. Being exact, it can rank changes to the endgame's routing or
// the late midgame's search without a match (about 5 minutes):
//
//	go test ./engine -run '^$' -bench TopLevelLoss -benchtime 1x -v
func BenchmarkTopLevelLoss(b *testing.B) {
	const games, nodes, lo, hi = 80, 50000, 12, 22
	play := New(Options{Nodes: nodes, Searches: 1})
	// Positions first: the same for every run of the same code.
	rng := rand.New(rand.NewPCG(7, 7))
	var positions []game.Position
	for g := 0; g < games; g++ {
		p, _ := game.NewPosition(8)
		for i := 0; i < 8 && !p.GameOver(); i++ {
			if m := p.LegalMoves(); len(m) > 0 {
				p, _ = p.Play(m[rng.IntN(len(m))])
			} else {
				p = p.Pass()
			}
		}
		for !p.GameOver() {
			m := p.LegalMoves()
			if len(m) == 0 {
				p = p.Pass()
				continue
			}
			if e := p.Empties(); e >= lo && e <= hi && len(m) > 1 {
				positions = append(positions, p)
			}
			r, err := play.Move(context.Background(), p, MaxLevel, rng)
			if err != nil {
				b.Fatal(err)
			}
			p, _ = p.Play(r.Move)
		}
	}
	exact := New(Options{Searches: 1})
	solve := func(p game.Position) int { // p's exact margin for the side to move
		if !p.HasMoves() {
			if q := p.Pass(); q.HasMoves() {
				r, err := exact.Solve(context.Background(), q)
				if err != nil {
					b.Fatal(err)
				}
				return -r.Eval.Cents / discUnit
			}
			// Over: the margin with the empty squares to the winner, as
			// the solver counts them.
			bl, wh := p.Count()
			d := bl - wh
			if p.ToMove() == game.White {
				d = -d
			}
			switch e := p.Empties(); {
			case d > 0:
				d += e
			case d < 0:
				d -= e
			}
			return d
		}
		r, err := exact.Solve(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		return r.Eval.Cents / discUnit
	}
	b.ResetTimer()
	for b.Loop() {
		var loss, n, wrong [hi + 1]int
		for _, p := range positions {
			r, err := play.Move(context.Background(), p, MaxLevel, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				b.Fatal(err)
			}
			q, _ := p.Play(r.Move)
			l := solve(p) + solve(q) // the best margin less the one after the move
			e := p.Empties()
			loss[e] += l
			n[e]++
			if l != 0 {
				wrong[e]++
			}
		}
		total, count, worse := 0, 0, 0
		for e := lo; e <= hi; e++ {
			b.Logf("%d empties: %d positions, mean loss %.2f discs, %d not a best move", e, n[e], float64(loss[e])/float64(max(n[e], 1)), wrong[e])
			total, count, worse = total+loss[e], count+n[e], worse+wrong[e]
		}
		b.ReportMetric(float64(total)/float64(count), "discs-lost/position")
		b.ReportMetric(float64(worse)/float64(count), "not-best/position")
		b.ReportMetric(float64(count), "positions")
	}
}
