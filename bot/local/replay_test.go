package local_test

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// /replay and the Replay button draw a finished game as a GIF, saved where
// pictures go; a running or unknown game is refused.
func TestReplayOfAFinishedGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:4")
	for e.game() != nil {
		g := e.game()
		if len(g.Position().LegalMoves()) == 0 {
			break
		}
		out := e.say("select " + g.Position().LegalMoves()[0].String())
		if strings.Contains(out, "Result") {
			break
		}
	}
	out := e.say("/replay game:1")
	expect(t, out, "Replay of game #1", "game-1-replay.gif")
	data, err := os.ReadFile(filepath.Join(e.dir, "boards", "game-1-replay.gif"))
	if err != nil {
		t.Fatalf("the GIF was not saved: %v\n%s", err, out)
	}
	if g, err := gif.DecodeAll(bytes.NewReader(data)); err != nil || len(g.Image) < 10 {
		t.Fatalf("the saved GIF: %v", err)
	}
	expect(t, e.say("bob: click Replay"), "Replay of game #1")
	e.say("/start level:1 color:black size:4")
	expect(t, e.say("/replay game:2"), "(only visible to alice)", "Game #2 is still going")
	expect(t, e.say("/replay game:99"), "There is no game #99 here.")
	expect(t, e.say("/replay game:x"), "Which game?")
}
