package local_test

import (
	"bytes"
	"context"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"othello-bot/bot/local"
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

// playToEnd plays the channel's game with the first legal move each turn.
func (e *env) playToEnd() {
	e.t.Helper()
	for i := 0; i < 100; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			return
		}
		e.say(g.ToMove().Player.ID + ": select " + g.Position().LegalMoves()[0].String())
	}
	e.t.Fatal("the game did not end")
}

// /analyze works in the background with a progress message, then shows
// each player's summary and a graph, saved as a picture; a second ask is
// answered from the store at once; games still going or too large are
// refused; a second game waits its turn.
func TestAnalyzeAFinishedGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:2 color:black size:6")
	e.playToEnd()
	e.say("/start level:2 color:white size:6")
	e.playToEnd()
	out := e.say("/analyze game:1", "/analyze game:2", "bob: /analyze game:1")
	expect(t, out, "I'm analysing game #1", "Analysing game #1", "Game #1 is being analysed already")
	e.adapter.Service().WaitAnalyses()
	out = e.out.String()
	expect(t, out, "Game #2 (Bot (level 2) vs alice) will be analysed after 1 game ahead of it.",
		"Analysis of game #1 · alice vs Bot (level 2)", "accuracy", "moves best", "game-1-analysis.png", "Analysis of game #2")
	if _, err := os.Stat(filepath.Join(e.dir, "boards", "game-1-analysis.png")); err != nil {
		t.Errorf("the graph was not saved: %v", err)
	}
	if _, err := e.store.Analysis(context.Background(), 1); err != nil {
		t.Fatalf("the analysis was not stored: %v", err)
	}
	out = e.say("/analyze game:1")
	expect(t, out, "Analysis of game #1")
	if strings.Contains(out, "I'm analysing") {
		t.Error("a stored analysis was worked out again")
	}
	e.say("/start level:1 size:10")
	expect(t, e.say("/analyze game:3"), "Game #3 is still going")
	e.say("/resign", "click Resign")
	expect(t, e.say("/analyze game:3"), "I can analyse games on boards up to 8x8")
}
