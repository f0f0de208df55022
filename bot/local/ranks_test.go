package local_test

import (
	"context"
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
