package local_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"othello-bot/app"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"othello-bot/internal/pgtest"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const (
	crashDirEnv = "OTHELLO_TOURNAMENT_CRASH_DIR" // the child's folder
	crashRunEnv = "OTHELLO_TOURNAMENT_CRASH_RUN" // which start this is
	// crashAtEnv makes the child SIGKILL itself right after one of its
	// commits: "any:SEED" after each commit of the kinds below with
	// probability 1/3, or "KIND:N" after its Nth of one kind: "pair" (a
	// round paired, its games not yet opened), "open" (a pairing's game
	// opened), "finish" (a tournament game's end, before the next
	// pairing).
	crashAtEnv = "OTHELLO_TOURNAMENT_CRASH_AT"
)

// crashingStore is the real store, killing its process with SIGKILL right
// after a chosen commit.
type crashingStore struct {
	*storage.Store
	kind  string
	after int
	mu    sync.Mutex
	n     int
	rng   *rand.Rand
}

func (c *crashingStore) hit(kind string) {
	c.mu.Lock()
	if kind == c.kind {
		c.n++
	}
	n := c.n
	die := kind == c.kind && n == c.after || c.kind == "any" && c.rng.IntN(3) == 0
	c.mu.Unlock()
	if die {
		fmt.Println("killed", kind, n)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

func (c *crashingStore) PairTournament(ctx context.Context, t *tournament.Tournament, ps []tournament.Pairing) error {
	err := c.Store.PairTournament(ctx, t, ps)
	if err == nil {
		c.hit("pair")
	}
	return err
}

func (c *crashingStore) OpenPairingGame(ctx context.Context, id int64, round, board int, g *record.Game) error {
	err := c.Store.OpenPairingGame(ctx, id, round, board, g)
	if err == nil {
		c.hit("open")
	}
	return err
}

func (c *crashingStore) FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error {
	err := c.Store.FinishGame(ctx, g, r, rate)
	if err == nil && g.TournamentID != 0 {
		c.hit("finish")
	}
	return err
}

// AppendTurn of a turn that ends a game is a game's end too (the last
// move and the end are one write).
func (c *crashingStore) AppendTurn(ctx context.Context, g *record.Game, t record.Turn) error {
	ends := t.End != nil
	err := c.Store.AppendTurn(ctx, g, t)
	if err == nil && ends && g.TournamentID != 0 {
		c.hit("finish")
	}
	return err
}

// openCrashing opens the terminal bot on the folder's database through a
// crashingStore, with threads, as a process of the kill test does.
func openCrashing(t testing.TB, dir string, now time.Time, kind string, after int) *env {
	t.Helper()
	return openOn(t, dir, filepath.Join(dir, "bot.db"), "", now, true, func(s *storage.Store) app.Backend {
		return &crashingStore{Store: s, kind: kind, after: after, rng: rand.New(rand.NewPCG(uint64(after), uint64(now.Unix())))}
	})
}

// TestTournamentCrashChild is a process of TestKill9MidTournament: it
// runs (or picks up) an 8-player Swiss of 3 rounds, printing "ack" after
// each move and "finished" at the end, until it is killed.
func TestTournamentCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("only runs as the child of TestKill9MidTournament")
	}
	run, _ := strconv.Atoi(os.Getenv(crashRunEnv))
	kind, n, _ := strings.Cut(os.Getenv(crashAtEnv), ":")
	after, _ := strconv.Atoi(n)
	// Each start's clock a second on from the last's: the games' clocks
	// go on across restarts as they would.
	e := openCrashing(t, dir, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Add(time.Duration(run)*time.Second), kind, after)
	ctx := context.Background()
	tour, err := e.store.Tournament(ctx, 1)
	if errors.Is(err, record.ErrNotFound) {
		e.say("admin alice", "alice #lobby: /tournament create format:swiss rounds:3 time:60+0 size:6")
		tour, err = e.store.Tournament(ctx, 1)
	}
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status == tournament.SignUp {
		e.say("admin alice")
		for _, p := range swissPlayers {
			e.say(p + " #lobby: /tournament join id:1")
		}
		e.say("alice #lobby: /tournament start id:1")
	}
	for step := 0; step < 5000; step++ {
		tour, err := e.store.Tournament(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if tour.Status == tournament.Finished {
			fmt.Println("finished")
			return
		}
		games := e.activeTournamentGames(1)
		if len(games) == 0 {
			e.say("wait 1s") // a tick: whatever a killed process left half done
			fmt.Println("tick")
			continue
		}
		for _, g := range games {
			move := g.Position().LegalMoves()[0]
			e.say(g.ToMove().Player.ID + " #" + g.ChannelID + ": /move " + move.String())
			fmt.Println("ack", g.ID)
		}
	}
	t.Fatal("the tournament did not finish")
}

// An 8-player Swiss run by processes killed with SIGKILL at every kind of
// moment: right after a round is paired (its games not yet opened), right
// after a game is opened, right after a game ends (before the next
// pairing), and at random between moves. Each restart picks up where the
// last left off; at the end no round was paired twice, no player played
// two games in a round, every pairing has one game of the tournament, and
// the results log has every game once.
func TestKill9MidTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	kills := map[string]int{}
	for seed := 0; seed < 4; seed++ {
		dir := t.TempDir()
		crashTournament(t, dir, seed, kills)
		checkCrashedTournament(t, dir)
	}
	t.Logf("kills over 4 tournaments: %v", kills)
	for _, k := range []string{"pair", "open", "finish", "random"} {
		if kills[k] < 2 {
			t.Errorf("%d kills of kind %s", kills[k], k)
		}
	}
}

