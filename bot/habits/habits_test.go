package habits

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/habit"
)

type fakeStore struct {
	games []habit.Game
	err   error
	calls int
}

func (f *fakeStore) OpeningGames(_ context.Context, limit int) ([]habit.Game, error) {
	f.calls++
	return f.games[:min(limit, len(f.games))], f.err
}

func line(t *testing.T, s string) []game.Square {
	t.Helper()
	m, err := game.ParseTranscript(s, 8)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The people's moves of the stored games count, beside the named lines;
// the bot's do not.
func TestCountPeopleAndNamedLines(t *testing.T) {
	named, err := Count(context.Background(), &fakeStore{})
	if err != nil || named.Positions() == 0 {
		t.Fatalf("named lines alone: %v", err)
	}
	// 40 people opened a1-side c4 then... : black a person, white the bot.
	var games []habit.Game
	for range 40 {
		games = append(games, habit.Game{Moves: line(t, "c4e3f6e6f5"), Black: true})
	}
	tb, err := Count(context.Background(), &fakeStore{games: games})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := game.NewPosition(8)
	c4 := game.Square{Col: 2, Row: 3}
	if tb.Moves(start)[c4] < 40 {
		t.Errorf("the first moves: %v", tb.Moves(start))
	}
	afterC4, _ := start.Play(c4)
	if got, before := tb.Moves(afterC4), named.Moves(afterC4); len(got) != len(before) || got[game.Square{Col: 4, Row: 2}] != before[game.Square{Col: 4, Row: 2}] {
		t.Errorf("the bot's e3 was counted: %v, named alone %v", got, before)
	}
}

// Refresh counts at once, then once an hour; a failing store keeps the
// old counts and is asked again at the next tick; the engine's erring
// levels open from what was counted.
func TestRefresh(t *testing.T) {
	store := &fakeStore{}
	eng := engine.New(engine.Options{Searches: 1})
	s := New(store, eng, slog.New(slog.NewTextHandler(io.Discard, nil)))
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	s.Refresh(context.Background(), now)
	s.Refresh(context.Background(), now.Add(time.Minute))
	if store.calls != 1 {
		t.Fatalf("%d counts in a minute", store.calls)
	}
	store.err = errors.New("the database is away")
	s.Refresh(context.Background(), now.Add(Every))
	s.Refresh(context.Background(), now.Add(Every+time.Second))
	if store.calls != 3 {
		t.Errorf("after a failure: %d counts, want a try at each tick", store.calls)
	}
	// Where people here open c4 far more than the named lines' f5, the
	// erring levels mostly open c4 too.
	store.err = nil
	for range 1000 {
		store.games = append(store.games, habit.Game{Moves: line(t, "c4"), Black: true})
	}
	s.Refresh(context.Background(), now.Add(2*Every))
	start, _ := game.NewPosition(8)
	rng := rand.New(rand.NewPCG(1, 1))
	c4 := 0
	for range 100 {
		r, err := eng.Move(context.Background(), start, 5, rng)
		if err != nil || start.Check(r.Move) != nil {
			t.Fatal(r, err)
		}
		if r.Move == (game.Square{Col: 2, Row: 3}) {
			c4++
		}
	}
	if c4 < 70 {
		t.Errorf("c4 chosen %d times in 100", c4)
	}
}
