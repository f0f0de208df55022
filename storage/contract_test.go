package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/internal/pgtest"
	"othello-bot/record"
	"othello-bot/storm"
)

// The rest of the store, on each backend: what storetest's contract of
// the core's stores (storetest_test.go) does not cover.
func TestStoreContract(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		rng := rand.New(rand.NewPCG(9, 9))

		// Running games, counts, homes, public ids.
		g1 := newGame(t, s, "thread-1", record.Human(alice), record.Bot(3), 8)
		g2 := newGame(t, s, "thread-2", record.Human(alice), record.Human(bob), 6)
		playRandom(t, s, g2, 4, rng)
		if n, err := s.ActiveGameCount(ctx, alice.ID); err != nil || n != 2 {
			t.Errorf("alice's running games: %d %v", n, err)
		}
		if n, _ := s.ActiveGameCount(ctx, bob.ID); n != 1 {
			t.Errorf("bob's running games: %d", n)
		}
		running, err := s.RunningGames(ctx, "guild1", bob.ID, 10)
		if err != nil || len(running) != 1 || running[0].ID != g2.ID || len(running[0].Plies()) != len(g2.Plies()) {
			t.Errorf("bob's running games: %v %v", running, err)
		}
		if all, _ := s.RunningGames(ctx, "guild1", "", 1); len(all) != 1 || all[0].ID != g1.ID {
			t.Errorf("first running game of the server: %v", all)
		}
		if all, _ := s.ActiveGames(ctx); len(all) != 2 {
			t.Errorf("active games: %d", len(all))
		}
		home, err := s.LatestHome(ctx, "thread-2")
		if err != nil || home.GameID != g2.ID || home.Status != record.Active {
			t.Errorf("home of thread-2: %+v %v", home, err)
		}
		if _, err := s.LatestHome(ctx, "nowhere"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("home of an unknown channel: %v", err)
		}
		byPublic, err := s.GameByPublicID(ctx, g2.PublicID)
		if err != nil || byPublic.ID != g2.ID {
			t.Errorf("game by public id: %v %v", byPublic, err)
		}
		versions, err := s.GameVersions(ctx, []string{g2.PublicID, "nope", g1.PublicID})
		if err != nil || len(versions) != 2 || versions[0].Version+versions[1].Version != g1.Version+g2.Version {
			t.Errorf("games' versions: %+v %v", versions, err)
		}
		many := make([]string, 1200) // more than one query's worth
		for i := range many {
			many[i] = fmt.Sprint("x", i)
		}
		if versions, err := s.GameVersions(ctx, append(many, g2.PublicID)); err != nil || len(versions) != 1 || versions[0].Version != g2.Version {
			t.Errorf("a version among 1,200 unknown ids: %+v %v", versions, err)
		}

		// Finished, for the history and the results lines.
		playRandom(t, s, g1, 200, rng)
		b, w := g1.Position().Count()
		archive := t0.Add(2 * time.Hour)
		if err := s.FinishGame(ctx, g1, record.Result{FinishedAt: t0.Add(time.Hour), BlackDiscs: b, WhiteDiscs: w,
			Winner: g1.Position().Winner(), Reason: record.EndNormal, ArchiveAt: archive}, nil); err != nil {
			t.Fatal(err)
		}
		// History and the record against the bot.
		hist, err := s.History(ctx, alice.ID, 10)
		if err != nil || len(hist) != 1 || hist[0].GameID != g1.ID || hist[0].Opponent.Level != 3 {
			t.Errorf("history: %+v %v", hist, err)
		}
		rec, err := s.RecordAgainstBot(ctx, alice.ID)
		if err != nil || len(rec) != 1 || rec[0].Level != 3 || rec[0].Wins+rec[0].Losses+rec[0].Draws != 1 {
			t.Errorf("record against the bot: %+v %v", rec, err)
		}

		// Analyses, replaced in place.
		if _, err := s.Analysis(ctx, g1.ID); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("analysis before: %v", err)
		}
		for _, report := range []string{`{"v":1}`, `{"v":2,"text":"ünïcode"}`} {
			if err := s.SaveAnalysis(ctx, g1.ID, []byte(report), t0); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Analysis(ctx, g1.ID); err != nil || !bytes.Equal(got, []byte(report)) {
				t.Errorf("analysis: %q %v", got, err)
			}
		}

		// Results lines from the database.
		var lines []string
		if err := s.ResultLines(ctx, t0, func(l string) error { lines = append(lines, l); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(lines) != 1 || !strings.Contains(lines[0], fmt.Sprintf("game=%d ", g1.ID)) {
			t.Errorf("result lines: %q", lines)
		}

	})
}