// crashTournament runs the tournament in the folder by processes killed
// one after another until one sees it finished.
func crashTournament(t *testing.T, dir string, seed int, kills map[string]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, uint64(seed)))
	modes := []string{"pair:1", "open:2", "finish:1", "", "any:1", "any:2", "", "any:3", "any:4", "any:5"}
	finished := false
	for run := 0; run < 60 && !finished; run++ {
		mode := modes[(run+seed*3)%len(modes)]
		if strings.HasPrefix(mode, "any:") {
			mode += strconv.Itoa(seed)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestTournamentCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashRunEnv+"="+strconv.Itoa(run), crashAtEnv+"="+mode)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killAfter := 3 + rng.IntN(25)
		sc := bufio.NewScanner(out)
		acks := 0
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "finished":
				finished = true
			case strings.HasPrefix(line, "killed "):
				kills[strings.Fields(line)[1]]++
			case strings.HasPrefix(line, "ack "):
				acks++
				if mode == "" && acks == killAfter {
					cmd.Process.Kill()
					kills["random"]++
				}
			}
		}
		cmd.Wait()
	}
	if !finished {
		t.Fatalf("the tournament did not finish in 60 starts; kills %v", kills)
	}
}

func checkCrashedTournament(t *testing.T, dir string) {
	t.Helper()
	s, err := storage.Open(context.Background(), filepath.Join(dir, "bot.db"),
		storage.Options{ResultsLog: filepath.Join(dir, "check.log"), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	tour, err := s.Tournament(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != tournament.Finished || tour.Round != tour.Rounds || tour.Rounds != 3 {
		t.Fatalf("the tournament ended %s after %d of %d rounds", tour.Status, tour.Round, tour.Rounds)
	}
	ps, err := s.Pairings(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSwiss(t, ps, "")
	perRound := map[int]int{}
	games := map[int64]bool{}
	for _, p := range ps {
		perRound[p.Round]++
		if p.Bye() || p.ForfeitBy != "" {
			continue
		}
		if p.GameID == 0 || games[p.GameID] {
			t.Errorf("round %d board %d: game %d", p.Round, p.Board, p.GameID)
			continue
		}
		games[p.GameID] = true
		g, err := s.Game(ctx, p.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if g.TournamentID != 1 || g.Black.Player.ID != p.Black || g.White.Player.ID != p.White || g.Status == record.Active {
			t.Errorf("game %d for round %d board %d: %s-%s, tournament %d, %s", g.ID, p.Round, p.Board,
				g.Black.Player.ID, g.White.Player.ID, g.TournamentID, g.Status)
		}
	}
	for r := 1; r <= 3; r++ {
		if perRound[r] != 4 {
			t.Errorf("round %d has %d pairings, want 4", r, perRound[r])
		}
	}
	// No game but the tournament's was ever opened (a thread opened and
	// then refused leaves no game).
	var lines []string
	if err := s.ResultLines(ctx, time.Time{}, func(l string) error { lines = append(lines, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(games) {
		t.Errorf("%d results for %d games", len(lines), len(games))
	}
	logged, _ := os.ReadFile(filepath.Join(dir, "results.log"))
	for id := range games {
		if n := strings.Count(string(logged), fmt.Sprintf(" game=%d ", id)); n != 1 {
			t.Errorf("game %d is in the results log %d times", id, n)
		}
	}
}
