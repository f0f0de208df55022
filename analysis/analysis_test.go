package analysis

import (
	"context"
	"math/rand/v2"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
)

// minimax is the exact final margin for the side to move, empties to the
// winner, by plain search over the game's own rules: independent of the
// engine's solver.
func minimax(p game.Position) int {
	if p.GameOver() {
		b, w := p.Count()
		m := finalMargin(b, w, p.Size())
		if p.ToMove() == game.White {
			return -m
		}
		return m
	}
	if !p.HasMoves() {
		return -minimax(p.Pass())
	}
	best := -1000
	for _, m := range p.LegalMoves() {
		q, _ := p.Play(m)
		best = max(best, -minimax(q))
	}
	return best
}

// childValue is the exact value of playing m, for the mover.
func childValue(t *testing.T, p game.Position, m game.Square) int {
	q, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	return -minimax(q)
}

func randomGame(t *testing.T, size int, seed uint64) (game.Position, []game.Ply) {
	start, _ := game.NewPosition(size)
	g := game.NewGame(start)
	rng := rand.New(rand.NewPCG(seed, 1))
	for !g.Over() {
		moves := g.Position().LegalMoves()
		if _, err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return start, g.Plies()
}

// checkExact verifies every exact move of a report against minimax, from
// the ply onwards where at most maxEmpties squares are empty.
func checkExact(t *testing.T, start game.Position, plies []game.Ply, r *Report, maxEmpties int) int {
	t.Helper()
	pos := start
	k, checked := 0, 0
	for i, ply := range plies {
		if ply.Square.IsPass() {
			pos = pos.Pass()
			continue
		}
		m := r.Moves[k]
		k++
		if m.Ply != i+1 || m.Played != ply.Square.String() {
			t.Fatalf("move %d of the report is ply %d %s, want ply %d %s", k, m.Ply, m.Played, i+1, ply.Square)
		}
		if pos.Empties() <= maxEmpties {
			best := -1000
			for _, mv := range pos.LegalMoves() {
				best = max(best, childValue(t, pos, mv))
			}
			played := childValue(t, pos, ply.Square)
			bestSq, _ := game.ParseSquare(m.Best, pos.Size())
			if !m.Exact || int(m.BestValue) != best || int(m.PlayedValue) != played || childValue(t, pos, bestSq) != best ||
				m.Loss != float64(best-played) || m.Label != LabelOf(float64(best-played)) {
				t.Errorf("ply %d (%s): report %+v; minimax best %d, played %d", m.Ply, ply.Square, m, best, played)
			}
			checked++
		}
		pos, _ = pos.Play(ply.Square)
	}
	if k != len(r.Moves) {
		t.Fatalf("%d moves in the report, %d in the game", len(r.Moves), k)
	}
	return checked
}

// On 4x4 everything is exact: every best move, value and label matches a
// plain minimax of the position.
func TestSmallBoardAllExact(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	for seed := uint64(1); seed <= 5; seed++ {
		start, plies := randomGame(t, 4, seed)
		r, err := Run(context.Background(), eng, start, plies, Settings{Depth: 4, ExactFrom: 16}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := checkExact(t, start, plies, r, 16); n == 0 {
			t.Fatal("nothing checked")
		}
		if len(r.Curve) != len(r.Moves)+1 {
			t.Errorf("%d curve points for %d moves", len(r.Curve), len(r.Moves))
		}
	}
}

// On 8x8 the endgame is exact and checked against minimax; progress is
// reported for every move; the summary adds up.
func TestEightByEightEndgameExact(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of search")
	}
	eng := engine.New(engine.Options{Searches: 1})
	start, plies := randomGame(t, 8, 42)
	calls, last := 0, 0
	r, err := Run(context.Background(), eng, start, plies, Settings{Depth: 4, ExactFrom: 14}, func(done, total int) {
		calls++
		if done != last+1 || done > total {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(r.Moves) {
		t.Errorf("%d progress calls for %d moves", calls, len(r.Moves))
	}
	if n := checkExact(t, start, plies, r, 8); n < 6 {
		t.Errorf("only %d endgame moves checked", n)
	}
	b, w := r.Summary(game.Black), r.Summary(game.White)
	if b.Moves+w.Moves != len(r.Moves) || b.Best+b.Inaccuracies+b.Mistakes+b.Blunders != b.Moves {
		t.Errorf("summaries %+v %+v", b, w)
	}
	// Random moves lose discs: somebody made a mistake, and the worst is
	// the largest loss.
	if b.Worst == nil || w.Worst == nil {
		t.Fatal("random play without a worst move")
	}
	for _, m := range r.Moves {
		if m.Color == game.Black && m.Loss > b.Worst.Loss {
			t.Errorf("move %d lost %.1f, more than the worst %.1f", m.Ply, m.Loss, b.Worst.Loss)
		}
	}
}

func TestLabels(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Label
	}{{0, Best}, {0.9, Best}, {1, Inaccuracy}, {3.9, Inaccuracy}, {4, Mistake}, {7.5, Mistake}, {8, Blunder}, {40, Blunder}} {
		if got := LabelOf(c.loss); got != c.want {
			t.Errorf("LabelOf(%v) = %s, want %s", c.loss, got, c.want)
		}
	}
}

// BenchmarkRun analyses a 60-move 8x8 game with the bot's settings.
func BenchmarkRun(b *testing.B) {
	eng := engine.New(engine.Options{Searches: 1})
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	rng := rand.New(rand.NewPCG(7, 1))
	for !g.Over() {
		// Decent play, so the endgame is not trivially lopsided.
		r, err := eng.Move(context.Background(), g.Position(), 14, rng)
		if err != nil {
			b.Fatal(err)
		}
		g.Play(r.Move)
	}
	for b.Loop() {
		if _, err := Run(context.Background(), eng, start, g.Plies(), Default, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// LeftBook finds the first move the book does not play, counting moves.
func TestLeftBook(t *testing.T) {
	start, err := game.NewPosition(8)
	if err != nil {
		t.Fatal(err)
	}
	// A book of the first legal move of each position with under 6 discs.
	book := func(p game.Position) []game.Square {
		if b, w := p.Count(); b+w < 6 {
			return p.LegalMoves()[:1]
		}
		return nil
	}
	var moves []game.Square
	p := start
	for i := 0; i < 3; i++ {
		sq := p.LegalMoves()[0]
		moves = append(moves, sq)
		if p, err = p.Play(sq); err != nil {
			t.Fatal(err)
		}
	}
	if left, ok := LeftBook(start, moves, book); !ok || left != 3 {
		t.Fatalf("left the book at move %d (%v), want 3", left, ok)
	}
	if _, ok := LeftBook(start, moves[:2], book); ok {
		t.Fatal("a game all in the book left it")
	}
	if _, ok := LeftBook(start, moves, func(game.Position) []game.Square { return nil }); ok {
		t.Fatal("with no book there is nothing to leave")
	}
}

// Values never pass what the board allows: ±64 on 8x8, ±size² in general;
// losses and the curve are computed from the held values.
func TestValuesWithinTheBoard(t *testing.T) {
	for _, c := range []struct {
		v    float64
		size int
		want float64
	}{{108, 8, 64}, {-127, 8, -64}, {12.5, 8, 12.5}, {40, 6, 36}, {-64, 8, -64}} {
		if got := bounded(c.v, c.size); got != c.want {
			t.Errorf("bounded(%v, %d) = %v, want %v", c.v, c.size, got, c.want)
		}
	}
}

// Moves are numbered as players count them: a game's passes are plies,
// not moves, so a finished 8x8 game's last move is move 60 however many
// passes it had (this one, of first legal moves, has four).
func TestMoveNumbersSkipPasses(t *testing.T) {
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for !g.Over() {
		if _, err := g.Play(g.Position().LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	plies := g.Plies()
	r, err := Run(context.Background(), engine.New(engine.Options{Searches: 1}), start, plies, Settings{Depth: 1, ExactFrom: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := r.Moves[len(r.Moves)-1]
	if len(plies) == 60 || last.Ply != len(plies) {
		t.Fatalf("the game has %d plies, its last move at ply %d: no passes to skip", len(plies), last.Ply)
	}
	if n := r.MoveNumber(last.Ply); n != 60 {
		t.Fatalf("the last move (ply %d of %d) is numbered %d, want 60", last.Ply, len(plies), n)
	}
	for i, p := range plies {
		if p.Square.IsPass() && r.MoveNumber(i+1) != 0 {
			t.Fatalf("the pass at ply %d is numbered as a move", i+1)
		}
	}
}
