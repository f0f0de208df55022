package local_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// rated plays a rated game in a channel: the loser resigns after both
// sides have moved twice.
func (e *env) rated(channel, winner, loser string) string {
	e.t.Helper()
	e.say(winner+" #"+channel+": /challenge @"+loser+" color:black size:6", loser+" #"+channel+": click Accept")
	for i := 0; i < 4; i++ {
		g, err := e.store.ActiveGame(context.Background(), channel)
		if err != nil {
			e.t.Fatal(err)
		}
		e.say(g.ToMove().Player.ID + " #" + channel + ": select " + g.Position().LegalMoves()[0].String())
	}
	out := e.say(loser+" #"+channel+": /resign", loser+" #"+channel+": click Resign")
	e.say("wait 1m") // past the challenge cooldown
	return out
}

// Rating roles through the terminal: an admin turns them on; after a
// rated game both players get the role of their new band, made as it is
// first needed; the next games move them between bands, each role taken
// as the next is given; members without Manage Server cannot set them.
func TestRatingRolesFollowRatedGames(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("bob: /settings roles:on"), "Only members with the Manage Server permission can set rating roles.")
	e.say("admin alice")
	expect(t, e.say("alice: /settings roles:on role-step:100"), "Rating roles are on", "Blitz 1500–1599")
	out := e.rated("lobby", "alice", "bob")
	expect(t, out, "(role Correspondence 1600–1699 made)", "(alice now has the role Correspondence 1600–1699)",
		"(role Correspondence 1300–1399 made)", "(bob now has the role Correspondence 1300–1399)")
	out = e.rated("lobby", "alice", "bob")
	expect(t, out, "(alice no longer has the role Correspondence 1600–1699)", "(bob no longer has the role Correspondence 1300–1399)")
	if strings.Count(out, "now has the role") != 2 {
		t.Errorf("the second game did not move both players:\n%s", out)
	}
	expect(t, e.say("alice: /settings"), "Rating roles: bands of 100 points per speed")
	expect(t, e.say("alice: /settings roles:off"), "Rating roles are off")
	if strings.Contains(e.rated("lobby", "bob", "alice"), "has the role") {
		t.Error("roles moved after they were turned off")
	}
}

// A finished tournament's winners (all who share first place) hold the
// server's champion role (with rating roles on), and nobody else: the
// winners of the one before lose it.
func TestTournamentWinnerIsChampion(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice")
	e.say("alice #lobby: /settings roles:on")
	holders := map[string]bool{}
	gained := regexp.MustCompile(`\((\w+) now has the role Othello champion\)`)
	lost := regexp.MustCompile(`\((\w+) no longer has the role Othello champion\)`)
	gold := regexp.MustCompile(`🥇 @(\w+)`)
	for n := 1; n <= 2; n++ {
		players := []string{"alice", "bob", "carol", "dave"}[:2+n] // another field each time
		e.say("alice #lobby: /tournament create format:roundrobin time:3+2 size:4 rated:false")
		for _, p := range players {
			e.say(p + " #lobby: /tournament join")
		}
		e.say("alice #lobby: /tournament start")
		before := e.out.Len()
		for round := 1; round <= len(players); round++ {
			for _, g := range e.activeTournamentGames(int64(n)) {
				e.playOut(g.ID)
			}
		}
		out := e.out.String()[before:]
		for _, m := range gained.FindAllStringSubmatch(out, -1) {
			holders[m[1]] = true
		}
		for _, m := range lost.FindAllStringSubmatch(out, -1) {
			delete(holders, m[1])
		}
		want := map[string]bool{}
		for _, m := range gold.FindAllStringSubmatch(out, -1) {
			want[m[1]] = true
		}
		if len(want) == 0 || fmt.Sprint(holders) != fmt.Sprint(want) {
			t.Fatalf("tournament %d: the champion role is held by %v, first place is %v:\n%s", n, holders, want, out)
		}
	}
	if strings.Count(e.out.String(), "(role Othello champion made)") != 1 {
		t.Error("the champion role was made more than once")
	}
}

// The month's puzzle leader: with rating roles on, as a month begins whoever
// solved the most puzzles in the server the month before holds the
// "Puzzle leader" role, taken from last month's.
func TestPuzzleLeaderOfTheMonth(t *testing.T) {
	e := openWithPuzzles(t) // 2026-11-22 12:00 UTC
	e.say("admin alice")
	e.say("alice #lobby: /settings roles:on")
	solve := func(user string, n int) {
		for range n {
			p := e.lastPuzzle(e.say(user + " #lobby: /puzzle"))
			var out string
			for step := 0; step < len(p.Line); step += 2 {
				out = e.say(user + " #lobby: select " + p.Line[step].String())
			}
			expect(t, out, "solved!")
		}
	}
	solve("bob", 2)
	solve("alice", 1)
	if out := e.say("wait 24h"); strings.Contains(out, "Puzzle leader") {
		t.Fatalf("a title given before the month's end:\n%s", out)
	}
	out := e.say("wait 192h") // December 1st
	expect(t, out, "(role Puzzle leader made)", "(bob now has the role Puzzle leader)")
	if strings.Contains(out, "alice now has the role Puzzle leader") {
		t.Errorf("alice, with one solved to bob's two, is crowned:\n%s", out)
	}
	if out := e.say("wait 24h"); strings.Contains(out, "Puzzle leader") {
		t.Errorf("the title moved again within the month:\n%s", out)
	}
	solve("alice", 2)
	solve("carol", 2)
	out = e.say("wait 744h") // January 2nd
	expect(t, out, "(alice now has the role Puzzle leader)", "(carol now has the role Puzzle leader)",
		"(bob no longer has the role Puzzle leader)")
	if strings.Count(e.out.String(), "(role Puzzle leader made)") != 1 {
		t.Error("the role was made more than once")
	}
}
