package local_test

import (
	"strings"
	"testing"
)

// A game aborted before both sides moved twice never was a game: /stats
// does not count it as unfinished (#44); an abandoned one is.
func TestStatsDoNotCountAbortedGames(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:6", "/resign", "click Resign")
	out := e.say("/stats")
	expect(t, out, "Stats · alice")
	if strings.Contains(out, "unfinished") {
		t.Errorf("an aborted game counts as unfinished:\n%s", out)
	}
	e.say("/start level:1 color:black size:6")
	e.say("select " + e.game().Position().LegalMoves()[0].String())
	e.say("wait 200h") // abandonAfter: the game against the bot ends as abandoned
	if out := e.say("/stats"); !strings.Contains(out, "1 unfinished") {
		t.Errorf("an abandoned game is not counted as unfinished:\n%s", out)
	}
}
