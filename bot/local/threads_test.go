package local_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/record"
)

// openThreads starts the terminal bot with a thread per game.
func openThreads(t *testing.T, maxGames int) *env {
	e := open(t, t.TempDir())
	e.cfg.Threads, e.cfg.ArchiveAfter, e.cfg.MaxGamesPerPlayer = true, time.Hour, maxGames
	e.adapter.SetService(rebuild(e, quiet))
	return e
}

func (e *env) gameByID(id int64) *record.Game {
	e.t.Helper()
	g, err := e.store.Game(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

// playOut plays the first legal move for whoever is to move in game id,
// in its thread, until the game ends.
func (e *env) playOut(id int64) {
	e.t.Helper()
	for n := 0; n < 100; n++ {
		g := e.gameByID(id)
		if g.Status != record.Active {
			return
		}
		e.say(g.ToMove().Player.ID + " #" + g.ChannelID + ": select " + g.Position().LegalMoves()[0].String())
	}
	e.t.Fatalf("game %d did not end", id)
}

// Two games at once from one channel, each in its own thread, played to
// the end; /games lists both meanwhile; their threads are archived an hour
// after they end; a finished game's thread takes no new game.
func TestTwoGamesInThreadsOfOneChannel(t *testing.T) {
	e := openThreads(t, 5)
	out := e.say("alice #lobby: /start level:1 size:4 color:black")
	expect(t, out, "(thread #thread-", "opened in #lobby: Game #1 · alice vs Bot (level 1))", "alice started game #1 against Bot (level 1): #thread-")
	g1 := e.gameByID(1)
	if g1.ParentID != "lobby" || !strings.HasPrefix(g1.ChannelID, "thread-") {
		t.Fatalf("game 1 lives in %q off %q", g1.ChannelID, g1.ParentID)
	}
	expect(t, out, "in thread #"+g1.ChannelID+" (Game #1 · alice vs Bot (level 1)) ---", "Left alone: ends in 7 days")
	e.say("bob #lobby: /challenge @carol size:4 rated:false color:black")
	out = e.say("carol #lobby: click Accept")
	expect(t, out, "carol accepted bob's challenge. Game #2 is on in #thread-", "it's your move in game #2.")
	g2 := e.gameByID(2)
	if g2.ParentID != "lobby" || g2.ChannelID == g1.ChannelID {
		t.Fatalf("game 2 lives in %q off %q", g2.ChannelID, g2.ParentID)
	}
	expect(t, e.say("dave #lobby: /games"), "#1 alice ⚫ vs Bot (level 1) ⚪ (4x4)", "#2 bob ⚫ vs carol ⚪", "#"+g1.ChannelID, "#"+g2.ChannelID)
	// Moves in someone else's thread are refused and change nothing.
	expect(t, e.say("bob #"+g1.ChannelID+": /move a1"), "(only visible to bob)", "You are not playing in this game.")
	e.playOut(1)
	e.playOut(2)
	if lines := e.results(); len(lines) != 2 {
		t.Fatalf("results log %q", lines)
	}
	expect(t, e.say("alice #"+g1.ChannelID+": /start"), "(only visible to alice)", "This thread was game #1's, which is over. Start a new game in #lobby.")
	out = e.say("wait 61m")
	expect(t, out, "(thread #"+g1.ChannelID+" archived", "(thread #"+g2.ChannelID+" archived")
	if strings.Count(e.say("wait 2h"), "archived") != 0 {
		t.Error("a thread archived twice")
	}
	// A new game from the channel gets a new thread.
	expect(t, e.say("alice #lobby: /start level:1 size:4"), "alice started game #3")
	if g3 := e.gameByID(3); g3.ChannelID == g1.ChannelID || g3.ParentID != "lobby" {
		t.Errorf("game 3 lives in %q", g3.ChannelID)
	}
}

// A player may run several games at once, up to the limit.
func TestGamesPerPlayerLimit(t *testing.T) {
	e := openThreads(t, 2)
	e.say("#lobby: /start level:1", "#lobby: /start level:2")
	expect(t, e.say("#lobby: /start level:3"), "(only visible to alice)", "alice already has 2 games running, the most at once here.")
	if _, err := e.store.Game(context.Background(), 3); err == nil {
		t.Error("a third game was created")
	}
}

// A thread deleted mid-game ends its game without a result, nothing lost:
// the moves so far are in the results log, and the channel is told.
func TestDeletedThreadEndsItsGame(t *testing.T) {
	e := openThreads(t, 5)
	e.say("#lobby: /start level:1 color:black")
	g := e.gameByID(1)
	e.say("#" + g.ChannelID + ": select " + g.Position().LegalMoves()[0].String())
	out := e.say("delete #" + g.ChannelID)
	expect(t, out, "in #lobby ---", "Game #1 (alice vs Bot (level 1)) ended: its thread was deleted. It does not count.")
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], `end=aborted-by-moderator note="its thread was deleted"`) ||
		!strings.Contains(lines[0], "transcript=\""+strings.ToLower(g.Position().LegalMoves()[0].String())) {
		t.Errorf("results log %q", lines)
	}
	if g := e.gameByID(1); g.Status == record.Active || len(g.Plies()) != 2 {
		t.Errorf("after the delete: %s with %d plies", g.Status, len(g.Plies()))
	}
	expect(t, e.say("#lobby: /start level:1"), "alice started game #2")
}

// No thread opens from a thread: a /start in a game's thread is pointed
// to the channel the thread is in.
func TestNoThreadInAThread(t *testing.T) {
	e := openThreads(t, 5)
	e.say("bob #lobby: /challenge @carol color:black", "carol #lobby: click Accept")
	g := e.gameByID(1)
	expect(t, e.say("dave #"+g.ChannelID+": /start"), "(only visible to dave)", "Game #1 (bob vs carol) is running in this thread. Start yours from #lobby.")
	expect(t, e.say("bob #"+g.ChannelID+": /start"), "(only visible to bob)", "Game #1 is already running in this thread. Finish it first, or start another from #lobby.")
	expect(t, e.say("dave #"+g.ChannelID+": /challenge @erin"), "(only visible to dave)", "Game #1 is running in this thread. Challenge from #lobby.")
}

// A /board answered while a resignation is being handled: its reply is
// posted after the game ended (Posted runs outside the game's lock). The
// newest state wins: the late board message loses its menu, and no
// message offers a move in the finished game.
func TestBoardRacingAResignation(t *testing.T) {
	e := open(t, t.TempDir())
	svc := rebuild(e, quiet)
	e.adapter.SetService(svc)
	e.say("bob: /challenge @carol color:black size:6", "carol: click Accept")
	ctx := context.Background()
	board := svc.Handle(ctx, bot.Request{Kind: bot.Command, Command: "board", User: record.Player{ID: "bob", Name: "bob"},
		GuildID: local.GuildID, ChannelID: local.ChannelID})
	if board.Message == nil || board.Message.Game == nil || len(board.Message.Components) == 0 {
		t.Fatalf("/board: %+v", board.Message)
	}
	expect(t, e.say("carol: /resign", "carol: click Resign"), "carol resigned")
	// The /board reply lands now, after the end.
	id, err := e.adapter.Send(ctx, local.ChannelID, *board.Message)
	if err != nil {
		t.Fatal(err)
	}
	svc.Posted(ctx, local.ChannelID, board.Message, id)
	expect(t, e.say("bob: select c4"), "(no menu to select from for bob)")
}