// Several processes on one database (three stores stand for them): each
// turn applies once, each timer fires once, each finished game is in
// exactly one process's results log.
func TestSharedDatabaseExactlyOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		dir := t.TempDir()
		var stores [3]*Store
		for i := range stores {
			stores[i] = openAt(t, database, filepath.Join(dir, fmt.Sprintf("results-%d.log", i)))
		}
		const games = 12
		var gs []*record.Game
		for i := 0; i < games; i++ {
			g := newGame(t, stores[i%3], fmt.Sprintf("c%d", i), record.Human(alice), record.Human(bob), 4)
			gs = append(gs, g)
		}
		// Every process tries every turn of every game; exactly one wins
		// each, the others see ErrStale.
		var mu sync.Mutex
		applied := map[int64]int{}
		var wg sync.WaitGroup
		for _, g := range gs {
			for i := range stores {
				wg.Add(1)
				go func(st *Store, id int64) {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(id), uint64(i)))
					for {
						cur, err := st.Game(ctx, id)
						if err != nil {
							t.Error(err)
							return
						}
						if cur.Status != record.Active {
							return
						}
						if cur.State.Over() {
							bd, wd := cur.Position().Count()
							err := st.FinishGame(ctx, cur, record.Result{FinishedAt: t0, BlackDiscs: bd, WhiteDiscs: wd,
								Winner: cur.Position().Winner(), Reason: record.EndNormal, ArchiveAt: t0}, nil)
							if err != nil && !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive) {
								t.Error(err)
							}
							continue
						}
						moves := cur.Position().LegalMoves()
						plies, err := cur.State.Play(moves[rng.IntN(len(moves))])
						if err != nil {
							t.Error(err)
							return
						}
						err = st.AppendTurn(ctx, cur, record.Turn{Plies: plies, At: t0})
						switch {
						case err == nil:
							mu.Lock()
							applied[id] += len(plies)
							mu.Unlock()
						case !errors.Is(err, record.ErrStale) && !errors.Is(err, record.ErrNotActive):
							t.Error(err)
							return
						}
					}
				}(stores[i], g.ID)
			}
		}
		wg.Wait()
		claims := map[int64]int{}
		for _, g := range gs {
			final, err := stores[0].Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if final.Status != record.Finished || len(final.Plies()) != applied[g.ID] {
				t.Errorf("game %d: %s with %d plies, %d applied", g.ID, final.Status, len(final.Plies()), applied[g.ID])
			}
			if _, err := game.ReplayPlies(final.State.Start(), final.Plies()); err != nil {
				t.Errorf("game %d does not replay: %v", g.ID, err)
			}
			for _, st := range stores {
				if ok, err := st.ClaimArchive(ctx, g.ID, t0, t0.Add(time.Minute)); err != nil {
					t.Error(err)
				} else if ok {
					claims[g.ID]++
				}
			}
		}
		logged := map[int64]int{}
		for i := range stores {
			for _, l := range logLines(t, filepath.Join(dir, fmt.Sprintf("results-%d.log", i))) {
				id, ok := parseResultLine(l)
				if !ok {
					t.Errorf("bad line %q", l)
				}
				logged[id]++
			}
		}
		for _, g := range gs {
			if claims[g.ID] != 1 || logged[g.ID] != 1 {
				t.Errorf("game %d: archive claimed %d times, logged %d times", g.ID, claims[g.ID], logged[g.ID])
			}
		}
		// A restart of each process logs nothing again.
		for i := range stores {
			stores[i].Close()
			stores[i] = openAt(t, database, filepath.Join(dir, fmt.Sprintf("results-%d.log", i)))
		}
		total := 0
		for i := range stores {
			total += len(logLines(t, filepath.Join(dir, fmt.Sprintf("results-%d.log", i))))
		}
		if total != games {
			t.Errorf("%d lines in the logs after restarts, want %d", total, games)
		}
	})
}

