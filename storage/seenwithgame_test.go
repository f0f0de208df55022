package storage

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// An interaction's note on PostgreSQL brings the channel's game back with
// it (seenwithgame.go): the note refuses a copy as FirstSeen does; the
// game handed to the handler's ActiveGame is the one a read gives, taken
// once, for that channel alone, and never after this process wrote the
// game. On SQLite the note is FirstSeen's and nothing rides with it.
func TestFirstSeenInBringsTheGame(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		pg := strings.HasPrefix(database, "postgres")
		s := openAt(t, database, "")
		g := newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
		playRandom(t, s, g, 6, rand.New(rand.NewPCG(5, 8)))
		other := newGame(t, s, "c2", record.Human(alice), record.Bot(1), 8)

		id := 1400000000000000000
		note := func(channel string) (context.Context, *preload) {
			t.Helper()
			id++
			first, with, err := s.FirstSeenIn(ctx, strconv.Itoa(id), channel, t0)
			if err != nil || !first {
				t.Fatalf("a new interaction in %s: first %v, %v", channel, first, err)
			}
			if !pg {
				if with != nil {
					t.Fatal("SQLite preloaded a game")
				}
				return ctx, nil
			}
			if with == nil {
				t.Fatalf("nothing preloaded for %s's active game", channel)
			}
			c := with(ctx)
			return c, c.Value(preloadKey{s}).(*preload)
		}
		fresh := func(channel string) *record.Game {
			t.Helper()
			g, err := s.ActiveGame(ctx, channel)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}

		// The game handed over is the one a read gives, once.
		c, p := note("c1")
		got, err := s.ActiveGame(c, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh("c1"); !reflect.DeepEqual(got, want) {
			t.Fatalf("the preloaded game\n%+v\nis not the one a read gives\n%+v", got, want)
		}
		if pg && got != p.g {
			t.Fatal("the handler's read did not take the preloaded game")
		}
		again, err := s.ActiveGame(c, "c1")
		if err != nil {
			t.Fatal(err)
		}
		if again == got {
			t.Fatal("the preloaded game was handed out twice")
		}

		// A copy of the interaction is refused, by either door.
		if first, with, err := s.FirstSeenIn(ctx, strconv.Itoa(id), "c1", t0); err != nil || first || with != nil {
			t.Fatalf("a copy: first %v, preloaded %v, %v", first, with != nil, err)
		}
		if first, err := s.FirstSeen(ctx, strconv.Itoa(id), t0); err != nil || first {
			t.Fatalf("a copy by FirstSeen: first %v, %v", first, err)
		}

		// Another channel's read is not served the preload, which stays
		// for its own channel.
		c, p = note("c1")
		if o, err := s.ActiveGame(c, "c2"); err != nil || o.ID != other.ID {
			t.Fatalf("c2's read with c1's preload: %v, %v", o, err)
		}
		if got, err := s.ActiveGame(c, "c1"); err != nil || (pg && got != p.g) {
			t.Fatalf("c1's preload was not kept for c1: %v", err)
		}

		// A write of the game by this process discards it.
		c, _ = note("c1")
		g = fresh("c1")
		rules := g.State
		plies, err := rules.Play(rules.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AppendTurn(ctx, g, record.Turn{Plies: plies, At: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.ActiveGame(c, "c1"); err != nil || got.Version != g.Version || got.PlyCount() != g.PlyCount() {
			t.Fatalf("read after this process's write: version %d, %d plies (%v); the write made %d, %d", got.Version, got.PlyCount(), err, g.Version, g.PlyCount())
		}

		// A channel whose game is over, or that this process never read,
		// preloads nothing and is noted all the same.
		res := record.Result{Winner: game.White, Reason: record.EndResign, FinishedAt: t0.Add(2 * time.Hour)}
		if err := s.FinishGame(ctx, fresh("c2"), res, nil); err != nil {
			t.Fatal(err)
		}
		for _, channel := range []string{"c2", "c3"} {
			id++
			first, with, err := s.FirstSeenIn(ctx, strconv.Itoa(id), channel, t0)
			if err != nil || !first || with != nil {
				t.Fatalf("%s: first %v, preloaded %v, %v", channel, first, with != nil, err)
			}
			if first, err := s.FirstSeen(ctx, strconv.Itoa(id), t0); err != nil || first {
				t.Fatalf("%s: the note was not made: first %v, %v", channel, first, err)
			}
		}

		if !pg {
			return
		}
		// Another process's write between the note and the read is what
		// any read races with: the game handed over is the earlier one,
		// and a write made on it is refused as stale.
		b := openAt(t, database, "")
		c, p = note("c1")
		theirs, err := b.ActiveGame(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		plies, err = theirs.State.Play(theirs.State.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AppendTurn(ctx, theirs, record.Turn{Plies: plies, At: t0.Add(3 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		got, err = s.ActiveGame(c, "c1")
		if err != nil || got != p.g {
			t.Fatalf("the preload was not handed over: %v", err)
		}
		plies, err = got.State.Play(got.State.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AppendTurn(ctx, got, record.Turn{Plies: plies, At: t0.Add(3 * time.Hour)}); !errors.Is(err, record.ErrStale) {
			t.Fatalf("a write on the earlier game: %v, want it refused as stale", err)
		}
	})
}
