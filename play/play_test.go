package play

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

var (
	t0    = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	alice = record.Player{ID: "1", Name: "alice"}
	bob   = record.Player{ID: "2", Name: "bob"}
)

// flowOn is the flow on a real store in a temporary folder, its clock at
// *now.
func flowOn(t *testing.T, now *time.Time) (*Flow, *storage.Store) {
	t.Helper()
	store, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "bot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return New(store, Config{MoveTimeout: 24 * time.Hour}, func() time.Time { return *now }), store
}

// newGame stores a game between alice (black) and bob in channel c.
func newGame(t *testing.T, f *Flow, store *storage.Store, size int, c timecontrol.Control) *record.Game {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{GuildID: "g", ChannelID: "c", State: game.NewGame(start), Black: record.Human(alice), White: record.Human(bob),
		CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0, Control: c}
	if c.Live() {
		g.Left = [2]time.Duration{c.Base, c.Base}
	}
	tt := f.Timers(g, record.Turn{At: t0, Left: g.Left})
	g.Deadline, g.RemindAt = tt.Deadline, tt.RemindAt
	if err := store.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return g
}

// Each refusal of a move is its own typed error, decided before anything
// is written.
func TestMoveRefusals(t *testing.T) {
	ctx := context.Background()
	now := t0
	f, store := flowOn(t, &now)
	if _, err := f.Move(ctx, Move{ChannelID: "c", Player: alice.ID, Square: "d3", OnPly: -1, At: now}); !errors.Is(err, ErrNoGame) {
		t.Fatalf("no game: %v", err)
	}
	if _, err := f.Move(ctx, Move{ChannelID: "c", Player: alice.ID, Square: "d3", OnGame: 9, At: now}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("a board whose game is gone: %v", err)
	}
	g := newGame(t, f, store, 8, timecontrol.Control{})
	var turn NotYourTurnError
	var illegal IllegalError
	for _, c := range []struct {
		m    Move
		want func(error) bool
	}{
		{Move{Player: "3", Square: "d3", OnPly: -1}, func(err error) bool { return errors.Is(err, ErrNotPlaying) }},
		{Move{Player: bob.ID, Square: "d3", OnPly: -1}, func(err error) bool { return errors.As(err, &turn) && turn.ToMove == game.Black }},
		{Move{Player: alice.ID, Square: " ", OnPly: -1}, func(err error) bool { return errors.Is(err, ErrNoSquare) }},
		{Move{Player: alice.ID, Square: "a1", OnPly: -1}, func(err error) bool { return errors.As(err, &illegal) && len(illegal.Legal) == 4 }},
		{Move{Player: alice.ID, Square: "zz", OnPly: -1}, func(err error) bool { return errors.As(err, &illegal) }},
		{Move{Player: alice.ID, Square: "d3", OnGame: g.ID, OnPly: 3}, func(err error) bool { return errors.Is(err, ErrStaleBoard) }},
	} {
		c.m.ChannelID, c.m.At = "c", now
		if _, err := f.Move(ctx, c.m); !c.want(err) {
			t.Errorf("%+v: %v", c.m, err)
		}
	}
	stored, err := store.Game(ctx, g.ID)
	if err != nil || stored.Version != g.Version || len(stored.Plies()) != 0 {
		t.Fatalf("a refused move wrote: version %d of %d, %d plies (%v)", stored.Version, g.Version, len(stored.Plies()), err)
	}
}

