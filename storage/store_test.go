package storage

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/internal/pgtest"
	"othello-bot/record"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openAt(t testing.TB, dbPath, logPath string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dbPath, Options{ResultsLog: logPath, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	return openAt(t, filepath.Join(dir, "bot.db"), filepath.Join(dir, "results.log")), dir
}

// backends are the databases the store runs on: the tests that are not
// about SQLite's file run against each.
var backends = []struct {
	name     string
	database func(t testing.TB) string
}{
	{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "bot.db") }},
	{"postgres", pgtest.Database},
}

// eachBackend runs fn against a new empty database of each backend.
func eachBackend(t *testing.T, fn func(t *testing.T, database string)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { fn(t, b.database(t)) })
	}
}

// openIn opens a database with a results log in a new folder.
func openIn(t testing.TB, database string) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	return openAt(t, database, filepath.Join(dir, "results.log")), dir
}

func TestMain(m *testing.M) { pgtest.Main(m) }

var (
	alice = record.Player{ID: "111", Name: "alice"}
	bob   = record.Player{ID: "222", Name: "bob"}
	t0    = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
)

func newGame(t testing.TB, s *Store, channel string, black, white record.Side, size int) *record.Game {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{GuildID: "guild1", ChannelID: channel, Black: black, White: white, State: game.NewGame(start),
		CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0}
	if err := s.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return g
}

