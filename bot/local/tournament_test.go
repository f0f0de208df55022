package local_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/record"
	"othello-bot/tournament"
)

var swissPlayers = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"}

// activeTournamentGames are the running games of a tournament, by id.
func (e *env) activeTournamentGames(tid int64) []*record.Game {
	e.t.Helper()
	ps, err := e.store.Pairings(context.Background(), tid)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []*record.Game
	for _, p := range ps {
		if p.GameID == 0 {
			continue
		}
		if g := e.gameByID(p.GameID); g.Status == record.Active {
			out = append(out, g)
		}
	}
	return out
}

// An 8-player Swiss of 3 rounds at 1+0 through the terminal, as players
// would run it: sign-up by the button, a start by the organiser, games in
// threads, one player who never moves losing on time, one withdrawal, and
// the podium. The pairings are checked against the rules by a check of
// the test's own, and the standings the bot shows against points,
// Buchholz and discs recomputed here from the results log.
func TestSwissOfEightThroughTheTerminal(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice")
	out := e.say("alice #lobby: /tournament create format:swiss rounds:3 time:1+0 size:4 name:Friday Swiss")
	expect(t, out, "Tournament #1: Friday Swiss", "Format: Swiss, 3 rounds", "Time control: 1+0 · Bullet", "[Join] [Leave]",
		"Tournament #1 (Friday Swiss) is open for sign-up")
	for _, p := range swissPlayers {
		e.say(p + " #lobby: click Join")
	}
	expect(t, e.say("bob #lobby: click Join"), "(only visible to bob)", "You are already in tournament #1.")
	expect(t, e.say("bob #lobby: /tournament start"), "Only the tournament's organiser or a moderator can do that.")
	out = e.say("alice #lobby: /tournament start")
	expect(t, out, "Tournament #1 (Friday Swiss) has begun with 8 players.", "Round 1 of 3 · tournament #1 (Friday Swiss)")
	if n := len(e.activeTournamentGames(1)); n != 4 {
		t.Fatalf("round 1 opened %d games", n)
	}

	// A player in a tournament game starts no other game.
	busy := e.activeTournamentGames(1)[0].Black.Player.ID
	expect(t, e.say(busy+" #lobby: /start level:1"), "is playing a tournament game (#1, #thread-", "no other game starts until it ends")
	// Round 1: three games played out; in the fourth nobody moves, and the
	// player to move loses on time once the first-move window is past.
	games := e.activeTournamentGames(1)
	idle := games[3]
	for _, g := range games[:3] {
		e.playOut(g.ID)
	}
	out = e.say("wait 31s")
	expect(t, out, "Round 2 of 3 · tournament #1")
	if g := e.gameByID(idle.ID); g.Result == nil || g.Result.Reason != record.EndTimeout || g.Result.Winner != idle.Position().ToMove().Opponent() {
		t.Fatalf("the idle game ended as %+v", g.Result)
	}

	// Round 2: one player withdraws mid-game; the others play out.
	// Leaving a started tournament asks first, as /resign does (#59):
	// Stay in keeps the game going; Withdraw loses it, said as what it is.
	games = e.activeTournamentGames(1)
	leaver, left := games[0].Black.Player.ID, games[0].ID
	expect(t, e.say(leaver+" #lobby: /tournament leave"), "(only visible to "+leaver+")", "Withdraw from tournament #1 (Friday Swiss)?",
		"your game in progress is lost", "[Withdraw] [Stay in]")
	expect(t, e.say(leaver+" #lobby: click Stay in"), "You stay in tournament #1.")
	if g := e.gameByID(left); g.Status != record.Active {
		t.Fatalf("after Stay in the leaver's game is %s", g.Status)
	}
	expect(t, e.say(leaver+" #lobby: /tournament leave"), "Withdraw from tournament #1")
	out = e.say(leaver + " #lobby: click Withdraw")
	expect(t, out, "You withdrew from tournament #1", "withdrew from the tournament.", "wins by withdrawal (")
	if strings.Contains(out, "by resignation") {
		t.Fatalf("a withdrawal reads as a resignation:\n%s", out)
	}
	if g := e.gameByID(left); g.Result == nil || !g.Result.Withdrawal() {
		t.Fatalf("the leaver's game ended as %+v", g.Result)
	}
	for _, g := range e.activeTournamentGames(1) {
		e.playOut(g.ID)
	}
	// Round 3 pairs the seven left: one of them has the bye. In one game
	// both sides move twice, then a flag falls mid-game.
	round3 := e.activeTournamentGames(1)
	for _, g := range round3 {
		if g.Black.Player.ID == leaver || g.White.Player.ID == leaver {
			t.Fatalf("the withdrawn %s was paired in game %d", leaver, g.ID)
		}
	}
	flagged := round3[0]
	for i := 0; i < 4; i++ {
		g := e.gameByID(flagged.ID)
		e.say(g.ToMove().Player.ID + " #" + g.ChannelID + ": select " + g.Position().LegalMoves()[0].String())
	}
	for _, g := range round3[1:] {
		e.playOut(g.ID)
	}
	expect(t, e.say("wait 61s"), "Tournament #1 (Friday Swiss) is over.", "🥇")
	if g := e.gameByID(flagged.ID); g.Result == nil || g.Result.Reason != record.EndTimeout || len(g.Plies()) < 4 {
		t.Fatalf("the flagged game ended as %+v after %d plies", g.Result, len(g.Plies()))
	}
	// Its games were rated: the players are on the bullet leaderboard.
	expect(t, e.say("alice #lobby: /leaderboard speed:bullet"), "Bullet")
	tour, err := e.store.Tournament(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != tournament.Finished || tour.Round != 3 {
		t.Fatalf("after round 3: %s, round %d", tour.Status, tour.Round)
	}
	out = e.say("alice #lobby: /tournament show id:1")
	expect(t, out, "Standings · tournament #1: Friday Swiss", "Finished")
	// Over, it does not vanish: show without an id shows the channel's
	// last tournament, and list lists it (#44).
	expect(t, e.say("bob #lobby: /tournament show"), "Standings · tournament #1: Friday Swiss", "Finished")
	expect(t, e.say("bob #lobby: /tournament list"), "(only visible to bob)", "#1", "Friday Swiss", "Finished")

	pairings, err := e.store.Pairings(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSwiss(t, pairings, leaver)
	checkStandings(t, out, e.results(), pairings)
	for _, line := range e.results() {
		if !strings.Contains(line, " tournament=1 ") {
			t.Errorf("a results line without its tournament: %s", line)
		}
	}
}

// checkSwiss checks the pairings against the rules: nobody meets anyone
// twice or plays twice a round, colours stay within two and never three
// alike in a row, one bye at most each, and nobody paired after they
// withdrew.
func checkSwiss(t *testing.T, ps []tournament.Pairing, leaver string) {
	t.Helper()
	met := map[string]bool{}
	seen := map[string]bool{}
	byes := map[string]int{}
	colours := map[string]string{}
	leftIn := 0
	for _, p := range ps {
		for _, id := range []string{p.Black, p.White} {
			if id == "" {
				continue
			}
			key := fmt.Sprint(p.Round, id)
			if seen[key] {
				t.Errorf("%s plays twice in round %d", id, p.Round)
			}
			seen[key] = true
			if id == leaver && p.ForfeitBy == "" && !p.Bye() {
				leftIn = max(leftIn, p.Round)
			}
		}
		if p.Bye() {
			byes[p.Black]++
			continue
		}
		pair := p.Black + "-" + p.White
		if p.White < p.Black {
			pair = p.White + "-" + p.Black
		}
		if met[pair] {
			t.Errorf("%s meet twice", pair)
		}
		met[pair] = true
		colours[p.Black] += "B"
		colours[p.White] += "W"
	}
	for id, n := range byes {
		if n > 1 {
			t.Errorf("%s had %d byes", id, n)
		}
	}
	for id, cs := range colours {
		if strings.Contains(cs, "BBB") || strings.Contains(cs, "WWW") {
			t.Errorf("%s has colours %s", id, cs)
		}
		if d := strings.Count(cs, "B") - strings.Count(cs, "W"); d > 2 || d < -2 {
			t.Errorf("%s has colours %s", id, cs)
		}
	}
	if leftIn > 2 {
		t.Errorf("%s withdrew in round 2 and played in round %d", leaver, leftIn)
	}
}

var resultField = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S+)`)

// checkStandings recomputes the standings from the results log (points,
// Buchholz, discs; byes from the pairings) and compares them with the
// table the bot showed.
func checkStandings(t *testing.T, shown string, lines []string, ps []tournament.Pairing) {
	t.Helper()
	points := map[string]float64{}
	discs := map[string]int{}
	opponents := map[string][]string{}
	for _, line := range lines {
		f := map[string]string{}
		for _, m := range resultField.FindAllStringSubmatch(line, -1) {
			f[m[1]] = strings.Trim(m[2], `"`)
		}
		b, w := f["black"], f["white"]
		bd, wd, _ := strings.Cut(f["score"], "-")
		nb, _ := strconv.Atoi(bd)
		nw, _ := strconv.Atoi(wd)
		switch f["winner"] {
		case "black":
			points[b]++
		case "white":
			points[w]++
		default:
			points[b] += 0.5
			points[w] += 0.5
		}
		discs[b] += nb - nw
		discs[w] += nw - nb
		opponents[b] = append(opponents[b], w)
		opponents[w] = append(opponents[w], b)
	}
	ids := map[string]string{} // the pairings hold ids, the log names: here they are the same
	for _, p := range ps {
		ids[p.Black] = p.Black
		if p.Bye() {
			points[p.Black]++
		}
		if p.ForfeitBy != "" {
			winner := p.Opponent(p.ForfeitBy)
			points[winner]++
			opponents[winner] = append(opponents[winner], p.ForfeitBy)
			opponents[p.ForfeitBy] = append(opponents[p.ForfeitBy], winner)
		}
	}
	buchholz, median := map[string]float64{}, map[string]float64{}
	for id, os := range opponents {
		var ps []float64
		for _, o := range os {
			buchholz[id] += points[o]
			ps = append(ps, points[o])
		}
		sort.Float64s(ps)
		median[id] = buchholz[id]
		if len(ps) >= 3 {
			median[id] -= ps[0] + ps[len(ps)-1]
		}
	}
	table := shown[strings.Index(shown, "```")+4:]
	table = table[:strings.Index(table, "```")]
	rows := strings.Split(strings.TrimSpace(table), "\n")[1:]
	var order []string
	for _, row := range rows {
		cols := strings.Fields(strings.ReplaceAll(row, " ✗", "")) // the withdrawn player's mark
		name := cols[1]
		want := fmt.Sprintf("%s %s %s %s", half(points[name]), half(buchholz[name]), half(median[name]), signedInt(discs[name]))
		got := cols[2] + " " + cols[4] + " " + cols[5] + " " + cols[len(cols)-1]
		if got != want {
			t.Errorf("%s: shown points, Buchholz, median Buchholz, discs %q; recomputed %q", name, got, want)
		}
		order = append(order, name)
	}
	if len(order) != len(swissPlayers) {
		t.Fatalf("%d rows shown: %q", len(order), table)
	}
	if !sort.SliceIsSorted(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if points[a] != points[b] {
			return points[a] > points[b]
		}
		return buchholz[a] > buchholz[b]
	}) {
		t.Errorf("not ranked by points then Buchholz: %v", order)
	}
}

