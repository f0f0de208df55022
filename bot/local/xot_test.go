package local_test

import (
	"context"
	"strings"
	"testing"

	"othello-bot/game"
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

// /start and /challenge with xot:true open the game from an XOT opening,
// named on the board; the transcript in the results log holds it; another
// size is refused.
func TestXOTStarts(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/start level:1 xot:true color:black")
	expect(t, out, "XOT opening: ")
	g := e.game()
	if len(g.Plies()) != 8 || !isXOT(g.State.Moves()) || g.ToMove().IsBot() {
		t.Fatalf("the game after an XOT start: %d plies %v", len(g.Plies()), g.State.Moves())
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
	if !isXOT(pvp.State.Moves()) || len(pvp.Plies()) != 8 {
		t.Fatalf("the challenge's game: %v", pvp.State.Moves())
	}
	e.playOut(pvp.ID)
	lines := e.results()
	last := lines[len(lines)-1]
	if !strings.Contains(last, `transcript="`+game.FormatTranscript(pvp.State.Moves()[:8], 8)) {
		t.Fatalf("the results line does not start with the opening: %s", last)
	}
}
