package local_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

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
	games = e.activeTournamentGames(1)
	leaver := games[0].Black.Player.ID
	expect(t, e.say(leaver+" #lobby: /tournament leave"), "You withdrew from tournament #1")
	for _, g := range e.activeTournamentGames(1) {
		e.playOut(g.ID)
	}
	// Round 3 pairs the seven left: one of them has the bye.
	for _, g := range e.activeTournamentGames(1) {
		if g.Black.Player.ID == leaver || g.White.Player.ID == leaver {
			t.Fatalf("the withdrawn %s was paired in game %d", leaver, g.ID)
		}
		e.playOut(g.ID)
	}
	tour, err := e.store.Tournament(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != tournament.Finished || tour.Round != 3 {
		t.Fatalf("after round 3: %s, round %d", tour.Status, tour.Round)
	}
	out = e.say("alice #lobby: /tournament show id:1")
	expect(t, out, "Standings · tournament #1: Friday Swiss", "Finished")

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
	buchholz := map[string]float64{}
	for id, os := range opponents {
		for _, o := range os {
			buchholz[id] += points[o]
		}
	}
	table := shown[strings.Index(shown, "```")+4:]
	table = table[:strings.Index(table, "```")]
	rows := strings.Split(strings.TrimSpace(table), "\n")[1:]
	var order []string
	for _, row := range rows {
		cols := strings.Fields(strings.ReplaceAll(row, " ✗", "")) // the withdrawn player's mark
		name := cols[1]
		want := fmt.Sprintf("%s %s %s", half(points[name]), half(buchholz[name]), signedInt(discs[name]))
		got := cols[2] + " " + cols[4] + " " + cols[len(cols)-1]
		if got != want {
			t.Errorf("%s: shown points, Buchholz, discs %q; recomputed %q", name, got, want)
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