func half(p float64) string {
	s := strconv.Itoa(int(p))
	if p-float64(int(p)) >= 0.5 {
		if int(p) == 0 {
			return "½"
		}
		s += "½"
	}
	return s
}

func signedInt(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// A round-robin of five through the terminal: five rounds (Berger tables
// with a bye each), everyone meets everyone exactly once, nobody plays
// twice in a round, and late entries are refused once it has begun.
func TestRoundRobinOfFive(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice")
	e.say("alice #lobby: /tournament create format:roundrobin time:3+2 size:4 rated:false")
	names := swissPlayers[:5]
	for _, p := range names {
		e.say(p + " #lobby: /tournament join")
	}
	expect(t, e.say("alice #lobby: /tournament start"), "has begun with 5 players", "Round 1 of 5")
	expect(t, e.say("heidi #lobby: /tournament join"), "(only visible to heidi)", "Entries to tournament #1 are closed.")
	for round := 1; round <= 5; round++ {
		games := e.activeTournamentGames(1)
		if len(games) != 2 {
			t.Fatalf("round %d: %d games", round, len(games))
		}
		for _, g := range games {
			e.playOut(g.ID)
		}
	}
	ps, err := e.store.Pairings(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	met := map[string]int{}
	byes := map[string]int{}
	perRound := map[string]bool{}
	for _, p := range ps {
		for _, id := range []string{p.Black, p.White} {
			if id == "" {
				continue
			}
			if perRound[fmt.Sprint(p.Round, id)] {
				t.Errorf("%s twice in round %d", id, p.Round)
			}
			perRound[fmt.Sprint(p.Round, id)] = true
		}
		if p.Bye() {
			byes[p.Black]++
			continue
		}
		a, b := p.Black, p.White
		if b < a {
			a, b = b, a
		}
		met[a+"-"+b]++
	}
	for i, a := range names {
		if byes[a] != 1 {
			t.Errorf("%s had %d byes", a, byes[a])
		}
		for _, b := range names[i+1:] {
			x, y := a, b
			if y < x {
				x, y = y, x
			}
			if met[x+"-"+y] != 1 {
				t.Errorf("%s and %s met %d times", a, b, met[x+"-"+y])
			}
		}
	}
	if tour, _ := e.store.Tournament(context.Background(), 1); tour.Status != tournament.Finished {
		t.Fatalf("after five rounds: %s", tour.Status)
	}
	if n := len(e.results()); n != 10 {
		t.Fatalf("%d results lines, want 10 games", n)
	}
}

// A 10-minute arena of six through the terminal: whoever finishes a game
// is paired again at once when someone else is waiting, and only the two
// who just played each other wait (at most the arena's patience) for a
// rematch; at the end no new game starts and the arena finishes when the
// last game does.
func TestArenaOfSix(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice")
	e.say("alice #lobby: /tournament create format:arena minutes:10 time:1+0 size:4 rated:false")
	for _, p := range swissPlayers[:6] {
		e.say(p + " #lobby: click Join")
	}
	e.say("alice #lobby: /tournament start")
	start := e.clock.Now()
	for e.clock.Now().Sub(start) < 10*time.Minute {
		games := e.activeTournamentGames(1)
		if len(games) == 0 {
			e.say("wait 5s")
			continue
		}
		for _, g := range games {
			e.playOut(g.ID)
		}
		e.say("wait 20s") // a game takes a while; the waiting are paired on the tick
	}
	for _, g := range e.activeTournamentGames(1) {
		e.playOut(g.ID)
	}
	e.say("wait 5s")
	tour, _ := e.store.Tournament(context.Background(), 1)
	if tour.Status != tournament.Finished {
		t.Fatalf("after the arena's end: %s", tour.Status)
	}
	ps, err := e.store.Pairings(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 30 {
		t.Fatalf("only %d arena games in 10 minutes", len(ps))
	}
	// Each new game's start against its players' previous ends: a wait
	// longer than the patience (plus a tick) only with nobody else waiting.
	ended := map[string]time.Time{}
	longest := time.Duration(0)
	for _, p := range ps {
		g := e.gameByID(p.GameID)
		if g.CreatedAt.After(tour.EndsAt) {
			t.Errorf("game %d started after the arena's end", g.ID)
		}
		for _, id := range []string{p.Black, p.White} {
			if at, ok := ended[id]; ok {
				longest = max(longest, g.CreatedAt.Sub(at))
			}
			ended[id] = p.EndedAt
		}
	}
	if longest > tournament.Patience+20*time.Second {
		t.Errorf("a player waited %v for a new game", longest)
	}
	t.Logf("%d games; the longest wait for a new game: %v", len(ps), longest)
	out := e.say("alice #lobby: /tournament show id:1")
	expect(t, out, "Finished", "Perf")
}

// Bad input and the unexpected, each with a clear answer and no standing
// wrong: a tournament of one, entering twice, leaving before the start,
// leaving what one is not in, the organiser leaving as a player, and the
// tournament's channel deleted mid-round.
func TestTournamentRefusalsAndADeletedChannel(t *testing.T) {
	e := openThreads(t, 5)
	expect(t, e.say("bob #lobby: /tournament create format:swiss"), "Only members who may manage events")
	e.say("admin alice")
	expect(t, e.say("alice #lobby: /tournament create format:ladder"), "Choose a format: swiss, roundrobin or arena.")
	expect(t, e.say("alice #lobby: /tournament create format:swiss start:yesterday"), `I can't read "yesterday" as a start`)
	expect(t, e.say("alice #lobby: /tournament create format:arena time:1d"), "An arena needs a live clock")
	expect(t, e.say("alice #lobby: /tournament join"), "No tournament is open in this channel.")
	e.say("alice #lobby: /tournament create format:swiss start:1h size:4")
	expect(t, e.say("alice #lobby: /tournament join", "alice #lobby: /tournament join"), "You are already in tournament #1.")
	expect(t, e.say("alice #lobby: /tournament start"), "Tournament #1 needs at least two players to start.")
	expect(t, e.say("bob #lobby: /tournament leave"), "You are not in tournament #1.")
	e.say("bob #lobby: /tournament join")
	expect(t, e.say("bob #lobby: /tournament leave"), "You left tournament #1.")
	// Nobody else comes: at the start time it is canceled, saying why.
	expect(t, e.say("wait 50m"), "tournament #1 (Swiss tournament) starts")
	expect(t, e.say("wait 11m"), "Tournament #1 did not start: it needs at least two players.")
	expect(t, e.say("alice #lobby: /tournament join id:1"), "Entries to tournament #1 are closed.")

	// A second one, under way when its channel is deleted.
	e.say("alice #lobby: /tournament create format:roundrobin size:4")
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		e.say(p + " #lobby: click Join")
	}
	e.say("alice #lobby: /tournament start")
	games := e.activeTournamentGames(2)
	if len(games) != 2 {
		t.Fatalf("%d games in round 1", len(games))
	}
	e.playOut(games[0].ID)
	out := e.say("delete #lobby")
	expect(t, out, "(channel #lobby deleted, with its threads)")
	if tour, _ := e.store.Tournament(context.Background(), 2); tour.Status != tournament.Canceled {
		t.Fatalf("after its channel was deleted: %s", tour.Status)
	}
	if g := e.gameByID(games[1].ID); g.Status == record.Active {
		t.Fatal("a game of the deleted channel's tournament is still running")
	}
	if n := len(e.activeTournamentGames(2)); n != 0 {
		t.Fatalf("%d games running", n)
	}
	e.say("wait 1m") // a tick finds nothing left to do
	if ps, _ := e.store.Pairings(context.Background(), 2); len(ps) != 2 {
		t.Fatalf("%d pairings after the cancel: a new round was paired", len(ps))
	}
}

// Discord's limits as a contract at the largest tournament: 64 entrants
// with the longest names Discord allows (32 characters, every one a
// markdown character that needs escaping). The sign-up lists them all,
// the round's 32 boards are announced whole, the standings hold 64 rows,
// and no message breaks a limit (the service logs an error when it must
// cut one).
func TestTournamentMessagesAtTheLimits(t *testing.T) {
	e := openThreads(t, 5)
	logs := &lockedBuffer{}
	e.adapter.SetService(rebuild(e, slog.New(slog.NewTextHandler(logs, nil))))
	e.say("admin alice")
	e.say("alice #lobby: /tournament create format:swiss rounds:6 size:4 name:" + strings.Repeat("*", 50))
	var names []string
	var signup string
	for i := 0; i < 64; i++ {
		name := fmt.Sprintf("p%02d", i) + strings.Repeat("_", 29)
		names = append(names, name)
		signup = e.say(name + " #lobby: click Join")
	}
	expect(t, signup, "64 players", "p00", "p63")
	expect(t, e.say("late #lobby: click Join"), "Tournament #1 is full: it takes 64 players at most.")
	out := e.say("alice #lobby: /tournament start")
	expect(t, out, "Round 1 of 6", "32. ⚫")
	if strings.Contains(out, "… +") {
		t.Errorf("the round was cut:\n%s", out)
	}
	show := e.say(names[0] + " #lobby: /tournament show")
	if rows := strings.Count(show, strings.Repeat("_", 13)); rows < 64 {
		t.Errorf("the standings show %d of 64 players:\n%s", rows, show)
	}
	if strings.Contains(logs.String(), "broke Discord's limits") {
		t.Fatalf("a message broke Discord's limits:\n%s", logs)
	}
}

// BenchmarkStartSwiss64 times the start of a 64-player Swiss through the
// terminal on SQLite: round 1 paired, its 32 games opened in their
// threads and announced, the standings posted.
func BenchmarkStartSwiss64(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		e := openOn(b, dir, filepath.Join(dir, "bot.db"), "", time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), true, nil)
		e.say("admin alice", "alice #lobby: /tournament create format:swiss rounds:6 size:8")
		for i := 0; i < 64; i++ {
			e.say(fmt.Sprintf("p%02d #lobby: /tournament join", i))
		}
		b.StartTimer()
		e.say("alice #lobby: /tournament start")
		b.StopTimer()
		if ps, _ := e.store.Pairings(context.Background(), 1); len(ps) != 32 {
			b.Fatalf("%d pairings", len(ps))
		}
		e.store.Close()
		b.StartTimer()
	}
}

// A tick that changes nothing edits nothing: the standings message is
// edited when a game ends, not every few seconds (Discord limits edits).
func TestIdleTicksLeaveTheStandingsAlone(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice", "alice #lobby: /tournament create format:roundrobin size:4 time:10+0")
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		e.say(p + " #lobby: click Join")
	}
	e.say("alice #lobby: /tournament start")
	if out := e.say("wait 5s", "wait 5s", "wait 5s"); strings.Contains(out, "Standings") {
		t.Fatalf("idle ticks edited the standings:\n%s", out)
	}
	e.playOut(e.activeTournamentGames(1)[0].ID)
	if out := e.say("wait 5s"); strings.Contains(out, "Standings") {
		t.Fatalf("a tick after the game's end edited the standings again:\n%s", out)
	}
}
