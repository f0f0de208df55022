package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"othello-bot/internal/pgtest"
	"othello-bot/record"
)

// Two stores on one database stand for two processes (or, on SQLite, a
// writer outside this store): each keeps the games it read, and neither
// may serve a version the other moved past.
func TestStateCacheNeverServesAnOldVersion(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		dir := t.TempDir()
		a := openAt(t, database, filepath.Join(dir, "a.log"))
		b := openAt(t, database, filepath.Join(dir, "b.log"))
		rng := rand.New(rand.NewPCG(5, 6))
		g := newGame(t, a, "chan1", record.Human(alice), record.Human(bob), 8)
		playRandom(t, a, g, 10, rng)

		load := func(s *Store) *record.Game {
			t.Helper()
			got, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		same := func(what string, got, want *record.Game) {
			t.Helper()
			if got.Version != want.Version || !got.Position().Equal(want.Position()) || !slices.Equal(got.Plies(), want.Plies()) {
				t.Fatalf("%s: version %d, %d plies; want version %d, %d plies", what, got.Version, len(got.Plies()), want.Version, len(want.Plies()))
			}
		}
		same("a's load after its own writes", load(a), g)

		// A loaded game moved on without storing must not move the kept one.
		scratch := load(a)
		if _, err := scratch.State.Play(scratch.Position().LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
		same("a's load after a copy was played on", load(a), g)

		// b moves the game on; a, holding the old version, must see b's.
		other := load(b)
		playRandom(t, b, other, 3, rng)
		same("a's load after b's turns", load(a), other)

		// b takes two plies back: the version moves on, the moves shrink.
		at := t0.Add(time.Hour)
		if err := b.TakeBack(ctx, other, len(other.Plies())-2, record.Turn{At: at, Deadline: at.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		same("a's load after b's takeback", load(a), other)

		// a's stale copy is refused, and what a loads then is b's game.
		stale := load(b)
		playRandom(t, b, load(b), 1, rng)
		plies, err := stale.State.Play(stale.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := a.AppendTurn(ctx, stale, record.Turn{Plies: plies, At: at}); !errors.Is(err, record.ErrStale) {
			t.Fatalf("a stale turn: %v, want ErrStale", err)
		}
		same("a's load after its stale turn was refused", load(a), load(b))
	})
}

// The kept state is what spares a load its moves: with the moves' rows
// gone behind the store's back (the version and position unchanged, as no
// write of the store's ever leaves them), a store that kept the game still
// loads it, and one that did not says the moves do not replay.
func TestStateCacheSparesTheMovesRead(t *testing.T) {
	ctx := context.Background()
	s, dir := openTemp(t)
	g := newGame(t, s, "chan1", record.Human(alice), record.Human(bob), 8)
	playRandom(t, s, g, 6, rand.New(rand.NewPCG(7, 8)))
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ?`, g.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil || len(got.Plies()) != len(g.Plies()) {
		t.Fatalf("kept game: %v, %d plies; want %d", err, len(got.Plies()), len(g.Plies()))
	}
	cold := openAt(t, filepath.Join(dir, "bot.db"), filepath.Join(dir, "cold.log"))
	if _, err := cold.Game(ctx, g.ID); err == nil {
		t.Fatal("a store that never read the game loaded it without its moves")
	}
}

// On PostgreSQL a load reads a game's row and the moves after those its
// store keeps in one statement: with the kept plies' rows spoilt behind
// both stores' backs (each a pass), a store that kept the game before another moved it
// on still loads it — by id and by its channel — while one that kept
// nothing says its moves do not replay.
func TestLoadReadsOnlyTheMovesNotKept(t *testing.T) {
	ctx := context.Background()
	database, dir := pgtest.Database(t), t.TempDir()
	a := openAt(t, database, filepath.Join(dir, "a.log"))
	b := openAt(t, database, filepath.Join(dir, "b.log"))
	rng := rand.New(rand.NewPCG(9, 10))
	g := newGame(t, a, "chan1", record.Human(alice), record.Human(bob), 8)
	playRandom(t, a, g, 6, rng)
	kept := len(g.Plies())
	other, err := b.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	playRandom(t, b, other, 3, rng)
	if _, err := a.wdb.ExecContext(ctx, `UPDATE moves SET square = 'pass' WHERE game_id = ? AND ply <= ?`, g.ID, kept); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func() (*record.Game, error){
		"by id":      func() (*record.Game, error) { return a.Game(ctx, g.ID) },
		"by channel": func() (*record.Game, error) { return a.ActiveGame(ctx, "chan1") },
	} {
		got, err := load()
		if err != nil || !slices.Equal(got.Plies(), other.Plies()) || got.Version != other.Version {
			t.Fatalf("a's load %s: %v; want b's %d plies at version %d", name, err, len(other.Plies()), other.Version)
		}
	}
	cold := openAt(t, database, filepath.Join(dir, "cold.log"))
	if _, err := cold.Game(ctx, g.ID); err == nil {
		t.Fatal("a store that never read the game loaded it from spoilt moves")
	}
}