// A move is charged up to when it was made, on the game the caller read
// (no read then); one made after the flag is not played; the move that
// ends the game stores the end with it.
func TestMoves(t *testing.T) {
	ctx := context.Background()
	now := t0
	f, store := flowOn(t, &now)
	g := newGame(t, f, store, 4, timecontrol.Control{Base: time.Minute})
	moved, err := f.Move(ctx, Move{ChannelID: "c", Game: g, Player: alice.ID, Square: g.Position().LegalMoves()[0].String(), OnGame: g.ID, OnPly: 0, At: t0.Add(time.Second)})
	if err != nil || moved.Game != g || len(moved.Plies) != 1 || moved.Ended {
		t.Fatalf("the first move: %+v %v", moved, err)
	}
	// Each side's first move is not timed; bob's second comes 5 s in.
	for _, m := range []struct {
		who record.Player
		at  time.Duration
	}{{bob, 2 * time.Second}, {alice, 3 * time.Second}} {
		cur, _ := store.ActiveGame(ctx, "c")
		if _, err := f.Move(ctx, Move{ChannelID: "c", Player: m.who.ID, Square: cur.Position().LegalMoves()[0].String(), OnPly: -1, At: t0.Add(m.at)}); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := store.ActiveGame(ctx, "c")
	if _, err := f.Move(ctx, Move{ChannelID: "c", Player: bob.ID, Square: cur.Position().LegalMoves()[0].String(), OnPly: -1, At: t0.Add(8 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	cur, _ = store.ActiveGame(ctx, "c")
	if cur.Left[1] != time.Minute-5*time.Second {
		t.Fatalf("bob has %v after a move 5 s into his turn", cur.Left[1])
	}
	// alice's flag falls a minute into her turn: a move after it is not played.
	moved, err = f.Move(ctx, Move{ChannelID: "c", Player: alice.ID, Square: cur.Position().LegalMoves()[0].String(), OnPly: -1, At: t0.Add(69 * time.Second)})
	if !errors.Is(err, ErrTimeUp) || moved.Game == nil || moved.Game.Version != cur.Version {
		t.Fatalf("after the flag: %v", err)
	}
	// Play on in time to the end: the last move ends the game in the same write.
	at := t0.Add(9 * time.Second)
	for {
		cur, err = store.ActiveGame(ctx, "c")
		if err != nil {
			t.Fatalf("the game ended unseen: %v", err)
		}
		who := alice
		if cur.Position().ToMove() == game.White {
			who = bob
		}
		at = at.Add(100 * time.Millisecond)
		moved, err := f.Move(ctx, Move{ChannelID: "c", Player: who.ID, Square: cur.Position().LegalMoves()[0].String(), OnPly: -1, At: at})
		if err != nil {
			t.Fatal(err)
		}
		if moved.Ended {
			g := moved.Game
			if g.Status == record.Active || g.Result == nil || g.Result.Reason != record.EndNormal || !g.Result.FinishedAt.Equal(now) {
				t.Fatalf("the end: status %v result %+v", g.Status, g.Result)
			}
			stored, err := store.Game(ctx, g.ID)
			if err != nil || stored.Status != g.Status || stored.Version != g.Version || len(stored.Plies()) != len(g.Plies()) {
				t.Fatalf("stored: %v", err)
			}
			return
		}
	}
}

// Every way in opens its game here: the sides in the colours chosen (or
// drawn), the clocks started, an XOT start's opening played as the start.
func TestNewGame(t *testing.T) {
	now := t0
	f, _ := flowOn(t, &now)
	blackFirst := Opening{GuildID: "g", ChannelID: "c", Sides: [2]record.Side{record.Human(alice), record.Bot(3)},
		Color: record.Choose(game.White), Size: 6, Control: timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}}
	g, opened, err := f.NewGame(blackFirst)
	if err != nil || opened != nil {
		t.Fatal(err)
	}
	if g.White.IsBot() || g.White.Player.ID != alice.ID || !g.Black.IsBot() || g.Size() != 6 || g.Left != [2]time.Duration{3 * time.Minute, 3 * time.Minute} ||
		!g.TurnStartedAt.Equal(t0) || g.Deadline.IsZero() {
		t.Fatalf("alice chose white: %+v", g)
	}
	drawn := map[bool]int{}
	for range 64 {
		o := blackFirst
		o.Color = record.RandomColor
		g, _, _ := f.NewGame(o)
		drawn[g.Black.IsBot()]++
	}
	if drawn[true] == 0 || drawn[false] == 0 {
		t.Fatalf("64 random draws all alike: %v", drawn)
	}
	x := blackFirst
	x.Size, x.XOT = 8, true
	g, opened, err = f.NewGame(x)
	if err != nil || opened == nil || len(g.Opening) != 8 || len(g.Plies()) != 0 || g.Position().Empties() != 60-8 {
		t.Fatalf("an XOT start: %v, opening %v, %d plies, %d empties", err, opened, len(g.Plies()), g.Position().Empties())
	}
	if _, _, err := f.NewGame(Opening{Size: 5}); err == nil {
		t.Fatal("a 5x5 board opened")
	}
}

// A takeback against the bot undoes the player's last move and the bot's
// reply in one write, and starts the player's wait again; between members,
// rated or on a clock it is refused.
func TestTakeBack(t *testing.T) {
	ctx := context.Background()
	now := t0
	f, store := flowOn(t, &now)
	f.cfg.AbandonAfter = time.Hour
	start, _ := game.NewPosition(8)
	g := &record.Game{GuildID: "g", ChannelID: "c", State: game.NewGame(start), Black: record.Human(alice), White: record.Bot(1),
		CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0}
	if err := store.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Move(ctx, Move{ChannelID: "c", Game: g, Player: alice.ID, Square: "d3", OnPly: -1, At: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.TakeBack(ctx, g, alice.ID); !errors.Is(err, ErrBotThinking) {
		t.Fatalf("while the bot is to move: %v", err)
	}
	reply, err := g.State.Play(g.Position().LegalMoves()[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Turn(ctx, g, record.Turn{Plies: reply, At: t0.Add(time.Second)}, ""); err != nil {
		t.Fatal(err)
	}
	now = t0.Add(time.Minute)
	if _, err := f.TakeBack(ctx, g, bob.ID); !errors.Is(err, ErrNotPlaying) {
		t.Fatalf("a stranger's takeback: %v", err)
	}
	taken, err := f.TakeBack(ctx, g, alice.ID)
	if err != nil || len(taken) != 2 || taken[0].Square.String() != "d3" {
		t.Fatalf("taken %v, %v", taken, err)
	}
	stored, err := store.ActiveGame(ctx, "c")
	if err != nil || len(stored.Plies()) != 0 || !stored.Deadline.Equal(now.Add(time.Hour)) {
		t.Fatalf("stored after the takeback: %v plies, deadline %v (%v)", len(stored.Plies()), stored.Deadline, err)
	}
	if _, err := f.TakeBack(ctx, stored, alice.ID); !errors.Is(err, ErrNothingToTake) {
		t.Fatalf("nothing left to take back: %v", err)
	}
	for _, c := range []struct {
		change func(*record.Game)
		want   error
	}{
		{func(g *record.Game) { g.White = record.Human(bob) }, ErrBetweenMembers},
		{func(g *record.Game) { g.Rated = true }, ErrRated},
		{func(g *record.Game) { g.Control = timecontrol.Control{Base: time.Minute} }, ErrOnClock},
	} {
		other := stored.Clone()
		c.change(other)
		if _, err := f.TakeBack(ctx, other, alice.ID); !errors.Is(err, c.want) {
			t.Errorf("want %v, got %v", c.want, err)
		}
	}
}

// A move whose reply is played at once (Move.Reply: an instant level) is
// stored with the reply in one write, to the end of the game: each pair is
// one version (the last, with the end, in the same transaction), and the
// reply's plies are the stored game's.
func TestMoveWithTheReplyInOneWrite(t *testing.T) {
	ctx := context.Background()
	now := t0
	f, store := flowOn(t, &now)
	vsBot(t, store, 4, timecontrol.Control{})
	// The bot plays its first legal move, passes included.
	reply := func(_ context.Context, g *record.Game) ([]game.Ply, error) {
		var out []game.Ply
		for !g.State.Over() && g.ToMove().IsBot() {
			plies, err := g.State.Play(g.Position().LegalMoves()[0])
			if err != nil {
				return out, err
			}
			out = append(out, plies...)
		}
		return out, nil
	}
	for {
		cur, err := store.ActiveGame(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		moves := cur.Position().LegalMoves()
		moved, err := f.Move(ctx, Move{ChannelID: "c", Player: alice.ID, Square: moves[len(moves)-1].String(), OnPly: -1, At: now, Reply: reply})
		if err != nil {
			t.Fatal(err)
		}
		if !moved.Ended && moved.Game.Version != cur.Version+1 { // (the end is a second update in the same transaction)
			t.Fatalf("a move and its reply took %d writes (ended %v, plies %v, replies %v)", moved.Game.Version-cur.Version, moved.Ended, moved.Plies, moved.Replies)
		}
		stored, err := store.Game(ctx, cur.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(cur.Plies()) + len(moved.Plies) + len(moved.Replies); len(stored.Plies()) != want || len(moved.Replies) == 0 && !moved.Ended {
			t.Fatalf("stored %d plies, want %d; replies %v", len(stored.Plies()), want, moved.Replies)
		}
		if moved.Ended {
			if stored.Status == record.Active || !stored.Position().Equal(moved.Game.Position()) {
				t.Fatalf("the end: %v", stored.Status)
			}
			return
		}
		if stored.Position().ToMove() != game.Black {
			t.Fatalf("after the reply %v is to move", stored.Position().ToMove())
		}
	}
}

// On a clock the instant reply joins the move's write too, the bot charged
// the time its answer took (and given its increment), the player's next
// turn starting when the answer came.
func TestInstantReplyOnAClock(t *testing.T) {
	ctx := context.Background()
	now := t0
	f, store := flowOn(t, &now)
	c := timecontrol.Control{Base: time.Minute, Increment: 2 * time.Second}
	vsBot(t, store, 8, c)
	reply := func(_ context.Context, g *record.Game) ([]game.Ply, error) {
		now = now.Add(300 * time.Millisecond) // the answer takes 300 ms
		return g.State.Play(g.Position().LegalMoves()[0])
	}
	at := t0
	for round := range 3 {
		cur, err := store.ActiveGame(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(5 * time.Second) // alice thinks 5 s
		now = at
		moved, err := f.Move(ctx, Move{ChannelID: "c", Player: alice.ID, Square: cur.Position().LegalMoves()[0].String(), OnPly: -1, At: at, Reply: reply})
		if err != nil || len(moved.Replies) != 1 || moved.Game.Version != cur.Version+1 {
			t.Fatalf("round %d: %+v %v", round, moved, err)
		}
		stored, err := store.Game(ctx, cur.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !stored.TurnStartedAt.Equal(at.Add(300 * time.Millisecond)) {
			t.Errorf("round %d: alice's turn starts at %v, want the answer's time", round, stored.TurnStartedAt.Sub(t0))
		}
		if round > 0 { // each side's first move is untimed
			if want := cur.Left[0] - 5*time.Second + c.Increment; stored.Left[0] != want {
				t.Errorf("round %d: alice has %v, want %v", round, stored.Left[0], want)
			}
			if want := cur.Left[1] - 300*time.Millisecond + c.Increment; stored.Left[1] != want {
				t.Errorf("round %d: the bot has %v, want %v", round, stored.Left[1], want)
			}
		}
		at = at.Add(300 * time.Millisecond)
	}
}

// vsBot stores a game of alice (black) against level 1 in channel c.
func vsBot(t *testing.T, store *storage.Store, size int, c timecontrol.Control) {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{GuildID: "g", ChannelID: "c", State: game.NewGame(start), Black: record.Human(alice), White: record.Bot(1),
		CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0, Control: c}
	if c.Live() {
		g.Left = [2]time.Duration{c.Base, c.Base}
	}
	if err := store.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}
