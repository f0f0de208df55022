package storage

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// On SQLite a channel's active game is kept as a read gives it and
// carried forward by the store's own turns (rowcache.go): after every
// turn the row kept is the row a read gives, field for field, times and
// clocks included; every other write of the game, a refused write and a
// rename end it, so no read ever gives what the database no longer
// holds.
func TestKeptRowIsTheRowARead(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	g := newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
	if _, _, err := s.SetGameMessage(ctx, g.ID, g.Version, "m1"); err != nil {
		t.Fatal(err)
	}
	read := func() *record.Game { // the database's answer, past what is kept
		t.Helper()
		likely, _ := s.states.keptIn("c1")
		g, err := s.oneGame(ctx, `g.channel_id = ? AND g.status = 'active'`, "c1", likely)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	active := func() *record.Game {
		t.Helper()
		g, err := s.ActiveGame(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	same := func(what string) {
		t.Helper()
		kept, ok := s.keptActive("c1")
		if !ok {
			t.Fatalf("%s: nothing kept", what)
		}
		if want := read(); !reflect.DeepEqual(kept, want) {
			t.Fatalf("%s: the row kept\n%+v\nis not the row read\n%+v", what, kept, want)
		}
	}
	ended := func(what string) {
		t.Helper()
		if _, ok := s.keptActive("c1"); ok {
			t.Fatalf("%s: a row is still kept", what)
		}
	}

	at := t0.Add(1234567 * time.Microsecond) // not on a millisecond, as a clock's times are not
	for turn := range 10 {
		g = active()
		if turn >= 2 {
			same("before turn " + string(rune('0'+turn)))
		}
		plies, err := g.State.Play(g.Position().LegalMoves()[0])
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(3*time.Second + 777*time.Microsecond)
		tn := record.Turn{Plies: plies, At: at, Deadline: at.Add(time.Minute + time.Microsecond),
			Left: [2]time.Duration{5*time.Minute - 1500*time.Microsecond, 4*time.Minute + 999*time.Microsecond}}
		if turn%2 == 0 {
			tn.ReplyToken, tn.ReplyExpires, tn.RemindAt, tn.Shows = "tok", at.Add(15*time.Minute), at.Add(50*time.Second), "m1"
		}
		if err := s.AppendTurn(ctx, g, tn); err != nil {
			t.Fatal(err)
		}
		if g.ShownIn != "" && turn%2 != 0 || g.ShownIn == "" && turn%2 == 0 {
			t.Fatalf("turn %d: shown in %q", turn, g.ShownIn)
		}
		if turn >= 1 {
			same("after turn " + string(rune('0'+turn)))
		}
	}

	// Writes other than a turn end the row kept; the read after them
	// gives what they wrote.
	if _, _, err := s.SetGameMessage(ctx, g.ID, g.Version, "m2"); err != nil {
		t.Fatal(err)
	}
	ended("the live message")
	if got := active(); got.MessageID != "m2" {
		t.Fatalf("after the live message's write: message %q", got.MessageID)
	}
	g = active()
	if ok, err := s.MarkReminded(ctx, g); err != nil || !ok {
		t.Fatal(ok, err)
	}
	ended("a reminder")
	if !active().Reminded {
		t.Fatal("the reminder's write is not read")
	}
	g = active()
	if err := s.TakeBack(ctx, g, g.State.PlyCount()-1, record.Turn{At: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	ended("a takeback")
	if got := active(); got.PlyCount() != g.PlyCount() || got.Takebacks != 1 {
		t.Fatalf("after a takeback: %d plies, %d takebacks", got.PlyCount(), got.Takebacks)
	}

	// The live message written between a read and its turn (a write that
	// leaves the version as it is): the turn does not carry the row read
	// before it.
	active()
	g = active()
	if _, _, err := s.SetGameMessage(ctx, g.ID, g.Version, "m3"); err != nil {
		t.Fatal(err)
	}
	plies, _ := g.State.Play(g.Position().LegalMoves()[0])
	if err := s.AppendTurn(ctx, g, record.Turn{Plies: plies, At: at.Add(90 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if got := active(); got.MessageID != "m3" {
		t.Fatalf("a turn after the live message's write shows message %q", got.MessageID)
	}

	// Two reads of one version: the first write wins, the second is
	// refused, and the row read after is the winner's.
	active()
	first, second := active(), active()
	plies, _ = first.State.Play(first.Position().LegalMoves()[0])
	if err := s.AppendTurn(ctx, first, record.Turn{Plies: plies, At: at.Add(2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	plies, _ = second.State.Play(second.Position().LegalMoves()[len(second.Position().LegalMoves())-1])
	if err := s.AppendTurn(ctx, second, record.Turn{Plies: plies, At: at.Add(2 * time.Minute)}); !errors.Is(err, record.ErrStale) {
		t.Fatalf("the second write on one version: %v", err)
	}
	ended("a refused write")
	if got := active(); got.Version != first.Version || !got.Position().Equal(first.Position()) {
		t.Fatalf("after a refused write the read gives version %d, the winner wrote %d", got.Version, first.Version)
	}

	// A rename ends it: alice's new name shows in her game.
	active()
	active()
	renamed := record.Player{ID: alice.ID, Name: "alice the second"}
	newGame(t, s, "c2", record.Human(renamed), record.Bot(1), 8)
	if got := active(); got.Black.Player.Name != renamed.Name {
		t.Fatalf("after a rename the game shows %q", got.Black.Player.Name)
	}

	// A turn made on a read from before a rename carries the names of the
	// read after it.
	active()
	before := active()
	newGame(t, s, "c3", record.Human(record.Player{ID: alice.ID, Name: "alice iii"}), record.Bot(1), 8)
	if got := active(); got.Black.Player.Name != "alice iii" {
		t.Fatalf("after a second rename the game shows %q", got.Black.Player.Name)
	}
	plies, _ = before.State.Play(before.Position().LegalMoves()[0])
	if err := s.AppendTurn(ctx, before, record.Turn{Plies: plies, At: at.Add(3 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	same("a turn read before a rename")

	// A game of a new player (most games made) leaves it.
	newGame(t, s, "c4", record.Human(record.Player{ID: "999", Name: "carol"}), record.Bot(1), 8)
	same("a new player's game made")

	// A finish ends it: the channel has no active game.
	g = active()
	if err := s.FinishGame(ctx, g, record.Result{Winner: game.White, Reason: record.EndResign, FinishedAt: at.Add(time.Hour)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ActiveGame(ctx, "c1"); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("a finished game's channel: %v", err)
	}
}

// Reads racing a player's turns never give a game older than the last
// turn written before the read began, kept or read (run with -race).
func TestKeptRowNeverOlderThanAWrite(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	stamp := func(g *record.Game) int64 { return g.ID<<32 | g.Version } // games' ids rise
	var written atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				before := written.Load()
				g, err := s.ActiveGame(ctx, "c1")
				if errors.Is(err, record.ErrNotFound) {
					continue // between two games
				}
				if err != nil {
					t.Error(err)
					return
				}
				if stamp(g) < before {
					t.Errorf("a read begun after game %d's version %d was written gave version %d of game %d",
						before>>32, before&(1<<32-1), g.Version, g.ID)
					return
				}
			}
		})
	}
	at := t0
	for range 4 {
		newGame(t, s, "c1", record.Human(alice), record.Human(bob), 6)
		for {
			g, err := s.ActiveGame(ctx, "c1")
			if err != nil {
				t.Fatal(err)
			}
			plies, err := g.State.Play(g.Position().LegalMoves()[0])
			if err != nil {
				t.Fatal(err)
			}
			at = at.Add(time.Second)
			tn := record.Turn{Plies: plies, At: at}
			if g.State.Over() {
				tn.End = &record.Result{Winner: game.Black, Reason: record.EndNormal, FinishedAt: at}
			}
			if err := s.AppendTurn(ctx, g, tn); err != nil {
				t.Fatal(err)
			}
			if tn.End != nil {
				break
			}
			written.Store(stamp(g))
		}
	}
	close(done)
	wg.Wait()
}

// A turn written between a read and its keeping ends the row the read
// would keep.
func TestKeptRowNotKeptOverAWrite(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	newGame(t, s, "c1", record.Human(alice), record.Human(bob), 8)
	var wrote *record.Game
	afterRowRead = func() {
		afterRowRead = nil
		likely, _ := s.states.keptIn("c1")
		g, err := s.oneGame(ctx, `g.channel_id = ? AND g.status = 'active'`, "c1", likely)
		if err != nil {
			t.Fatal(err)
		}
		plies, _ := g.State.Play(g.Position().LegalMoves()[0])
		if err := s.AppendTurn(ctx, g, record.Turn{Plies: plies, At: t0.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		wrote = g
	}
	t.Cleanup(func() { afterRowRead = nil })
	if _, err := s.ActiveGame(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if wrote == nil {
		t.Fatal("the write between the read and its keeping did not run")
	}
	got, err := s.ActiveGame(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != wrote.Version || got.PlyCount() != wrote.PlyCount() {
		t.Fatalf("the read after gives version %d (%d plies); the write between made %d (%d)", got.Version, got.PlyCount(), wrote.Version, wrote.PlyCount())
	}
}
