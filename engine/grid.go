package engine

import (
	"context"
	"time"

	"othello-bot/game"
)

// Boards larger than 8x8 are searched through the game package's Position,
// which is slower than bitboards but knows every size. Levels keep their
// depths, capped by the time they have.

type gridSearch struct {
	ctx      context.Context
	deadline time.Time
	nodes    uint64
	aborted  bool
}

func (g *gridSearch) poll() bool {
	g.nodes++
	if g.nodes&63 == 0 && (g.ctx.Err() != nil || !g.deadline.IsZero() && time.Now().After(g.deadline)) {
		g.aborted = true
	}
	return g.aborted
}

func gridEval(p game.Position) int32 {
	me := p.ToMove()
	n := p.Size()
	mp := len(p.LegalMoves())
	mo := len(p.Pass().LegalMoves())
	if mp == 0 && mo == 0 {
		return gridTerminal(p)
	}
	s := 90 * (mp - mo)
	corners := [4][2]int{{0, 0}, {n - 1, 0}, {0, n - 1}, {n - 1, n - 1}}
	for _, c := range corners {
		dc, dr := 1, 1
		if c[0] != 0 {
			dc = -1
		}
		if c[1] != 0 {
			dr = -1
		}
		owner := p.At(game.Square{Col: c[0], Row: c[1]})
		switch owner {
		case me:
			s += 500
		case me.Opponent():
			s -= 500
		case game.Empty:
			s -= 250 * sign(p.At(game.Square{Col: c[0] + dc, Row: c[1] + dr}), me)
			s -= 80 * sign(p.At(game.Square{Col: c[0] + dc, Row: c[1]}), me)
			s -= 80 * sign(p.At(game.Square{Col: c[0], Row: c[1] + dr}), me)
		}
	}
	if e := p.Empties(); e < 18 {
		b, w := p.Count()
		d := b - w
		if me == game.White {
			d = -d
		}
		s += (18 - e) * 6 * d
	}
	return int32(s)
}

func sign(c, me game.Color) int {
	switch c {
	case me:
		return 1
	case me.Opponent():
		return -1
	}
	return 0
}

func gridTerminal(p game.Position) int32 {
	b, w := p.Count()
	d := b - w
	if p.ToMove() == game.White {
		d = -d
	}
	e := p.Empties()
	switch {
	case d > 0:
		return int32((d+e)*discUnit + winBonus)
	case d < 0:
		return int32((d-e)*discUnit - winBonus)
	}
	return 0
}

func (g *gridSearch) search(p game.Position, depth int, alpha, beta int32) int32 {
	if g.poll() {
		return 0
	}
	if depth <= 0 {
		return gridEval(p)
	}
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if p.GameOver() {
			return gridTerminal(p)
		}
		return -g.search(p.Pass(), depth, -beta, -alpha)
	}
	best := int32(-infinity)
	for _, m := range moves {
		q, _ := p.Play(m)
		v := -g.search(q, depth-1, -beta, -alpha)
		if g.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// gridRoot scores every root move at depth (each with a full window when
// all is set), best first.
func (g *gridSearch) root(p game.Position, depth int, all bool) []MoveEval {
	moves := p.LegalMoves()
	alpha := int32(-infinity)
	scores := make([]int32, len(moves))
	for i, m := range moves {
		q, _ := p.Play(m)
		lo := alpha
		if all {
			lo = -infinity
		}
		scores[i] = -g.search(q, depth-1, -infinity, -lo)
		if g.aborted {
			return nil
		}
		if scores[i] > alpha {
			alpha = scores[i]
		}
	}
	out := make([]MoveEval, len(moves))
	idx := make([]int, len(moves))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && scores[idx[j]] > scores[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	empties := p.Empties()
	for i, k := range idx {
		out[i] = MoveEval{Move: moves[k], Eval: evalOf(scores[k], depth >= empties)}
	}
	return out
}

func chooseGrid(ctx context.Context, p game.Position, maxDepth int, useAllTime bool) Result {
	t0 := time.Now()
	end, _ := ctx.Deadline()
	g := &gridSearch{ctx: ctx, deadline: end}
	res := Result{Move: p.LegalMoves()[0]}
	for d := 1; d <= maxDepth && d <= p.Empties(); d++ {
		if useAllTime && d > 1 && time.Since(t0) > end.Sub(t0)*3/10 {
			break
		}
		r := g.root(p, d, false)
		if g.aborted {
			break
		}
		res = Result{Move: r[0].Move, Eval: r[0].Eval, Depth: d}
	}
	res.Nodes = g.nodes
	return res
}

func analyzeGrid(ctx context.Context, p game.Position) []MoveEval {
	t0 := time.Now()
	end, _ := ctx.Deadline()
	g := &gridSearch{ctx: ctx, deadline: end}
	var best []MoveEval
	for _, m := range p.LegalMoves() {
		best = append(best, MoveEval{Move: m})
	}
	for d := 1; d <= p.Empties(); d++ {
		if d > 1 && time.Since(t0) > end.Sub(t0)*3/10 {
			break
		}
		r := g.root(p, d, true)
		if g.aborted {
			break
		}
		best = r
	}
	return best
}
