package puzzle

import (
	"context"
	"math/rand/v2"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
)

// randomGame plays an 8x8 game of random moves, as a beginner makes
// mistakes: plenty of puzzles near the end.
func randomGame(t *testing.T, rng *rand.Rand) (game.Position, []game.Square) {
	t.Helper()
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for !g.Over() {
		moves := g.Position().LegalMoves()
		if _, err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return start, g.Moves()
}

// value is the exact final margin for the side to move at p, found by the
// engine's full-depth evaluation: a second way to the answer.
func value(t *testing.T, e *engine.Engine, p game.Position) int {
	t.Helper()
	v, err := e.Evaluate(context.Background(), p, 64)
	if err != nil || !v.Exact {
		t.Fatalf("evaluating: %v %v", v, err)
	}
	return v.Cents / 100
}

// margins are each legal move's exact margin for the side to move,
// re-solved move by move.
func margins(t *testing.T, e *engine.Engine, p game.Position) map[game.Square]int {
	t.Helper()
	out := map[game.Square]int{}
	for _, m := range p.LegalMoves() {
		next, _ := p.Play(m)
		if next.GameOver() {
			b, w := next.Count()
			d := b - w
			if p.ToMove() == game.White {
				d = -d
			}
			out[m] = d
			continue
		}
		if next.MustPass() {
			out[m] = value(t, e, next.Pass())
			continue
		}
		out[m] = -value(t, e, next)
	}
	return out
}

// checkOnly checks that at p exactly one move keeps the best result, that
// it is want, and that the result is margin.
func checkOnly(t *testing.T, e *engine.Engine, p game.Position, want game.Square, margin int) map[game.Square]int {
	t.Helper()
	ms := margins(t, e, p)
	keeping := 0
	for m, v := range ms {
		if outcome(v) == outcome(margin) {
			keeping++
			if m != want || v != margin {
				t.Errorf("%s keeps the result with %d; the puzzle says %s with %d", m, v, want, margin)
			}
		}
		if v > margin {
			t.Errorf("%s gives %d, more than the puzzle's best %d", m, v, margin)
		}
	}
	if keeping != 1 {
		t.Errorf("%d moves keep the result %d at\n%v", keeping, margin, p)
	}
	return ms
}

func TestPuzzlesAreUniqueAndExact(t *testing.T) {
	e := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(7, 8))
	found, multi := 0, 0
	for n := 0; n < 12; n++ {
		start, moves := randomGame(t, rng)
		ps, err := Find(context.Background(), e, start, moves, Options{MaxEmpties: 12, MaxMoves: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			found++
			ms := checkOnly(t, e, p.Start, p.Line[0], p.Result)
			if played, ok := ms[p.Played]; !ok || outcome(played) == outcome(p.Result) || p.Cost != p.Result-played {
				t.Errorf("the game's move %s gives %d (cost %d) against %d", p.Played, played, p.Cost, p.Result)
			}
			if moves[p.Ply] != p.Played {
				t.Errorf("ply %d of the game is %s, the puzzle says %s", p.Ply, moves[p.Ply], p.Played)
			}
			// Every later step: the reply is one of the opponent's best, and
			// the solver's move is again the only one keeping the result.
			pos, _ := p.Start.Play(p.Line[0])
			for i := 1; i+1 < len(p.Line); i += 2 {
				multi++
				pos = passIfStuck(pos)
				replies := margins(t, e, pos)
				best := -65
				for _, v := range replies {
					best = max(best, v)
				}
				if replies[p.Line[i]] != best {
					t.Errorf("reply %s gives the opponent %d, their best is %d", p.Line[i], replies[p.Line[i]], best)
				}
				pos, _ = pos.Play(p.Line[i])
				pos = passIfStuck(pos)
				checkOnly(t, e, pos, p.Line[i+1], p.Result)
				pos, _ = pos.Play(p.Line[i+1])
			}
			if err := Verify(context.Background(), e, p); err != nil {
				t.Errorf("Verify: %v", err)
			}
			if p.Moves() > 3 {
				t.Errorf("a puzzle of %d moves", p.Moves())
			}
		}
	}
	if found < 5 {
		t.Fatalf("only %d puzzles in 12 random games", found)
	}
	t.Logf("%d puzzles, %d later steps checked", found, multi)
}

func TestNoPuzzleWhereTheGameFoundTheMove(t *testing.T) {
	e := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for n := 0; n < 20 && checked < 3; n++ {
		start, moves := randomGame(t, rng)
		ps, err := Find(context.Background(), e, start, moves, Options{MaxEmpties: 10})
		if err != nil {
			t.Fatal(err)
		}
		checked += replayRight(t, e, start, moves, ps)
	}
	if checked < 3 {
		t.Fatalf("only %d puzzles to check", checked)
	}
	big, _ := game.NewPosition(10)
	if _, err := Find(context.Background(), e, big, nil, Options{MaxEmpties: 10}); err != ErrNotSolvable {
		t.Fatalf("a 10x10 game: %v", err)
	}
}

// replayRight replays the game with each puzzle's answer in place of the
// mistake: at that ply there is then no puzzle. It returns how many it
// checked.
func replayRight(t *testing.T, e *engine.Engine, start game.Position, moves []game.Square, ps []Puzzle) int {
	t.Helper()
	for _, p := range ps {
		fixed := append([]game.Square(nil), moves[:p.Ply]...)
		fixed = append(fixed, p.Line[0])
		again, err := Find(context.Background(), e, start, fixed, Options{MaxEmpties: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range again {
			if q.Ply == p.Ply {
				t.Errorf("ply %d is still a puzzle after the right move", p.Ply)
			}
		}
	}
	return len(ps)
}

// Verify refuses a puzzle whose answer, result or cost is wrong.
func TestVerifyCatchesWrongPuzzles(t *testing.T) {
	e := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 12; n++ {
		start, moves := randomGame(t, rng)
		ps, err := Find(context.Background(), e, start, moves, Options{MaxEmpties: 12, MaxMoves: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			continue
		}
		p := ps[0]
		if err := Verify(context.Background(), e, p); err != nil {
			t.Fatalf("a right puzzle: %v", err)
		}
		wrongMove, wrongResult, wrongCost := p, p, p
		wrongMove.Line = []game.Square{p.Played}
		wrongResult.Result++
		wrongCost.Cost++
		for name, q := range map[string]Puzzle{"move": wrongMove, "result": wrongResult, "cost": wrongCost} {
			if Verify(context.Background(), e, q) == nil {
				t.Errorf("a wrong %s passed", name)
			}
		}
		return
	}
	t.Fatal("no puzzle found to spoil")
}

// BenchmarkFind is the search of one finished game for puzzles as the bot
// does it (up to 20 empty squares, three moves), over a fixed set of
// random games: time per game, and puzzles per 1,000 games.
//
//	go test ./puzzle -run '^$' -bench Find -benchtime 20x -count 3
func BenchmarkFind(b *testing.B) {
	e := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(11, 12))
	type g struct {
		start game.Position
		moves []game.Square
	}
	var games []g
	for len(games) < 20 {
		start, _ := game.NewPosition(8)
		gm := game.NewGame(start)
		for !gm.Over() {
			moves := gm.Position().LegalMoves()
			gm.Play(moves[rng.IntN(len(moves))])
		}
		games = append(games, g{start, gm.Moves()})
	}
	found := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := games[i%len(games)]
		ps, err := Find(context.Background(), e, x.start, x.moves, Options{MaxEmpties: 20, MaxMoves: 3})
		if err != nil {
			b.Fatal(err)
		}
		found += len(ps)
	}
	b.ReportMetric(1000*float64(found)/float64(b.N), "puzzles/1000games")
}
