package local_test

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
)

// The hint marks the moves the engine's opening book plays, and the
// analysis of a game says where it left the book.
func TestBookMovesInHintAndAnalysis(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:8")
	expect(t, e.say("/hint"), "📖 book", "📖 a move my opening book plays here.")
	e.say("/resign", "click Resign")

	// A game that leaves the book at move 2: f5, then a reply the book
	// does not play.
	eng := engine.New(engine.Options{Searches: 1})
	start, _ := game.NewPosition(8)
	f5, _ := game.ParseSquare("f5", 8)
	p, _ := start.Play(f5)
	var off game.Square
	found := false
	for _, m := range p.LegalMoves() {
		if !slices.Contains(eng.BookMoves(p), m) {
			off, found = m, true
		}
	}
	if !found || len(eng.BookMoves(start)) == 0 {
		t.Fatalf("the book plays every reply to f5 (%v) or nothing at the start", eng.BookMoves(p))
	}
	e.say("alice #lobby: /challenge @bob color:black rated:false", "bob #lobby: click Accept")
	e.playLine("lobby", "f5"+off.String())
	g, err := e.store.ActiveGame(context.Background(), "lobby")
	if err != nil {
		t.Fatal(err)
	}
	e.say("alice #lobby: /resign", "alice #lobby: click Resign")
	e.say("alice #lobby: /analyze game:" + strconv.FormatInt(g.ID, 10))
	e.adapter.Service().WaitAnalyses()
	expect(t, e.out.String(), "📘 My opening book: the game left it at move 2.")
}
