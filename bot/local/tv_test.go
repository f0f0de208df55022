package local_test

import (
	"regexp"
	"strings"
	"testing"
)

// screenOf finds the number of the message a TV screen is, in #tv.
var screenOf = regexp.MustCompile(`--- bot, message (\d+) in #tv ---\n== 📺 Game #(\d+)`)

// Othello TV through the terminal: an admin turns it on in #tv; the
// server's live game appears there, its screen is edited move by move
// (with the last move and the evaluation bar, never the players' menu),
// shows the end, and the next game gets a screen of its own. Members
// without Manage Server cannot set it.
func TestTVFollowsTheServersGame(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("bob #tv: /settings tv:here"), "Only members with the Manage Server permission can set Othello TV.")
	e.say("admin alice")
	expect(t, e.say("alice #tv: /settings tv:here"), "Othello TV is on in #tv")
	expect(t, e.say("alice #tv: /settings"), "Othello TV: #tv")

	e.say("alice #lobby: /challenge @bob color:black rated:false", "bob #lobby: click Accept")
	out := e.say("wait 1s")
	first := screenOf.FindStringSubmatch(out)
	if first == nil || first[2] != "1" {
		t.Fatalf("no screen of game #1 in #tv:\n%s", out)
	}
	expect(t, out, "Evaluation", "ahead by about")
	if strings.Contains(out, "[Resign]") || strings.Contains(out, "<select") {
		t.Errorf("the screen acts on the game:\n%s", out)
	}
	edited := "message " + first[1] + " in #tv (edited)"
	e.playLine("lobby", "f5")
	expect(t, e.say("wait 1s"), edited, "alice ⚫ played f5.", "Black ahead by about")
	if strings.Contains(e.say("wait 1s"), "(edited)") {
		t.Error("a screen with nothing new was edited")
	}
	e.playLine("lobby", "d6c3d3c4")
	expect(t, e.say("wait 1s"), edited, "alice ⚫ played c4.")
	e.say("bob #lobby: /resign", "bob #lobby: click Resign")
	out = e.say("wait 1s")
	expect(t, out, edited, "Result:")
	if strings.Contains(out, "Evaluation") {
		t.Errorf("a finished game's screen still weighs it:\n%s", out)
	}

	e.say("carol #den: /start level:1 color:black size:6")
	out = e.say("wait 1s", "wait 1s")
	next := screenOf.FindStringSubmatch(out)
	if next == nil || next[2] != "2" || next[1] == first[1] || strings.Contains(out, edited) {
		t.Errorf("the next game did not get a screen of its own:\n%s", out)
	}
	expect(t, e.say("alice #tv: /settings tv:off"), "Othello TV is off.")
	if strings.Contains(e.say("carol #den: select a1", "wait 1s"), "in #tv") {
		t.Error("the TV goes on after it was turned off")
	}
}
