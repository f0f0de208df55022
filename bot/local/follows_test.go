package local_test

import (
	"strings"
	"testing"
)

// Following through the terminal: carol follows bob and is pinged when he
// starts a game (against the bot, or by a challenge), not when others do;
// /follow alone lists whom she follows; /follow again stops it.
func TestFollowAPlayer(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("carol #lobby: /follow @bob"), "(only visible to carol)", "You follow bob")
	expect(t, e.say("carol #lobby: /follow"), "You follow: bob")
	expect(t, e.say("carol #lobby: /follow @carol"), "You are pinged by your own games already.")
	out := e.say("bob #den: /start level:1 color:black size:6")
	expect(t, out, "👀 @carol: game #1 has begun, bob vs Bot (level 1), in #den.")
	if strings.Contains(e.say("alice #hall: /start level:1 size:6"), "👀") {
		t.Error("carol was pinged for a game bob does not play")
	}
	e.say("alice #lobby: /challenge @bob color:black")
	expect(t, e.say("bob #lobby: click Accept"), "👀 @carol: game #3 has begun, alice vs bob")
	expect(t, e.say("carol #lobby: /follow @bob"), "You no longer follow bob.")
	e.say("bob #den: /resign", "bob #den: click Resign")
	if strings.Contains(e.say("bob #den: /start level:1 size:6"), "👀") {
		t.Error("carol was pinged after she stopped following")
	}
}