// One holder at a time; another takes over only when the lease ran out.
func TestLeases(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		a := openAt(t, database, "")
		b := openAt(t, database, "")
		hold := func(s *Store, who string, at time.Duration) bool {
			ok, err := s.HoldLease(ctx, "timers", who, 15*time.Second, t0.Add(at))
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !hold(a, "A", 0) || hold(b, "B", time.Second) || !hold(a, "A", 10*time.Second) || hold(b, "B", 20*time.Second) {
			t.Fatal("A holds and renews; B must wait")
		}
		if !hold(b, "B", 26*time.Second) || hold(a, "A", 27*time.Second) {
			t.Fatal("after A stopped renewing, B takes over and A must wait")
		}
		if now, err := a.Now(ctx); err != nil || now.Sub(time.Now()).Abs() > time.Minute {
			t.Errorf("the database's clock says %v (%v)", now, err)
		}
		// Leases of one duty shared by all, counted while renewed.
		count := func(at time.Duration) int {
			n, err := a.CountLeases(ctx, "rest/", t0.Add(at))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, who := range []string{"A", "B"} {
			if _, err := a.HoldLease(ctx, "rest/"+who, who, 6*time.Second, t0); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(time.Second); n != 2 {
			t.Errorf("%d holders of rest/…, want 2", n)
		}
		if err := b.ReleaseLease(ctx, "rest/B", "B"); err != nil || count(time.Second) != 1 || count(7*time.Second) != 0 {
			t.Errorf("after B gave its lease up and A's ran out: %d, %d (%v)", count(time.Second), count(7*time.Second), err)
		}
	})
}

// An interaction id is first seen once: by one of two copies racing in a
// process, and, on PostgreSQL, across the processes sharing the database
// (SQLite is one process's: its notes ride with its commits, seen.go);
// the notes outlive the process (a restart, or another reader, finds
// them); and an id is forgotten once old.
func TestSeenInteractions(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		a := openAt(t, database, "")
		racers := []*Store{a, a}
		if strings.HasPrefix(database, "postgres") {
			racers = []*Store{a, openAt(t, database, "")}
		}
		for i := range 20 {
			id := fmt.Sprint(1300000000000000000 + i)
			var wg sync.WaitGroup
			firsts := make([]bool, 2)
			for k, s := range racers {
				wg.Go(func() {
					ok, err := s.FirstSeen(ctx, id, t0)
					if err != nil {
						t.Error(err)
					}
					firsts[k] = ok
				})
			}
			wg.Wait()
			if firsts[0] == firsts[1] {
				t.Fatalf("interaction %s: first seen by the first copy %v, by the second %v", id, firsts[0], firsts[1])
			}
		}
		a.Close() // its notes written as it stops
		b := openAt(t, database, "")
		if ok, err := b.FirstSeen(ctx, "1300000000000000019", t0.Add(time.Minute)); err != nil || ok {
			t.Fatalf("an id seen before a restart is new after it: %v %v", ok, err)
		}
		if err := b.ForgetSeen(ctx, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if ok, err := b.FirstSeen(ctx, "1300000000000000000", t0.Add(time.Hour)); err != nil || !ok {
			t.Errorf("a forgotten id: %v %v", ok, err)
		}
		if ok, _ := b.FirstSeen(ctx, "1300000000000000000", t0.Add(time.Hour)); ok {
			t.Error("seen twice after being forgotten and seen again")
		}
	})
}

