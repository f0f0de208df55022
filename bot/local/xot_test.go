package local_test

import (
	"context"
	"strings"
	"testing"

	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/xot"
)

// isXOT reports whether a game's first eight moves are one of the XOT
// openings.
func isXOT(moves []game.Square) bool {
	if len(moves) < 8 {
		return false
	}
	t := game.FormatTranscript(moves[:8], 8)
	for _, o := range xot.All() {
		if o.Transcript() == t {
			return true
		}
	}
	return false
}

// reached reports whether moves from the standard start reach pos.
func reached(moves []game.Square, pos game.Position) bool {
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for _, m := range moves {
		if _, err := g.Play(m); err != nil {
			return false
		}
	}
	return g.Position().Equal(pos)
}

// /start and /challenge with xot:true open the game from an XOT opening,
// named on the board; the transcript in the results log holds it; another
// size is refused.
func TestXOTStarts(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/start level:1 xot:true color:black")
	expect(t, out, "XOT opening: ")
	g := e.game()
	if len(g.Plies()) != 0 || !isXOT(g.Opening) || g.ToMove().IsBot() || !reached(g.Opening, g.State.Start()) {
		t.Fatalf("the game after an XOT start: %d plies, opening %v", len(g.Plies()), g.Opening)
	}
	expect(t, e.say("alice #lobby: /start size:6 xot:true"), "XOT openings are for 8x8 boards.")
	expect(t, e.say("alice #lobby: /start xot:maybe"), "The xot option takes true or false.")

	out = e.say("alice #lobby: /challenge @bob xot:true rated:false")
	expect(t, out, "from an XOT opening")
	out = e.say("bob #lobby: click Accept")
	expect(t, out, "XOT opening: ")
	pvp, err := e.store.ActiveGame(context.Background(), "lobby")
	if err != nil {
		t.Fatal(err)
	}
	if !isXOT(pvp.Opening) || len(pvp.Plies()) != 0 || !reached(pvp.Opening, pvp.State.Start()) {
		t.Fatalf("the challenge's game: opening %v, %d plies", pvp.Opening, len(pvp.Plies()))
	}
	e.playOut(pvp.ID)
	lines := e.results()
	last := lines[len(lines)-1]
	if !strings.Contains(last, `transcript="`+game.FormatTranscript(pvp.Opening, 8)+game.FormatTranscript(e.gameByID(pvp.ID).State.Moves(), 8)+`"`) {
		t.Fatalf("the results line does not start with the opening: %s", last)
	}
}

// The eight XOT moves are the start position, not moves of the game (#44):
// a live XOT game gives its first mover the window every live game gives,
// and resigning before a move of one's own aborts the game as it would
// from the usual start.
func TestXOTOpeningIsTheStart(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/challenge @bob time:5+3 xot:true color:black rated:true", "bob: click Accept")
	expect(t, out, "XOT opening: ", "or the game is aborted")
	g := e.game()
	if len(g.Plies()) != 0 || len(g.Opening) != 8 {
		t.Fatalf("an XOT game starts with %d plies and an opening of %d moves", len(g.Plies()), len(g.Opening))
	}
	e.say("wait 40s") // past the first-move window: aborted, nobody loses on time
	if g = e.gameByID(g.ID); g.Status != record.Aborted || g.Result.Reason != record.EndAbort {
		t.Errorf("the first move never came: %s %s", g.Status, g.Result.Reason)
	}

	e.say("/start level:1 xot:true color:black")
	g = e.game()
	e.say("/resign", "click Resign")
	if g = e.gameByID(g.ID); g.Result.Reason != record.EndAbort {
		t.Errorf("resigning before one's own first move: %s, winner %v", g.Result.Reason, g.Result.Winner)
	}
}
