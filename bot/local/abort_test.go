package local_test

import (
	"strings"
	"testing"
)

// A game against the bot its player walks away from ends as abandoned
// after the inactivity timeout, frees the channel, and counts as
// unfinished.
func TestAbandonedGameFreesTheChannel(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black")
	g := e.game()
	e.say("select " + g.Position().LegalMoves()[0].String())
	if out := e.say("wait 167h"); strings.Contains(out, "abandoned") {
		t.Fatalf("abandoned before the timeout:\n%s", out)
	}
	expect(t, e.say("wait 2h"), "Game #1 ended as abandoned")
	if out := e.say("wait 200h"); strings.Contains(out, "abandoned") {
		t.Errorf("abandoned twice:\n%s", out)
	}
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], "winner=none end=abandoned") {
		t.Errorf("results log %q", lines)
	}
	expect(t, e.say("/stats"), "0 won, 0 lost, 0 drawn, 1 unfinished")
	expect(t, e.say("/start level:1"), "Game #2")
}

// A game its player never moves in ends too.
func TestUntouchedGameIsAbandoned(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black")
	expect(t, e.say("wait 169h"), "Game #1 ended as abandoned")
}

// A move resets the inactivity timeout.
func TestMovingKeepsAGameAlive(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black")
	for i := 0; i < 3; i++ {
		e.say("wait 100h")
		g := e.game()
		e.say("select " + g.Position().LegalMoves()[0].String())
	}
	if out := e.say("wait 100h"); strings.Contains(out, "abandoned") {
		t.Errorf("a game with a move every 100 hours was abandoned:\n%s", out)
	}
}

// Players may abort only early; a moderator may end any game, with a
// reason that goes into the results log line.
func TestAbortByPlayersAndModerators(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black", "bob: click Accept")
	for i := 0; i < 4; i++ {
		g := e.game()
		e.say(g.ToMove().Player.ID + ": select " + g.Position().LegalMoves()[0].String())
	}
	expect(t, e.say("alice: /abort"), "(only visible to alice)", "can no longer be aborted; /resign ends it")
	expect(t, e.say("carol: /abort reason:boring"), "(only visible to carol)", "Only the game's players")
	if e.game() == nil || len(e.results()) != 0 {
		t.Fatal("a refused /abort changed the game")
	}
	expect(t, e.say("moderator carol"), "carol is now a moderator")
	out := e.say("carol: /abort reason:players   asked for it   **loudly**")
	expect(t, out, "A moderator, carol, ended the game: players asked for it **loudly**", "was ended by a moderator")
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], `winner=none end=aborted-by-moderator note="players asked for it **loudly**" time=1d transcript=`) {
		t.Errorf("results log %q", lines)
	}
	expect(t, e.say("bob: /abort"), "no game in this channel")
}

func TestPlayerAbortsEarly(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:3 color:white") // the bot moves first
	expect(t, e.say("/abort"), "alice aborted the game.", "aborted before both sides had moved twice")
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], "end=abort ") {
		t.Errorf("results log %q", lines)
	}
}

// /undo takes back the player's move and the bot's reply in a casual game
// against the bot, shows it, and refuses everywhere else.
func TestUndo(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:3 color:black")
	expect(t, e.say("/undo"), "You have not made a move to take back yet.")
	start := e.game().Position()
	first := start.LegalMoves()[0]
	e.say("select " + first.String())
	g := e.game()
	if len(g.Plies()) != 2 {
		t.Fatalf("%d plies after a move and the bot's reply", len(g.Plies()))
	}
	reply := g.Plies()[1].Square
	expect(t, e.say("bob: /undo"), "(only visible to bob)", "You are not playing in this game.")
	out := e.say("/undo")
	expect(t, out, "alice took back "+first.String()+" and "+reply.String()+".", "Takebacks: 1")
	g = e.game()
	if len(g.Plies()) != 0 || !g.Position().Equal(start) || g.Takebacks != 1 {
		t.Fatalf("after /undo: %d plies, takebacks %d", len(g.Plies()), g.Takebacks)
	}
	// The game goes on from there, and survives a restart as it is now.
	e.say("select " + first.String())
	e = reopen(e)
	if g := e.game(); len(g.Plies()) != 2 || g.Takebacks != 1 {
		t.Fatalf("after a restart: %d plies, takebacks %d", len(g.Plies()), g.Takebacks)
	}
	e.say("/resign", "click Resign")
	expect(t, e.say("/history"), "1 takeback")
}

func TestUndoRefusedBetweenMembers(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black rated:false", "bob: click Accept")
	g := e.game()
	e.say("select " + g.Position().LegalMoves()[0].String())
	expect(t, e.say("/undo"), "between members every move stands")
	if len(e.game().Plies()) != 1 {
		t.Error("a refused /undo changed the game")
	}
}

func TestGamesListsRunningGames(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("/games"), "No games are running here right now.")
	e.say("/start level:2 color:black size:6")
	out := e.say("bob: /games")
	expect(t, out, "Running games", "#1 alice ⚫ vs Bot (level 2) ⚪ (6x6) · alice to move since just now · #terminal · board")
	expect(t, e.say("/games user:@bob"), "bob has no running games here.")
	expect(t, e.say("/games user:@alice"), "Running games · alice", "#1 alice")
}

// A finished game's board marks no legal moves, as emoji and as a picture,
// and the picture's caption says how it ended; it does not overwrite the
// last picture of the running game.
func TestFinishedBoardsShowNoLegalMoves(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black")
	out := e.say("/resign", "click Resign")
	final := out[strings.LastIndex(out, "--- bot"):]
	if !strings.Contains(out, "aborted") || strings.Contains(final, "🟨") {
		t.Errorf("the final board marks legal moves:\n%s", final)
	}
	e.say("/start level:1 color:black size:12")
	g := e.game()
	e.say("select " + g.Position().LegalMoves()[0].String())
	e.say("select " + e.game().Position().LegalMoves()[0].String())
	out = e.say("/resign", "click Resign")
	expect(t, out, "board-2-4-final.png")
}
