package engine

import (
	"context"
	"math/rand/v2"

	"othello-bot/engine/erring"
	"othello-bot/game"
)

// The erring levels value every move with one shallow search (errDepth,
// exact from errSolve empties on boards up to 8x8; errGridDepth on larger
// boards, where a search is slower) and then choose as a player of their
// strength would (package erring): on average they lose their budget's
// discs a game, never more than its cap on one move, a better move never
// less likely than a worse one. PerGame and Cap were set by measuring
// (docs/engine.md, "Levels"): each level about 100 rating points above
// the one below.
const (
	errDepth     = 4
	errSolve     = 10
	errGridDepth = 2
)

var erringLevels = [MaxLevel + 1]levelSpec{
	2:  erringSpec(545, 0),
	3:  erringSpec(336, 0),
	4:  erringSpec(259, 0),
	5:  erringSpec(212, 0),
	6:  erringSpec(181, 0),
	7:  erringSpec(155, 60),
	8:  erringSpec(127, 36),
	9:  erringSpec(105, 30),
	10: erringSpec(89, 26),
	11: erringSpec(71, 22),
	12: erringSpec(54, 18),
	13: erringSpec(40, 14),
	14: erringSpec(28, 11),
	15: erringSpec(17, 8),
}

// The cap: none for the beginners (who give corners away), then about a
// quarter of the budget plus four discs; level 7's is looser, easing in
// (the cap alone is worth more than a hundred points).
func erringSpec(perGame, limit float64) levelSpec {
	return levelSpec{depth: errDepth, solve: errSolve, budget: erring.Budget{PerGame: perGame, Cap: limit}}
}

// Budget is an erring level's budget (zero for the other levels).
func Budget(level int) erring.Budget {
	if level < MinLevel || level > MaxLevel {
		return erring.Budget{}
	}
	return levels[level].budget
}

// Instant says whether a level answers on a board of the given size
// within about a millisecond of CPU, so no one need wait for it: the
// random level on any board, the erring levels up to 8x8 (one shallow
// search of every move). A caller may answer for it in the same breath
// as the move before it (bot.PlayMove writes both together).
func Instant(level, size int) bool {
	return level == MinLevel || size <= 8 && Budget(level).PerGame > 0
}

// spec is a level's, with Options.Budgets applied.
func (e *Engine) spec(level int) levelSpec {
	if b, ok := e.opts.Budgets[level]; ok {
		return erringSpec(b.PerGame, b.Cap)
	}
	return levels[level]
}

// Habits say how people open (package habit's Table): how often each move
// was played from a position.
type Habits interface {
	Moves(p game.Position) map[game.Square]int
}

// SetHabits gives the erring levels how people open; nil takes it away.
// It may be called while the engine plays.
func (e *Engine) SetHabits(h Habits) {
	if h == nil {
		e.habits.Store(nil)
		return
	}
	e.habits.Store(&h)
}

// openingHabits are the counts of the moves people played from p, when p
// is in the opening (erring.InOpening) and any are known.
func (e *Engine) openingHabits(p game.Position) map[game.Square]int {
	h := e.habits.Load()
	if h == nil || !erring.InOpening(p.Empties(), p.Size()*p.Size()) {
		return nil
	}
	return (*h).Moves(p)
}

// errByBudget values every legal move and chooses one by the level's
// budget; with no time to value them it plays the quick greedy move. In
// the opening, where people's moves from the position are known (habits),
// it draws from them instead — as often as each was played, among those
// within its cap — so it opens the way people here open.
func (s *searcher) errByBudget(ctx context.Context, p game.Position, spec levelSpec, rng *rand.Rand, habits map[game.Square]int) Result {
	var evals []MoveEval
	if _, _, ok := p.Bitboards(); ok {
		end, _ := ctx.Deadline()
		stop := s.start(ctx, p.Size(), end)
		evals = s.scoreAll(p, spec.depth, spec.solve)
		stop()
		if s.aborted {
			evals = nil
		}
	} else {
		end, _ := ctx.Deadline()
		g := &gridSearch{ctx: ctx, deadline: end}
		evals = g.root(p, min(errGridDepth, p.Empties()), true)
		s.nodes = g.nodes
	}
	if len(evals) == 0 {
		return greedy(p, p.LegalMoves(), rng)
	}
	values := make([]float64, len(evals))
	for i, m := range evals {
		values[i] = m.Eval.Discs()
	}
	i, ok := fromHabits(rng, evals, habits, spec.budget.Cap)
	if !ok {
		target := spec.budget.Target(p.Empties(), p.Size()*p.Size())
		i = erring.Choose(rng, values, target, spec.budget.Cap)
	}
	return Result{Move: evals[i].Move, Eval: evals[i].Eval, Depth: spec.depth, Nodes: s.nodes,
		Loss: evals[0].Eval.Cents - evals[i].Eval.Cents}
}

// FromOldLevel is the level of the twenty nearest in strength to a level
// of the ten there were before (measured in one rating fit:
// docs/engine.md "Levels"; old 5 and 6 both become 16, old 5 lying between
// 15 and 16, nearer 16). Stored games were moved so by migration 0029,
// and a configuration's defaultLevel is read so. Out of 1-10: 0.
func FromOldLevel(old int) int {
	if old < 1 || old > len(oldLevels) {
		return 0
	}
	return oldLevels[old-1]
}

var oldLevels = [...]int{1, 6, 13, 15, 16, 16, 17, 18, 19, 20}

// fromHabits draws a move by how often people played it (habits), among
// the valued moves within limit of the best (0: no limit); false when none
// of them was played.
func fromHabits(rng *rand.Rand, evals []MoveEval, habits map[game.Square]int, limit float64) (int, bool) {
	total := 0
	for _, m := range evals {
		if n := habits[m.Move]; n > 0 && (limit <= 0 || evals[0].Eval.Discs()-m.Eval.Discs() <= limit) {
			total += n
		}
	}
	if total == 0 {
		return 0, false
	}
	r := rng.IntN(total)
	for i, m := range evals {
		if n := habits[m.Move]; n > 0 && (limit <= 0 || evals[0].Eval.Discs()-m.Eval.Discs() <= limit) {
			if r < n {
				return i, true
			}
			r -= n
		}
	}
	return 0, false
}
