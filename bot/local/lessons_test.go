package local_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"othello-bot/coach"
	"othello-bot/engine"
	"othello-bot/record"
)

var lessonNumber = regexp.MustCompile(`Learn from your mistakes · #(\d+)`)

// A game against level 3 played to the end by a beginner (random moves):
// its end message offers "Learn from my mistakes"; pressed, it gives the
// player their three largest mistakes, one at a time, each only to them,
// each with a worded reason once answered; solving one rates it. The
// opponent may not take them; /puzzle mode:mine gives the next.
func TestLessonsAfterAGame(t *testing.T) {
	e := open(t, t.TempDir())
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	out := e.say("alice #lobby: /start level:3 color:black size:8")
	r3, _ := engine.LevelRating(3)
	expect(t, out, "Bot level", "3 · beginner · rating ≈"+strconv.Itoa(r3))
	for range 70 {
		g, err := e.store.ActiveGame(ctx, "lobby")
		if err != nil {
			break
		}
		moves := g.Position().LegalMoves()
		out = e.say("alice #lobby: /move " + moves[rng.IntN(len(moves))].String())
	}
	expect(t, out, "Learn from my mistakes")
	g, err := e.store.Game(ctx, 1)
	if err != nil || g.Status != record.Finished {
		t.Fatalf("the game: %+v %v", g, err)
	}
	expect(t, e.say("bob #lobby: click Learn from my mistakes"), "Only the players of game #1 can learn from its mistakes")

	lessons, made, err := e.store.Lessons(ctx, 1, "alice")
	if err != nil || made || len(lessons) != 0 {
		t.Fatalf("made before the press: %v %v", made, err)
	}
	first := e.say("alice #lobby: click Learn from my mistakes")
	expect(t, first, "Lesson 1 of 3 from game #1.", "In game #1 you played", "Find a better move.")
	if lessons, made, err = e.store.Lessons(ctx, 1, "alice"); err != nil || !made || len(lessons) != 3 {
		t.Fatalf("lessons: %d %v %v", len(lessons), made, err)
	}
	shown := func(out string) record.PuzzleRecord {
		t.Helper()
		m := lessonNumber.FindAllStringSubmatch(out, -1)
		if m == nil {
			t.Fatalf("no lesson shown:\n%s", out)
		}
		for _, l := range lessons {
			if m[len(m)-1][1] == strconv.FormatInt(l.ID, 10) {
				return l
			}
		}
		t.Fatalf("lesson #%s is not one of the game's", m[len(m)-1][1])
		return record.PuzzleRecord{}
	}
	l1 := shown(first)
	if l1.Owner != "alice" || l1.Ply != lessons[0].Ply {
		t.Errorf("the first lesson shown: %+v", l1)
	}
	// Each lesson is the game's position with the move alice played there.
	plies := g.Plies()
	for _, l := range lessons {
		if plies[l.Ply].Square != l.Played || plies[l.Ply].Color != l.Start.ToMove() {
			t.Errorf("lesson at ply %d: played %s, the game has %s", l.Ply, l.Played, plies[l.Ply].Square)
		}
		if _, err := coach.Decode(l.Why, 8); err != nil || l.Why == "" {
			t.Errorf("lesson at ply %d: reasons %q %v", l.Ply, l.Why, err)
		}
	}
	// Solved: rated, and why in words.
	out = e.say("alice #lobby: select " + l1.Line[0].String())
	expect(t, out, "solved!", "Right answers: "+l1.Line[0].String(), "Why:", "ends about", "Puzzle rating 1500 → ")
	if v, err := e.store.Solver(ctx, "alice"); err != nil || v.Solved != 1 || v.Rating.Rating <= 1500 {
		t.Errorf("alice's puzzle record after solving: %+v %v", v, err)
	}
	// The second, by the button again; answered with the move played: wrong.
	l2 := shown(e.say("alice #lobby: click Learn from my mistakes"))
	out = e.say("alice #lobby: select " + l2.Played.String())
	expect(t, out, "Why:", "Puzzle rating")
	// The third through /puzzle mode:mine, then none left.
	l3 := shown(e.say("alice #lobby: /puzzle mode:mine"))
	if l1.ID == l2.ID || l2.ID == l3.ID || l1.ID == l3.ID {
		t.Errorf("a lesson given twice: %d %d %d", l1.ID, l2.ID, l3.ID)
	}
	expect(t, e.say("alice #lobby: /puzzle mode:mine"), "You have no lessons left to try.")
	expect(t, e.say("alice #lobby: /puzzle mode:mine show:me"), "Pick show or mode, not both.")
	expect(t, e.say("alice #lobby: click Learn from my mistakes"), "You have tried every lesson from game #1.")
}
