package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
)

// Lessons on each backend: made once per game and player whoever tries,
// kept with their right answers and reasons, given to their owner alone —
// never picked as anyone's puzzle or the day's — and a public puzzle of
// the same position stands beside a lesson of it.
func TestLessonStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		g := newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
		finish(t, s, g, record.EndResign)

		if ls, made, err := s.Lessons(ctx, g.ID, alice.ID); err != nil || made || len(ls) != 0 {
			t.Fatalf("before: %v %v %v", ls, made, err)
		}
		lesson := func(ply int) record.PuzzleRecord {
			p := samplePuzzle(t, ply)
			p.Line = p.Line[:1]
			p.Also, _ = game.ParseTranscript("e3", 8)
			r := puzzle.Rated(p)
			r.Why = "corner:a1 discs:7:0"
			return r
		}
		var wins int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.SaveLessons(ctx, "guild1", g.ID, alice.ID, []record.PuzzleRecord{lesson(12), lesson(8)}, t0)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d saves of one game's lessons won", wins)
		}
		ls, made, err := s.Lessons(ctx, g.ID, alice.ID)
		if err != nil || !made || len(ls) != 2 || ls[0].Ply != 8 || ls[1].Ply != 12 {
			t.Fatalf("lessons: %+v %v %v", ls, made, err)
		}
		if l := ls[0]; l.Owner != alice.ID || l.Why != "corner:a1 discs:7:0" || len(l.Also) != 1 || l.Also[0].String() != "e3" || len(l.Line) != 1 || l.GameID != g.ID {
			t.Errorf("a lesson came back as %+v", l)
		}
		// Made with none: made, and empty.
		if ok, err := s.SaveLessons(ctx, "guild1", g.ID, bob.ID, nil, t0); err != nil || !ok {
			t.Fatalf("none found: %v %v", ok, err)
		}
		if ls, made, err := s.Lessons(ctx, g.ID, bob.ID); err != nil || !made || len(ls) != 0 {
			t.Errorf("bob's: %v %v %v", ls, made, err)
		}
		// A public puzzle of the same position beside it.
		if ok, err := s.SavePuzzles(ctx, "guild1", g.ID, []puzzle.Record{puzzle.Rated(samplePuzzle(t, 8))}, t0); err != nil || !ok {
			t.Fatalf("the public puzzle: %v %v", ok, err)
		}
		// Nobody else is given a lesson; alice's public pick is the public one.
		if p, err := s.PickPuzzle(ctx, "guild1", bob.ID, 1500); err != nil || p.Owner != "" {
			t.Errorf("bob's pick: %+v %v", p, err)
		}
		if n, _ := s.PuzzleCount(ctx, "guild1"); n != 1 {
			t.Errorf("the server counts %d puzzles, lessons included", n)
		}
		if p, err := s.DailyCandidate(ctx, "guild1"); err != nil || p.Owner != "" {
			t.Errorf("the day's: %+v %v", p, err)
		}
		// Alice's next lessons, each once tried.
		for i, want := range []int{8, 12} {
			l, err := s.NextLesson(ctx, alice.ID)
			if err != nil || l.Ply != want {
				t.Fatalf("next lesson %d: %+v %v", i, l, err)
			}
			if _, err := s.StartTry(ctx, alice, "guild1", l.ID, "", t0); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.NextLesson(ctx, alice.ID); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("after both: %v", err)
		}
		if _, err := s.NextLesson(ctx, bob.ID); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("bob has none: %v", err)
		}
	})
}

// The games opening habits are counted from, on each backend: finished 8x8
// games from the standard start, who were people, newest first; aborted
// games and other starts left out.
func TestOpeningGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		rng := rand.New(rand.NewPCG(4, 4))
		vsBot := newGame(t, s, "c1", record.Human(alice), record.Bot(5), 8)
		playRandom(t, s, vsBot, 10, rng)
		finish(t, s, vsBot, record.EndResign)
		aborted := newGame(t, s, "c2", record.Human(alice), record.Human(bob), 8)
		finish(t, s, aborted, record.EndAbort)
		small := newGame(t, s, "c3", record.Human(alice), record.Human(bob), 6)
		finish(t, s, small, record.EndResign)
		games, err := s.OpeningGames(ctx, 10)
		if err != nil || len(games) != 1 {
			t.Fatalf("opening games: %+v %v", games, err)
		}
		if g := games[0]; !g.Black || g.White || len(g.Moves) != 10 {
			t.Errorf("the game vs the bot: %+v", g)
		}
	})
}