// On SQLite an interaction's note is written in the transaction of the
// first write after it (one sync for both): with no time for a commit of
// its own, the write carries it; a write that fails hands its notes to the
// next commit; with no write, a note is written alone after the delay.
func TestSeenNoteRidesWithTheWrite(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	noted := func(id string) bool {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM seen_interactions WHERE id = ?`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	s.noteDelay = time.Hour
	if ok, err := s.FirstSeen(ctx, "1", t0); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if noted("1") {
		t.Fatal("the note was written before any write")
	}
	newGame(t, s, "c1", record.Human(alice), record.Bot(1), 8)
	if !noted("1") {
		t.Fatal("the next write did not carry the note")
	}
	if ok, err := s.FirstSeen(ctx, "3", t0); err != nil || !ok {
		t.Fatal(ok, err)
	}
	failing := errors.New("refused")
	if err := s.inTx(ctx, func(tx *dbTx) error { return failing }); !errors.Is(err, failing) {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !noted("3"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the note undone with a failed write was never written")
		}
	}
	s.group.mu.Lock()
	s.noteDelay = time.Millisecond
	s.group.mu.Unlock()
	if ok, err := s.FirstSeen(ctx, "2", t0); err != nil || !ok {
		t.Fatal(ok, err)
	}
	for deadline := time.Now().Add(10 * time.Second); !noted("2"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a note with no write after it was never written")
		}
	}
}

// A SQLite database copied into PostgreSQL: every table counted, every
// game replayed the same, new ids after the copied ones, results not yet
// logged picked up by the new database's first logging process.
func TestCopySQLiteToPostgres(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := openAt(t, filepath.Join(dir, "bot.db"), "")
	rng := rand.New(rand.NewPCG(5, 5))
	var finished []*record.Game
	for i := 0; i < 30; i++ {
		g := newGame(t, src, fmt.Sprintf("c%d", i), record.Human(alice), record.Bot(1+i%10), 4+2*(i%4))
		playRandom(t, src, g, 5+rng.IntN(200), rng)
		if i%3 != 0 {
			finish(t, src, g, record.EndNormal)
			finished = append(finished, g)
		}
	}
	src.SaveAnalysis(ctx, finished[0].ID, []byte(`{"x":1}`), t0)
	src.SaveRating(ctx, record.Rating{Player: bob, Scope: "global", Rating: 1600, Deviation: 90, Volatility: 0.06, UpdatedAt: t0})
	src.SetSetting(ctx, "commands", "v1")
	c := &record.Challenge{GuildID: "guild1", ChannelID: "lobby", Challenger: bob, Size: 8, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	if err := src.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}

	run, err := src.StartRun(ctx, storm.New(storm.Storm, alice, "guild1", []int64{7, 8}, t0))
	if err != nil {
		t.Fatal(err)
	}

	database := pgtest.Database(t)
	dst := openAt(t, database, "")
	rep, err := src.CopyTo(ctx, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 30 || rep.Rows["games"] != 30 || rep.Rows["results"] != int64(len(finished)) || rep.Rows["analyses"] != 1 {
		t.Errorf("report %+v", rep)
	}
	if _, err := src.CopyTo(ctx, dst, nil); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a second copy into the same database: %v", err)
	}
	g := newGame(t, dst, "new-channel", record.Human(bob), record.Bot(3), 8)
	if g.ID != 31 {
		t.Errorf("the first new game after the copy is #%d, want #31", g.ID)
	}
	c2 := &record.Challenge{GuildID: "guild1", ChannelID: "hall", Challenger: alice, Size: 8, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	if err := dst.CreateChallenge(ctx, c2); err != nil || c2.ID != c.ID+1 {
		t.Errorf("new challenge id %d (%v), want %d", c2.ID, err, c.ID+1)
	}
	if r, err := dst.Run(ctx, run); err != nil || r.Puzzles[1] != 8 || !r.Ends.Equal(t0.Add(storm.Duration)) {
		t.Errorf("the Storm run copied: %+v %v", r, err)
	}
	if id, err := dst.StartRun(ctx, storm.New(storm.Streak, bob, "", []int64{1}, t0)); err != nil || id != run+1 {
		t.Errorf("new run id %d (%v), want %d", id, err, run+1)
	}
	if v, _ := dst.Setting(ctx, "commands"); v != "v1" {
		t.Errorf("setting %q", v)
	}
	// The source kept no results log: a process with one logs them all.
	logged := openAt(t, database, filepath.Join(dir, "results.log"))
	if n := len(logLines(t, filepath.Join(dir, "results.log"))); n != len(finished) {
		t.Errorf("%d lines logged after the copy, want %d", n, len(finished))
	}
	logged.Close()
}

// An interaction's id says when Discord made it, as Discord's reference
// reads its example; an id made well after the latest note in the table
// when the store opened is not looked for there (no process before this
// one could have seen it), one made before that is, across a restart, and
// so is one that claims to come from the future.
func TestSeenBySnowflake(t *testing.T) {
	at, ok := snowflakeTime("175928847299117063")
	if want := time.Date(2016, 4, 30, 11, 18, 25, 796e6, time.UTC); !ok || !at.Equal(want) {
		t.Fatalf("snowflake 175928847299117063 made at %v, want %v", at, want)
	}
	if _, ok := snowflakeTime("not-a-snowflake"); ok {
		t.Fatal("a word read as a snowflake")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	a := openAt(t, path, "")
	// One made just now, and one that says it is from the future (Discord
	// never makes one; the table is asked all the same).
	ids := []string{fmt.Sprint(uint64(time.Now().UnixMilli()-discordEpoch) << 22),
		fmt.Sprint(uint64(time.Now().Add(time.Hour).UnixMilli()-discordEpoch) << 22)}
	for _, id := range ids {
		if ok, err := a.FirstSeen(ctx, id, time.Now()); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	a.Close()
	b := openAt(t, path, "")
	for _, id := range ids {
		if ok, err := b.FirstSeen(ctx, id, time.Now()); err != nil || ok {
			t.Fatalf("id %s, seen before a restart, is new after it: %v %v", id, ok, err)
		}
	}

	// The last process noted its last interaction an hour ago. Rows put in
	// the table behind the store's back show which ids it reads there.
	idAt := func(at time.Time) string { return fmt.Sprint(uint64(at.UnixMilli()-discordEpoch) << 22) }
	hourAgo := time.Now().Add(-time.Hour)
	path = filepath.Join(dir, "quiet.db")
	c := openAt(t, path, "")
	if ok, err := c.FirstSeen(ctx, idAt(hourAgo.Add(-time.Second)), hourAgo); err != nil || !ok {
		t.Fatal(ok, err)
	}
	c.Close()
	d := openAt(t, path, "")
	looked, notLooked := idAt(hourAgo.Add(20*time.Second)), idAt(hourAgo.Add(50*time.Minute))
	for _, id := range []string{looked, notLooked} {
		if _, err := d.wdb.ExecContext(ctx, `INSERT INTO seen_interactions (id, seen_at) VALUES (?, 0)`, id); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]bool{idAt(hourAgo.Add(-time.Second)): false, looked: false, notLooked: true} {
		if ok, err := d.FirstSeen(ctx, id, time.Now()); err != nil || ok != want {
			t.Errorf("id made %v: first seen %v (%v), want %v", time.Until(mustSnowflake(t, id)).Round(time.Minute), ok, err, want)
		}
	}
}

func mustSnowflake(t *testing.T, id string) time.Time {
	t.Helper()
	at, ok := snowflakeTime(id)
	if !ok {
		t.Fatalf("%s is no snowflake", id)
	}
	return at
}
