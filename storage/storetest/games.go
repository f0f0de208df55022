package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// RunGames runs the game store's contract against stores open makes, a
// new empty one for each part.
func RunGames(t *testing.T, open func(t *testing.T) Games) {
	ctx := context.Background()
	create := created

	t.Run("create and load", func(t *testing.T) {
		s := open(t)
		if _, err := s.Game(ctx, 424242); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("an unknown game: %v, want record.ErrNotFound", err)
		}
		if _, err := s.ActiveGame(ctx, "c1"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("an empty channel's game: %v, want record.ErrNotFound", err)
		}
		g := create(t, s, "c1", record.Human(Ann), record.Bot(3))
		if g.ID == 0 || g.Version == 0 {
			t.Fatalf("CreateGame set id %d, version %d", g.ID, g.Version)
		}
		got, err := s.ActiveGame(ctx, "c1")
		if err != nil || got.ID != g.ID || got.Version != g.Version || got.Status != record.Active || got.Black.Player != Ann ||
			got.White.Level != 3 || got.Size() != 6 {
			t.Fatalf("the channel's game: %+v %v", got, err)
		}
		if err := s.CreateGame(ctx, NewGame(t, "c1", record.Human(Ben), record.Bot(1), 6)); !errors.Is(err, record.ErrChannelBusy) {
			t.Errorf("a second game in the channel: %v, want record.ErrChannelBusy", err)
		}
		// A number handed out early is its game's, whatever is created
		// meanwhile.
		reserved, err := s.ReserveGameID(ctx)
		if err != nil || reserved <= g.ID {
			t.Fatalf("reserved %d (%v) after game %d", reserved, err, g.ID)
		}
		between := create(t, s, "c2", record.Human(Ben), record.Bot(2))
		late := NewGame(t, "c3", record.Human(Cat), record.Bot(1), 6)
		late.ID = reserved
		if err := s.CreateGame(ctx, late); err != nil || late.ID != reserved || between.ID == reserved {
			t.Fatalf("reserved #%d, created #%d (%v), the one between #%d", reserved, late.ID, err, between.ID)
		}
		if all, err := s.ActiveGames(ctx); err != nil || len(all) != 3 {
			t.Errorf("active games: %d %v", len(all), err)
		}
	})

	t.Run("stalled games: the bot to move, or no one can, untouched since", func(t *testing.T) { runStalled(t, open(t)) })
	t.Run("refused moves write no ply", func(t *testing.T) { runRefusedMoves(t, open(t)) })

	t.Run("an XOT opening is kept as the start", func(t *testing.T) {
		s := open(t)
		g := NewGame(t, "c1", record.Human(Ann), record.Human(Ben), 8)
		opening, err := game.ParseTranscript("f5d6c3d3c4f4f6f3", 8)
		if err != nil {
			t.Fatal(err)
		}
		opened, err := game.Replay(g.State.Start(), opening)
		if err != nil {
			t.Fatal(err)
		}
		g.State, g.Opening = game.NewGame(opened.Position()), opening
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil || !slices.Equal(got.Opening, opening) || !got.State.Start().Equal(opened.Position()) || len(got.Plies()) != 0 {
			t.Fatalf("loaded: opening %v, %d plies (%v)", got.Opening, len(got.Plies()), err)
		}
	})

	t.Run("turns are versioned", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		stale := *g
		v := g.Version
		if err := Play(t, s, g, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if g.Version <= v || !g.UpdatedAt.Equal(T0.Add(time.Minute)) || !g.Deadline.Equal(T0.Add(time.Minute+24*time.Hour)) {
			t.Errorf("after a turn: version %d (was %d), updated %v, deadline %v", g.Version, v, g.UpdatedAt, g.Deadline)
		}
		stored, _ := s.Game(ctx, g.ID)
		sb, sw := stored.Position().Count()
		gb, gw := g.Position().Count()
		if stored.Version != g.Version || len(stored.Plies()) != 1 || sb != gb || sw != gw || stored.Position().ToMove() != g.Position().ToMove() {
			t.Errorf("stored: version %d, %d plies; want %d, 1", stored.Version, len(stored.Plies()), g.Version)
		}
		stale.State = stored.State // the same move, from the version before
		if err := s.AppendTurn(ctx, &stale, record.Turn{At: T0.Add(2 * time.Minute)}); !errors.Is(err, record.ErrStale) {
			t.Errorf("a turn from an old version: %v, want record.ErrStale", err)
		}
	})

	t.Run("a turn restarted", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		if err := Play(t, s, g, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		stale := *g
		plies, updated := len(g.Plies()), g.UpdatedAt
		at := T0.Add(time.Hour)
		left := [2]time.Duration{37 * time.Second, 56 * time.Second}
		turn := record.Turn{At: at, Deadline: at.Add(24 * time.Hour), RemindAt: at.Add(23 * time.Hour), Left: left}
		if err := s.RestartTurn(ctx, g, turn); err != nil {
			t.Fatal(err)
		}
		stored, _ := s.Game(ctx, g.ID)
		for _, x := range []*record.Game{g, stored} {
			if !x.TurnStartedAt.Equal(at) || !x.Deadline.Equal(turn.Deadline) || !x.RemindAt.Equal(turn.RemindAt) ||
				len(x.Plies()) != plies || x.Left != left || !x.UpdatedAt.Equal(updated) || x.Version != stale.Version+1 {
				t.Errorf("after a restarted turn: starts %v, due %v, remind %v, %d plies, left %v, updated %v, version %d",
					x.TurnStartedAt, x.Deadline, x.RemindAt, len(x.Plies()), x.Left, x.UpdatedAt, x.Version)
			}
		}
		if err := s.RestartTurn(ctx, &stale, turn); !errors.Is(err, record.ErrStale) {
			t.Errorf("a restart from an old version: %v, want record.ErrStale", err)
		}
	})

	t.Run("takeback", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "c1", record.Human(Ann), record.Bot(2))
		for i := 1; i <= 3; i++ {
			if err := Play(t, s, g, T0.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		stale := *g
		if err := s.TakeBack(ctx, g, 1, record.Turn{At: T0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		stored, _ := s.Game(ctx, g.ID)
		if len(stored.Plies()) != 1 || stored.Takebacks != 1 || stored.Version != g.Version || len(g.Plies()) != 1 {
			t.Errorf("after a takeback: %d plies, %d takebacks, version %d (the caller's %d)", len(stored.Plies()),
				stored.Takebacks, stored.Version, g.Version)
		}
		if err := s.TakeBack(ctx, &stale, 0, record.Turn{At: T0.Add(time.Hour)}); !errors.Is(err, record.ErrStale) {
			t.Errorf("a takeback from an old version: %v, want record.ErrStale", err)
		}
	})

	t.Run("finish", func(t *testing.T) {
		s := open(t)
		won := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		if err := Play(t, s, won, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		stale := *won
		r := record.Result{FinishedAt: T0.Add(time.Hour), Reason: record.EndResign, Winner: won.State.Position().ToMove()}
		if err := s.FinishGame(ctx, won, r, nil); err != nil {
			t.Fatal(err)
		}
		if won.Status != record.Finished || won.Result == nil || won.Result.GameID != won.ID {
			t.Errorf("the finished game: status %q, result %+v", won.Status, won.Result)
		}
		if _, err := s.ActiveGame(ctx, "c1"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("the channel's game after it ended: %v, want record.ErrNotFound", err)
		}
		if err := s.FinishGame(ctx, &stale, r, nil); !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
			t.Errorf("finished twice: %v", err)
		}
		fresh, _ := s.Game(ctx, won.ID)
		if err := Play(t, s, fresh, T0.Add(2*time.Hour)); !errors.Is(err, record.ErrNotActive) {
			t.Errorf("a turn after the end: %v, want record.ErrNotActive", err)
		}
		aborted := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		if err := s.FinishGame(ctx, aborted, record.Result{FinishedAt: T0.Add(time.Hour), Reason: record.EndAbort}, nil); err != nil {
			t.Fatal(err)
		}
		if stored, _ := s.Game(ctx, aborted.ID); stored.Status != record.Aborted || aborted.Status != record.Aborted {
			t.Errorf("an aborted game is %q (the caller's %q)", stored.Status, aborted.Status)
		}
		home, err := s.LatestHome(ctx, "c1")
		if err != nil || home.GameID != aborted.ID {
			t.Errorf("the channel's newest game: %+v %v", home, err)
		}
		if _, err := s.LatestHome(ctx, "nowhere"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("an unknown channel's home: %v, want record.ErrNotFound", err)
		}
	})

	t.Run("running games", func(t *testing.T) {
		s := open(t)
		first := create(t, s, "c1", record.Human(Ann), record.Bot(3))
		create(t, s, "c2", record.Human(Ann), record.Human(Ben))
		other := NewGame(t, "c3", record.Human(Ben), record.Bot(1), 6)
		other.GuildID = "g2"
		if err := s.CreateGame(ctx, other); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ActiveGameCount(ctx, Ann.ID); err != nil || n != 2 {
			t.Errorf("ann plays %d (%v), want 2", n, err)
		}
		if n, _ := s.ActiveGameCount(ctx, Ben.ID); n != 2 {
			t.Errorf("ben plays %d, want 2", n)
		}
		if all, err := s.RunningGames(ctx, "g1", "", 10); err != nil || len(all) != 2 {
			t.Errorf("g1's running games: %d %v", len(all), err)
		}
		if one, _ := s.RunningGames(ctx, "g1", "", 1); len(one) != 1 || one[0].ID != first.ID {
			t.Errorf("g1's oldest running game: %+v", one)
		}
		if bens, _ := s.RunningGames(ctx, "g1", Ben.ID, 10); len(bens) != 1 || bens[0].ChannelID != "c2" {
			t.Errorf("ben's running games in g1: %+v", bens)
		}
		if _, _, err := s.ActiveTournamentGame(ctx, Ann.ID); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("ann's tournament game: %v, want record.ErrNotFound", err)
		}
	})

	t.Run("timers", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		if err := Play(t, s, g, T0); err != nil { // deadline T0+24h
			t.Fatal(err)
		}
		if due, err := s.DueGames(ctx, T0.Add(22*time.Hour), time.Hour); err != nil || len(due) != 0 {
			t.Errorf("due two hours before the deadline: %d %v", len(due), err)
		}
		due, err := s.DueGames(ctx, T0.Add(23*time.Hour), time.Hour)
		if err != nil || len(due) != 1 || due[0].ID != g.ID {
			t.Fatalf("due at the reminder: %+v %v", due, err)
		}
		if ok, err := s.MarkReminded(ctx, due[0]); !ok || err != nil {
			t.Errorf("reminded: %v %v", ok, err)
		}
		if ok, _ := s.MarkReminded(ctx, due[0]); ok {
			t.Error("reminded twice")
		}
		if stored, _ := s.Game(ctx, g.ID); !stored.Reminded {
			t.Error("the reminder is not noted")
		}
		if due, _ := s.DueGames(ctx, T0.Add(24*time.Hour), time.Hour); len(due) != 1 {
			t.Errorf("due at the deadline, reminded or not: %d", len(due))
		}
	})

	t.Run("live message", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "c1", record.Human(Ann), record.Bot(3))
		if prev, live, err := s.SetGameMessage(ctx, g.ID, g.Version, "m2"); err != nil || !live || prev != "" {
			t.Errorf("the first message: %q %v %v", prev, live, err)
		}
		if prev, live, _ := s.SetGameMessage(ctx, g.ID, g.Version-1, "m1"); live || prev != "" {
			t.Errorf("an older version's message: %q %v", prev, live)
		}
		if prev, live, _ := s.SetGameMessage(ctx, g.ID, g.Version+1, "m3"); !live || prev != "m2" {
			t.Errorf("a newer version's message: %q %v", prev, live)
		}
	})

	t.Run("a turn through the live message records it", func(t *testing.T) {
		s := open(t)
		created := create(t, s, "c1", record.Human(Ann), record.Human(Ben))
		if _, live, err := s.SetGameMessage(ctx, created.ID, created.Version, "m1"); err != nil || !live {
			t.Fatalf("the first message: %v %v", live, err)
		}
		g, err := s.Game(ctx, created.ID) // as a move reads it: m1 live
		if err != nil {
			t.Fatal(err)
		}
		turn := func(shows string) {
			t.Helper()
			moves := g.State.Position().LegalMoves()
			plies, err := g.State.Play(moves[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AppendTurn(ctx, g, record.Turn{Plies: plies, At: T0.Add(time.Minute), Shows: shows}); err != nil {
				t.Fatal(err)
			}
		}
		v0 := g.Version
		turn("m1") // made on m1's menu, which its answer edits
		if g.ShownIn != "m1" {
			t.Errorf("shown in %q after a turn through m1", g.ShownIn)
		}
		// m1 now shows v0+1 as recorded: a message of v0 posted after
		// (a /board answered before the move) never becomes live.
		if prev, live, _ := s.SetGameMessage(ctx, g.ID, v0, "m0"); live || prev != "" {
			t.Errorf("a message of the version before the turn became live: %q %v", prev, live)
		}
		turn("m7") // not the live message: records nothing
		if g.ShownIn != "" {
			t.Errorf("shown in %q after a turn through another message", g.ShownIn)
		}
		if prev, live, _ := s.SetGameMessage(ctx, g.ID, v0+1, "m2"); !live || prev != "m1" {
			t.Errorf("a message of the version m1 was recorded at: %q %v, want live after m1", prev, live)
		}
	})

	t.Run("archives", func(t *testing.T) {
		s := open(t)
		g := create(t, s, "thread-1", record.Human(Ann), record.Bot(3))
		archive := T0.Add(2 * time.Hour)
		if err := s.FinishGame(ctx, g, record.Result{FinishedAt: T0.Add(time.Hour), Reason: record.EndResign,
			Winner: g.State.Position().ToMove(), ArchiveAt: archive}, nil); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueArchives(ctx, archive.Add(-time.Second)); len(due) != 0 {
			t.Errorf("due before its time: %v", due)
		}
		due, err := s.DueArchives(ctx, archive)
		if err != nil || len(due) != 1 || due[0] != (record.ThreadToArchive{GameID: g.ID, ThreadID: "thread-1"}) {
			t.Fatalf("due archives: %v %v", due, err)
		}
		until := archive.Add(time.Minute)
		if ok, err := s.ClaimArchive(ctx, g.ID, archive, until); !ok || err != nil {
			t.Errorf("the first claim: %v %v", ok, err)
		}
		if ok, _ := s.ClaimArchive(ctx, g.ID, archive, until); ok {
			t.Error("claimed twice")
		}
		if due, _ := s.DueArchives(ctx, archive); len(due) != 0 {
			t.Errorf("due after its claim: %v", due)
		}
		// A claimer that stopped before archiving: due again at until.
		if due, _ := s.DueArchives(ctx, until); len(due) != 1 {
			t.Fatalf("due once its claim lapsed: %v", due)
		}
		if ok, err := s.ClaimArchive(ctx, g.ID, until, until.Add(time.Minute)); !ok || err != nil {
			t.Fatalf("claimed again after the lapse: %v %v", ok, err)
		}
		if err := s.ArchiveDone(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueArchives(ctx, until.Add(time.Hour)); len(due) != 0 {
			t.Errorf("due after it was archived: %v", due)
		}
	})
}
