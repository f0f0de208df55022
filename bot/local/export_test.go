package local_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"othello-bot/game"
	"othello-bot/ggf"
)

// /export gives the asker a finished game's moves and its GGF record,
// which replays to the very game; a running or unknown game is refused.
func TestExportAFinishedGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:6")
	for e.game() != nil {
		g := e.game()
		if len(g.Position().LegalMoves()) == 0 {
			break
		}
		if out := e.say("select " + g.Position().LegalMoves()[0].String()); strings.Contains(out, "Result") {
			break
		}
	}
	played, err := e.store.Game(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	out := e.say("/export game:1")
	expect(t, out, "(only visible to alice)", "Moves: "+played.Transcript(), "othello-game-1.ggf")
	data, err := os.ReadFile(filepath.Join(e.dir, "boards", "othello-game-1.ggf"))
	if err != nil {
		t.Fatalf("no record saved: %v\n%s", err, out)
	}
	rec, err := ggf.Parse(string(data))
	if err != nil {
		t.Fatalf("the record does not read: %v\n%s", err, data)
	}
	replayed, err := game.ReplayPlies(rec.Start, rec.Plies)
	if err != nil || !slices.Equal(replayed.Position().Cells(), played.Position().Cells()) || rec.Black != "alice" ||
		rec.White != "othello-bot-level-1" || rec.Result == "" {
		t.Fatalf("the record %s is not game 1 (%v)", data, err)
	}
	e.say("/start level:1 color:black size:4")
	expect(t, e.say("/export game:2"), "Game #2 is still going")
	expect(t, e.say("/export game:99"), "There is no game #99 here.")
	expect(t, e.say("/export game:x"), "Which game?")
}
