package puzzle

import (
	"testing"

	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

func sq(t *testing.T, s string) game.Square {
	t.Helper()
	m, err := game.ParseSquare(s, 8)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAnswerWalksTheLine(t *testing.T) {
	start, _ := game.NewPosition(8)
	p := Puzzle{Start: start, Line: []game.Square{sq(t, "f5"), sq(t, "d6"), sq(t, "c3")}}
	if v, _, _ := p.Answer(0, sq(t, "d3")); v != Wrong {
		t.Fatal("a wrong first move was taken")
	}
	v, reply, next := p.Answer(0, sq(t, "f5"))
	if v != Right || reply != sq(t, "d6") || next != 2 {
		t.Fatalf("the right first move: %v %s %d", v, reply, next)
	}
	if v, _, _ := p.Answer(2, sq(t, "c3")); v != Solved {
		t.Fatalf("the last move: %v", v)
	}
	if v, _, _ := p.Answer(1, sq(t, "d6")); v != Wrong {
		t.Fatal("the opponent's move was taken as an answer")
	}
	pos, err := p.Position(2)
	if err != nil || pos.Empties() != 58 || pos.ToMove() != game.Black {
		t.Fatalf("the board at step 2: %v %v", pos, err)
	}
}

// Solving moves the player up and the puzzle down, failing the reverse;
// a harder puzzle (more empties, more moves) starts higher.
func TestAttemptRatings(t *testing.T) {
	player, puzzle := rating.New(), rating.New()
	p1, z1 := Attempt(player, puzzle, true)
	if p1.Rating <= player.Rating || z1.Rating >= puzzle.Rating {
		t.Fatalf("solved: player %v, puzzle %v", p1.Rating, z1.Rating)
	}
	p2, z2 := Attempt(player, puzzle, false)
	if p2.Rating >= player.Rating || z2.Rating <= puzzle.Rating {
		t.Fatalf("failed: player %v, puzzle %v", p2.Rating, z2.Rating)
	}
	start, _ := game.NewPosition(8)
	easy := Puzzle{Start: start, Line: []game.Square{sq(t, "f5")}}
	hard := Puzzle{Start: start, Line: []game.Square{sq(t, "f5"), sq(t, "d6"), sq(t, "c3")}}
	if InitialRating(hard).Rating <= InitialRating(easy).Rating {
		t.Fatal("a longer puzzle does not start harder")
	}
}

// Finish rates a try from a newcomer (no record yet) as from a new
// solver, moves the streaks, and says the change it made.
func TestFinishFromNothing(t *testing.T) {
	p := record.Glicko{Rating: 1500, Deviation: 80, Volatility: 0.06}
	first := Finish(nil, p, true)
	if first.Solver.Attempts != 1 || first.Solver.Solved != 1 || first.Solver.Streak != 1 || first.Change <= 0 ||
		first.Solver.Rating.Rating != NewSolver().Rating.Rating+first.Change || first.Puzzle.Rating >= p.Rating {
		t.Fatalf("a first solve: %+v", first)
	}
	miss := Finish(&first.Solver, p, false)
	if miss.Solver.Attempts != 2 || miss.Solver.Streak != 0 || miss.Solver.BestStreak != 1 || miss.Change >= 0 ||
		miss.Puzzle.Rating <= p.Rating {
		t.Fatalf("a miss after it: %+v", miss)
	}
}