// playRandom makes n random legal turns (or fewer if the game ends),
// storing each; it returns the rules state.
func playRandom(t testing.TB, s *Store, g *record.Game, n int, rng *rand.Rand) *game.Game {
	t.Helper()
	rules := g.State
	for i := 0; i < n && !rules.Over(); i++ {
		moves := rules.Position().LegalMoves()
		plies, err := rules.Play(moves[rng.IntN(len(moves))])
		if err != nil {
			t.Fatal(err)
		}
		at := g.UpdatedAt.Add(time.Minute)
		if err := s.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: at, Deadline: at.Add(24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	return rules
}

func finish(t testing.TB, s *Store, g *record.Game, reason record.EndReason) record.Result {
	t.Helper()
	b, w := g.Position().Count()
	r := record.Result{FinishedAt: g.UpdatedAt.Add(time.Minute), BlackDiscs: b, WhiteDiscs: w, Winner: g.Position().Winner(), Reason: reason}
	if err := s.FinishGame(context.Background(), g, r, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMigrationsFromEmptyAndAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	for i := 0; i < 3; i++ {
		s, err := Open(context.Background(), path, Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		if s.Version() != LatestVersion() || s.Version() < 1 {
			t.Errorf("open %d: version %d, latest %d", i, s.Version(), LatestVersion())
		}
		var tables int
		s.db.QueryRowContext(context.Background(), `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN
			('players', 'games', 'moves', 'results', 'challenges', 'ratings')`).Scan(&tables)
		if tables != 6 {
			t.Errorf("open %d: %d of 6 tables", i, tables)
		}
		s.Close()
	}
}

// A database at schema version 1, with a game in it, upgrades in place and
// its game loads with the new column's default.
func TestUpgradeFromVersionOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	ms, err := loadMigrations(sqliteDB)
	if err != nil || len(ms) < 2 {
		t.Fatalf("migrations: %v", err)
	}
	old, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	pos := strings.Repeat("-", 27) + "OX------XO" + strings.Repeat("-", 27)
	for _, q := range []string{ms[0].sql, "PRAGMA user_version = 1",
		`INSERT INTO players (id, name, created_at, updated_at) VALUES ('111', 'alice', 0, 0)`,
		`INSERT INTO games (channel_id, size, black_id, white_level, status, start_position, start_to_move, position, to_move,
			created_at, updated_at, turn_started_at) VALUES ('c', 8, '111', 3, 'active', '` + pos + `', 'X', '` + pos + `', 'X', 0, 0, 0)`,
		`INSERT INTO games (channel_id, size, black_id, white_level, status, start_position, start_to_move, position, to_move,
			created_at, updated_at, turn_started_at) VALUES ('d', 8, '111', 2, 'finished', '` + pos + `', 'X', '` + pos + `', 'X', 0, 0, 0)`,
		`INSERT INTO results (game_id, guild_id, finished_at, black_id, white_level, size, black_discs, white_discs, winner,
			reason, rated, transcript, logged_at) VALUES (2, '', 1000, '111', 2, 8, 40, 24, 'X', 'resign', 0, 'f5d6', 2000)`} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%.40s: %v", q, err)
		}
	}
	old.Close()
	s := openAt(t, path, "")
	if s.Version() != len(ms) {
		t.Errorf("version %d after upgrade", s.Version())
	}
	// Level 3 of the ten levels is level 13 of the twenty (migration 0029).
	g, err := s.ActiveGame(context.Background(), "c")
	if err != nil || g.Style != record.StyleAuto || g.Black.Player.Name != "alice" || g.White.Level != 13 || g.ParentID != "" {
		t.Errorf("old game after upgrade: %+v %v", g, err)
	}
	// The results table, rebuilt for new end reasons, keeps its rows.
	h, err := s.History(context.Background(), "111", 10)
	if err != nil || len(h) != 1 || h[0].Result != record.Won || h[0].Reason != record.EndResign || h[0].Mine != 40 || h[0].Takebacks != 0 {
		t.Errorf("history after upgrade: %+v %v", h, err)
	}
	var logged sql.NullInt64
	if err := s.db.QueryRowContext(context.Background(), `SELECT logged_at FROM results WHERE game_id = 2`).Scan(&logged); err != nil || logged.Int64 != 2000 {
		t.Errorf("logged_at after upgrade: %v %v", logged, err)
	}
	// The games table, rebuilt for the twenty levels, keeps the rows that
	// point at it, its keys are on again, and the old level 2 is level 6.
	recs, err := s.RecordAgainstBot(context.Background(), "111")
	if err != nil || len(recs) != 1 || recs[0].Level != 6 || recs[0].Wins != 1 {
		t.Errorf("record by level after upgrade: %+v %v", recs, err)
	}
	var keysOn, dangling int
	s.wdb.QueryRowContext(context.Background(), `PRAGMA foreign_keys`).Scan(&keysOn)
	s.db.QueryRowContext(context.Background(), `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&dangling)
	if keysOn != 1 || dangling != 0 {
		t.Errorf("after the rebuild: foreign keys %d, %d rows pointing nowhere", keysOn, dangling)
	}
	if _, err := s.db.ExecContext(context.Background(), `UPDATE games SET white_level = 20 WHERE id = 1`); err != nil {
		t.Errorf("level 20: %v", err)
	}
	if _, err := s.db.ExecContext(context.Background(), `UPDATE games SET white_level = 21 WHERE id = 1`); err == nil {
		t.Error("level 21 was stored")
	}
}

func TestOpenErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	s := openAt(t, newer, "")
	s.db.ExecContext(context.Background(), `PRAGMA user_version = 999`)
	s.Close()

	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("this is not a database\n", 200)), 0o644)

	cases := map[string]string{
		newer:                                   "schema version 999 is newer than this othello-bot knows",
		garbage:                                 "the file is not a SQLite database",
		filepath.Join(dir, "missing", "bot.db"): "does not exist",
		"/proc/othello-bot-test.db":             "cannot write there",
		dir:                                     "is a folder",
	}
	for path, want := range cases {
		_, err := Open(context.Background(), path, Options{Logger: quiet})
		if err == nil {
			t.Errorf("%s opened", path)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, path) || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one line with the path and %q", path, msg, want)
		}
	}
}

func TestPragmasTookEffect(t *testing.T) {
	s, _ := openTemp(t)
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "2"} {
		var got string
		s.db.QueryRowContext(context.Background(), "PRAGMA "+pragma).Scan(&got)
		if got != want {
			t.Errorf("%s = %s", pragma, got)
		}
	}
}

func TestGameRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, dir := openIn(t, database)
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(1, 2))
		g := newGame(t, s, "chan1", record.Human(alice), record.Bot(7), 8)
		rules := playRandom(t, s, g, 20, rng)

		got, err := s.ActiveGame(ctx, "chan1")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != g.ID || got.Version != g.Version || got.Black != g.Black || got.White != g.White ||
			got.GuildID != "guild1" || !got.Position().Equal(rules.Position()) || !got.State.Start().Equal(g.State.Start()) ||
			len(got.Plies()) != len(rules.Plies()) || !got.UpdatedAt.Equal(g.UpdatedAt) || !got.Deadline.Equal(g.Deadline) ||
			!got.CreatedAt.Equal(t0) || got.Status != record.Active || got.Result != nil {
			t.Fatalf("loaded %+v\nwant %+v", got, g)
		}
		for i, p := range rules.Plies() {
			if got.Plies()[i] != p {
				t.Fatalf("ply %d: %v, want %v", i, got.Plies()[i], p)
			}
		}
		replayed, err := game.ReplayPlies(got.State.Start(), got.Plies())
		if err != nil || !replayed.Position().Equal(got.Position()) {
			t.Fatalf("stored plies do not replay to the stored position: %v", err)
		}

		// Finish: the result is stored, the channel is free, history and the
		// record against the bot see it, the results log has its line.
		for !rules.Over() {
			rules = playRandom(t, s, g, 60, rng)
		}
		r := finish(t, s, g, record.EndNormal)
		if _, err := s.ActiveGame(ctx, "chan1"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("finished game still active: %v", err)
		}
		got, _ = s.Game(ctx, g.ID)
		if got.Status != record.Finished || got.Result == nil || *got.Result != (record.Result{GameID: g.ID, FinishedAt: r.FinishedAt,
			BlackDiscs: r.BlackDiscs, WhiteDiscs: r.WhiteDiscs, Winner: r.Winner, Reason: record.EndNormal}) {
			t.Errorf("result %+v", got.Result)
		}
		hist, err := s.History(ctx, alice.ID, 10)
		if err != nil || len(hist) != 1 || hist[0].GameID != g.ID || hist[0].Color != game.Black ||
			hist[0].Opponent != record.Bot(7) || hist[0].Transcript != rules.Transcript() {
			t.Errorf("history %+v %v", hist, err)
		}
		rec, err := s.RecordAgainstBot(ctx, alice.ID)
		if err != nil || len(rec) != 1 || rec[0].Level != 7 || rec[0].Wins+rec[0].Losses+rec[0].Draws != 1 {
			t.Errorf("record against bot %+v %v", rec, err)
		}
		lines := logLines(t, filepath.Join(dir, "results.log"))
		if len(lines) != 1 || !strings.Contains(lines[0], `black="alice" black_id="111" white="bot" white_level=7`) ||
			!strings.Contains(lines[0], "transcript=\""+rules.Transcript()+"\"") || !strings.HasPrefix(lines[0], "2026-11-22T") {
			t.Errorf("results log %q", lines)
		}
		newGame(t, s, "chan1", record.Human(bob), record.Human(alice), 6) // the channel is free again
	})
}

func TestOneActiveGamePerChannel(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		newGame(t, s, "chan1", record.Human(alice), record.Bot(3), 8)
		start, _ := game.NewPosition(8)
		g := &record.Game{ChannelID: "chan1", Black: record.Human(bob), White: record.Bot(1), State: game.NewGame(start),
			CreatedAt: t0, UpdatedAt: t0, TurnStartedAt: t0}
		if err := s.CreateGame(context.Background(), g); !errors.Is(err, record.ErrChannelBusy) {
			t.Errorf("second game: %v", err)
		}
		newGame(t, s, "chan2", record.Human(bob), record.Bot(1), 8)
	})
}

// Many goroutines race to move in one game from the same version: exactly
// one wins each ply and the stored game stays consistent.
func TestStaleVersionRace(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		ctx := context.Background()
		g := newGame(t, s, "race", record.Human(alice), record.Human(bob), 8)
		const racers = 8
		for ply := 0; ply < 12; ply++ {
			var wg sync.WaitGroup
			var mu sync.Mutex
			wins, stale := 0, 0
			start := make(chan struct{})
			var ready sync.WaitGroup // every racer has read the same version
			for i := 0; i < racers; i++ {
				wg.Add(1)
				ready.Add(1)
				go func(i int) {
					defer wg.Done()
					mine, err := s.Game(ctx, g.ID)
					ready.Done()
					if err != nil {
						t.Error(err)
						return
					}
					rules := mine.State
					moves := rules.Position().LegalMoves()
					plies, _ := rules.Play(moves[i%len(moves)])
					<-start
					err = s.AppendTurn(ctx, mine, record.Turn{Plies: plies, At: t0})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						wins++
					case errors.Is(err, record.ErrStale):
						stale++
					default:
						t.Error(err)
					}
				}(i)
			}
			ready.Wait()
			close(start)
			wg.Wait()
			if wins != 1 || stale != racers-1 {
				t.Fatalf("ply %d: %d wins, %d stale", ply, wins, stale)
			}
		}
		final, _ := s.Game(ctx, g.ID)
		rules, err := game.ReplayPlies(final.State.Start(), final.Plies())
		if err != nil || len(game.MovesOf(final.Plies())) != 12 || !rules.Position().Equal(final.Position()) || final.Version != 13 {
			t.Fatalf("after the race: %d moves, version %d, replay %v", len(game.MovesOf(final.Plies())), final.Version, err)
		}
	})
}

func TestChallengeAndRatingRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		ctx := context.Background()
		c := &record.Challenge{GuildID: "g", ChannelID: "ch", Challenger: alice, Opponent: bob, Color: record.ChooseWhite, Size: 10,
			Rated: true, CreatedAt: t0, ExpiresAt: t0.Add(10 * time.Minute), Style: record.StyleImage}
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		got, err := s.Challenge(ctx, c.ID)
		if err != nil || *got != *c {
			t.Fatalf("challenge %+v, want %+v (%v)", got, c, err)
		}
		dup := *c
		if err := s.CreateChallenge(ctx, &dup); !errors.Is(err, record.ErrChallengePending) {
			t.Errorf("second pending challenge: %v", err)
		}
		open := &record.Challenge{ChannelID: "ch2", Challenger: alice, Size: 8, CreatedAt: t0, ExpiresAt: t0.Add(time.Minute), Style: record.StyleAuto}
		if err := s.CreateChallenge(ctx, open); err != nil {
			t.Fatal(err)
		}
		pending, _ := s.PendingChallenges(ctx)
		if len(pending) != 2 || pending[0].ID != open.ID || pending[0].Opponent.ID != "" || pending[0].Color != record.RandomColor {
			t.Errorf("pending %+v", pending)
		}
		ok, err := s.CloseChallenge(ctx, c.ID, record.ChallengeDeclined)
		again, _ := s.CloseChallenge(ctx, c.ID, record.ChallengeCanceled)
		if !ok || again || err != nil {
			t.Errorf("close: %v %v %v", ok, again, err)
		}

		r := record.Rating{Player: alice, Scope: "g", Rating: 1612.5, Deviation: 80.25, Volatility: 0.06, Games: 3, Wins: 2,
			Losses: 1, UpdatedAt: t0}
		if err := s.SaveRating(ctx, r); err != nil {
			t.Fatal(err)
		}
		s.SaveRating(ctx, record.Rating{Player: bob, Scope: "g", Rating: 1700, Deviation: 60, Volatility: 0.06, UpdatedAt: t0})
		gotR, err := s.Rating(ctx, alice.ID, "g")
		if err != nil || gotR != r {
			t.Errorf("rating %+v, want %+v (%v)", gotR, r, err)
		}
		// Alice's deviation of 80 makes her established, bob's 60 too: by rating.
		board, err := s.Leaderboard(ctx, "g", growthAt(t0), 10)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := s.Standing(ctx, alice.ID, "g", growthAt(t0))
		if len(board) != 2 || board[0].Player != bob || st.Rank != 2 || st.Provisional || board[0].Rank != 1 {
			t.Errorf("leaderboard %+v, alice %+v", board, st)
		}
		// A year later without games both deviations have grown: provisional.
		later := t0.Add(365 * 24 * time.Hour)
		if st, _ := s.Standing(ctx, alice.ID, "g", growthAt(later)); !st.Provisional || st.Deviation <= 80 {
			t.Errorf("after a year idle: %+v", st)
		}
		if _, err := s.Rating(ctx, alice.ID, record.GlobalScope); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("missing rating: %v", err)
		}
	})
}

func TestDueGamesAndReminders(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		s, _ := openIn(t, database)
		ctx := context.Background()
		g := newGame(t, s, "c", record.Human(alice), record.Human(bob), 8)
		playRandom(t, s, g, 1, rand.New(rand.NewPCG(3, 3))) // deadline: 24h after the move
		next, _ := s.NextDeadline(ctx)
		if !next.Equal(g.Deadline) {
			t.Errorf("next deadline %v, want %v", next, g.Deadline)
		}
		if due, _ := s.DueGames(ctx, g.Deadline.Add(-2*time.Hour), time.Hour); len(due) != 0 {
			t.Errorf("due too early: %d", len(due))
		}
		due, _ := s.DueGames(ctx, g.Deadline.Add(-30*time.Minute), time.Hour)
		if len(due) != 1 {
			t.Fatalf("reminder not due")
		}
		if ok, _ := s.MarkReminded(ctx, due[0]); !ok {
			t.Error("reminder not marked")
		}
		if ok, _ := s.MarkReminded(ctx, due[0]); ok {
			t.Error("reminder marked twice")
		}
		if due, _ := s.DueGames(ctx, g.Deadline.Add(-30*time.Minute), time.Hour); len(due) != 0 {
			t.Error("reminded game still due before its deadline")
		}
		if due, _ := s.DueGames(ctx, g.Deadline, time.Hour); len(due) != 1 {
			t.Error("game not due at its deadline")
		}
	})
}

func logLines(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func countGame(lines []string, id int64) int {
	n := 0
	for _, l := range lines {
		if gid, ok := parseResultLine(l); ok && gid == id {
			n++
		}
	}
	return n
}

// The results log has each finished game exactly once whichever step of
// finishing a crash interrupts.
func TestResultsLogExactlyOnceAcrossCrashes(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		dbPath, logPath := database, filepath.Join(t.TempDir(), "results.log")
		rng := rand.New(rand.NewPCG(4, 4))

		// 1. Crash after the database commit, before the append: a store
		// without the log stands for it.
		s := openAt(t, dbPath, "")
		g1 := newGame(t, s, "c1", record.Human(alice), record.Bot(2), 6)
		playRandom(t, s, g1, 10, rng)
		finish(t, s, g1, record.EndResign)
		s.Close()

		// 2. Crash after the append, before the database notes it.
		s = openAt(t, dbPath, logPath)
		g2 := newGame(t, s, "c2", record.Human(bob), record.Bot(4), 6)
		playRandom(t, s, g2, 10, rng)
		finish(t, s, g2, record.EndNormal)
		s.db.ExecContext(context.Background(), `UPDATE results SET logged_at = NULL WHERE game_id = ?`, g2.ID)

		// 3. Crash in the middle of the append: half a line, no newline.
		g3 := newGame(t, s, "c3", record.Human(alice), record.Human(bob), 4)
		playRandom(t, s, g3, 30, rng)
		s.results = nil // finish in the database only
		finish(t, s, g3, record.EndNormal)
		lines, err := s.resultLines(context.Background(), []int64{g3.ID})
		if err != nil {
			t.Fatal(err)
		}
		line := lines[0]
		s.Close()
		f, _ := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(line[:len(line)/2])
		f.Close()

		for restart := 0; restart < 2; restart++ {
			s = openAt(t, dbPath, logPath)
			lines := logLines(t, logPath)
			for _, g := range []*record.Game{g1, g2, g3} {
				if n := countGame(lines, g.ID); n != 1 {
					t.Errorf("restart %d: game %d has %d lines", restart, g.ID, n)
				}
			}
			if len(lines) != 3 {
				t.Errorf("restart %d: %d lines: %q", restart, len(lines), lines)
			}
			var unlogged int
			s.db.QueryRowContext(context.Background(), `SELECT count(*) FROM results WHERE logged_at IS NULL`).Scan(&unlogged)
			if unlogged != 0 {
				t.Errorf("restart %d: %d results not noted as logged", restart, unlogged)
			}
			s.Close()
		}
		if strings.Contains(string(must(os.ReadFile(logPath))), "\n\n") {
			t.Error("blank line in the log")
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
