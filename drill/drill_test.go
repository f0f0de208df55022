package drill

import (
	"context"
	"math/rand/v2"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
)

// Endgames of each size: that many empties, two moves or more, and they
// differ from one draw to the next.
func TestEndgames(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(1, 1))
	seen := map[string]bool{}
	for _, n := range []int{MinEmpties, 10, MaxEmpties} {
		for range 3 {
			p, err := Endgame(context.Background(), eng, rng, n)
			if err != nil {
				t.Fatal(err)
			}
			if p.Empties() != n || p.GameOver() || len(p.LegalMoves()) < 2 {
				t.Errorf("%d empties asked: %s", n, p.Board64())
			}
			seen[p.Board64()] = true
		}
	}
	if len(seen) < 8 {
		t.Errorf("only %d different positions in 9", len(seen))
	}
	if _, err := Endgame(context.Background(), eng, rng, MaxEmpties+1); err == nil {
		t.Error("an endgame past the reach")
	}
}

// Playing every move of an endgame the solver's way loses nothing and
// ends at the perfect margin; a worse move loses what the scores say, and
// the perfect margin after it is that much less.
func TestGrading(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	rng := rand.New(rand.NewPCG(2, 2))
	p, err := Endgame(context.Background(), eng, rng, 10)
	if err != nil {
		t.Fatal(err)
	}
	me := p.ToMove()
	perfect, err := Perfect(context.Background(), eng, p)
	if err != nil {
		t.Fatal(err)
	}
	scores, _ := eng.ScoreMoves(context.Background(), p, 0, 64)
	worst := scores[len(scores)-1].Move
	lost, best, err := Lost(context.Background(), eng, p, worst)
	if err != nil || best != scores[0].Move || lost != (scores[0].Eval.Cents-scores[len(scores)-1].Eval.Cents)/100 {
		t.Fatalf("lost %d, best %s: %v", lost, best, err)
	}
	after, _ := p.Play(worst)
	if got, _ := Perfect(context.Background(), eng, after); -got != perfect-lost {
		t.Errorf("after the worst move: %d for the opponent, want %d", got, -(perfect - lost))
	}
	// Best play to the end reaches the perfect margin.
	for !p.GameOver() {
		if p.MustPass() {
			p = p.Pass()
		}
		r, err := eng.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		p, _ = p.Play(r.Move)
	}
	if Final(p, me) != perfect {
		t.Errorf("best play ended %d, perfect %d", Final(p, me), perfect)
	}
}

func TestEncodeDecode(t *testing.T) {
	eng := engine.New(engine.Options{Searches: 1})
	p, _ := Endgame(context.Background(), eng, rand.New(rand.NewPCG(3, 3)), 12)
	q, err := Decode(Encode(p))
	if err != nil || !q.Equal(p) {
		t.Fatalf("%s came back as %v %v", Encode(p), q.Board64(), err)
	}
	start, _ := game.NewPosition(8)
	for _, bad := range []string{"", "1.2", "ff.ff.X", "1.2.Z", Encode(start), "zz.1.X"} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
}

func FuzzDecodeDrill(f *testing.F) {
	eng := engine.New(engine.Options{Searches: 1})
	p, _ := Endgame(context.Background(), eng, rand.New(rand.NewPCG(4, 4)), 8)
	f.Add(Encode(p))
	f.Add("0.0.X")
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Decode(s)
		if err != nil {
			return
		}
		if q.Empties() > MaxEmpties || q.Size() != 8 {
			t.Fatalf("%q read as a position with %d empties", s, q.Empties())
		}
		if again, err := Decode(Encode(q)); err != nil || !again.Equal(q) {
			t.Fatalf("%q does not come back", s)
		}
	})
}
