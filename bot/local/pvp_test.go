package local_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/game"
	"othello-bot/record"
)

func (e *env) results() []string {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join(e.dir, "results.log"))
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func (e *env) challenge() *record.Challenge {
	e.t.Helper()
	cs, err := e.store.PendingChallenges(context.Background())
	if err != nil || len(cs) == 0 {
		e.t.Fatalf("no pending challenge: %v", err)
	}
	return cs[len(cs)-1]
}

func expect(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// A whole game between alice and bob through the menu, with carol refused
// at every step, ending with its line in the results log.
func TestPvPWholeGameCarolRefused(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/challenge @bob color:black size:6 rated:false")
	expect(t, out, "@bob, alice challenges you to an unrated 6x6 game (alice plays black), 1d · Correspondence. It expires in 10 minutes.",
		"[Accept] [Decline] [Cancel]", "Challenge sent to bob.")
	expect(t, e.say("carol: click Accept"), "(only visible to carol)", "This challenge is for bob.")
	expect(t, e.say("carol: click Decline"), "This challenge is for bob.")
	expect(t, e.say("carol: click Cancel"), "Only alice can cancel this challenge.")
	expect(t, e.say("bob: click Accept"), "bob accepted alice's challenge.", "Turn: alice ⚫")
	for turn := 0; turn < 60; turn++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			break
		}
		m := g.Position().LegalMoves()[0].String()
		for line, want := range map[string]string{
			"carol: select " + m:  "You are not playing in this game.",
			"carol: /move " + m:   "You are not playing in this game.",
			"carol: click Resign": "You are not playing in this game.",
			"carol: /hint":        "Hints are for the players of this game.",
		} {
			if out := e.say(line); !strings.Contains(out, want) || !strings.Contains(out, "(only visible to carol)") {
				t.Fatalf("%s:\n%s", line, out)
			}
		}
		other := "bob"
		if g.ToMove().Player.ID == "bob" {
			other = "alice"
		}
		expect(t, e.say(other+": /move "+m), "It's not your turn")
		if now := e.game(); now.Version != g.Version {
			t.Fatal("a refusal changed the game")
		}
		out = e.say(g.ToMove().Player.ID + ": select " + m)
	}
	expect(t, out, "Result: ", "[Rematch]")
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], `black="alice" black_id="alice" white="bob" white_id="bob"`) ||
		!strings.Contains(lines[0], "end=normal") {
		t.Errorf("results log %q", lines)
	}
}

func TestDeclineCancelAndCooldown(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob")
	expect(t, e.say("/challenge @carol"), "Please wait 30 seconds before your next challenge.")
	e.say("wait 31s")
	expect(t, e.say("/challenge @carol"), "You already have a challenge waiting in this channel.")
	expect(t, e.say("bob: click Decline"), "bob declined.")
	expect(t, e.say("/challenge @bob"), "Challenge sent to bob.")
	expect(t, e.say("click Cancel"), "alice canceled it.")
	// A corrected challenge right after canceling is not spam...
	expect(t, e.say("/challenge @bob size:10"), "Challenge sent to bob.")
	expect(t, e.say("click Cancel"), "alice canceled it.")
	// ...but a second correction within the cooldown is.
	expect(t, e.say("/challenge @bob"), "Please wait 30 seconds before your next challenge.")
	expect(t, e.say("/challenge @alice"), "You can't challenge yourself.")
	if cs, _ := e.store.PendingChallenges(context.Background()); len(cs) != 0 {
		t.Errorf("pending challenges left: %d", len(cs))
	}
	if lines := e.results(); len(lines) != 0 {
		t.Errorf("results log %q", lines)
	}
}

func TestChallengeExpires(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob")
	c := e.challenge()
	e.say("wait 9m")
	if c2, _ := e.store.Challenge(context.Background(), c.ID); c2.Status != record.ChallengePending {
		t.Fatal("expired early")
	}
	expect(t, e.say("wait 2m"), "(edited)", "The challenge expired without an answer.")
	expect(t, e.say("bob: click Accept"), `no button "Accept"`)
	resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Button, User: record.Player{ID: "bob", Name: "bob"},
		ChannelID: local.ChannelID, CustomID: fmt.Sprintf("accept:%d", c.ID)})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "no longer open (expired)") {
		t.Errorf("late accept: %+v", resp.Message)
	}
	// An open challenge anyone may take, except its challenger.
	e.say("wait 1m")
	out := e.say("/challenge size:4")
	expect(t, out, "Open challenge posted: anyone here may accept it.")
	if strings.Contains(out, "sent to anyone") {
		t.Errorf("open challenge wording:\n%s", out)
	}
	expect(t, e.say("click Accept"), "You can't accept your own challenge")
	expect(t, e.say("carol: click Accept"), "carol accepted alice's challenge.")
}

// Loss on time after the move timeout, with the reminder before it.
func TestLossOnTime(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:white size:8", "bob: click Accept") // bob is black
	for i := 0; i < 4; i++ {
		g := e.game()
		e.say(g.ToMove().Player.ID + ": select " + g.Position().LegalMoves()[0].String())
	}
	g := e.game()
	if g.ToMove().Player.ID != "bob" {
		t.Fatalf("%s to move", g.ToMove().Player.ID)
	}
	expect(t, e.say("wait 23h30m"), "@bob ⏰ it's your move in game #1. Your time runs out in 30 minutes")
	if out := e.say("wait 10m"); strings.Contains(out, "⏰") {
		t.Errorf("second reminder:\n%s", out)
	}
	expect(t, e.say("wait 25h"), "bob ⚫ ran out of time.", "alice ⚪ wins on time")
	if out := e.say("wait 25h"); strings.Contains(out, "ran out of time") {
		t.Errorf("timeout fired twice:\n%s", out)
	}
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], "winner=white end=timeout") {
		t.Errorf("results log %q", lines)
	}
}

// Ended before each side moved twice: aborted, unrated, no winner.
func TestAbortBeforeTwoMovesEach(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black", "bob: click Accept")
	g := e.game()
	e.say("select " + g.Position().LegalMoves()[0].String())
	expect(t, e.say("bob: /resign", "bob: click Resign"), "aborted before both sides had moved twice")
	lines := e.results()
	if len(lines) != 1 || !strings.Contains(lines[0], "winner=none end=abort") {
		t.Errorf("results log %q", lines)
	}
}

// A game aborted before any move says so instead of an empty transcript.
func TestAbortWithNoMoves(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black", "bob: click Accept")
	out := e.say("bob: /resign", "bob: click Resign")
	expect(t, out, "aborted before both sides had moved twice", "No moves were played.")
	if strings.Contains(out, "Transcript:") {
		t.Errorf("an empty transcript shown:\n%s", out)
	}
}

// Rematch swaps the colours and needs the other player's acceptance.
func TestRematch(t *testing.T) {
	e := open(t, t.TempDir())
	resignedGame(e)
	expect(t, e.say("carol: click Rematch"), "Only the players of game #1 can ask for a rematch.")
	expect(t, e.say("bob: click Rematch"), "Rematch of game #1! @alice, bob challenges you to a rated 4x4 game (bob plays black), 1d · Correspondence.")
	expect(t, e.say("bob: click Accept"), "You can't accept your own challenge")
	expect(t, e.say("click Accept"), "alice accepted bob's challenge.", "Game #2 · bob ⚫ vs alice ⚪")

	// Against the bot a rematch starts at once, colours swapped.
	e2 := open(t, t.TempDir())
	e2.say("/start level:1 color:black size:4", "/resign", "click Resign")
	expect(t, e2.say("click Rematch"), "Game #2 · Bot (level 1) ⚫ vs alice ⚪")
}

// Restarts in the middle of a challenge and of a game: the buttons still
// work (their custom ids name the challenge and game) and the timers still
// fire, once.
func TestRestartMidChallengeAndGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black size:6")
	c := e.challenge()

	e = reopen(e)
	resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Button, User: record.Player{ID: "bob", Name: "bob"},
		ChannelID: local.ChannelID, CustomID: fmt.Sprintf("accept:%d", c.ID)})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "bob accepted alice's challenge.") {
		t.Fatalf("accept after restart: %+v", resp.Message)
	}
	for i := 0; i < 4; i++ {
		g := e.game()
		e.say(g.ToMove().Player.ID + ": /move " + g.Position().LegalMoves()[0].String())
	}

	e = reopen(e)
	g := e.game()
	expect(t, e.say(g.ToMove().Player.ID+": /move "+g.Position().LegalMoves()[0].String()), "played")
	expect(t, e.say("wait 25h"), "ran out of time.")
	e = reopen(e)
	if out := e.say("wait 25h"); strings.Contains(out, "ran out of time") {
		t.Errorf("timeout fired again after restart:\n%s", out)
	}
	if lines := e.results(); len(lines) != 1 || !strings.Contains(lines[0], "end=timeout") {
		t.Errorf("results log %q", lines)
	}
	// A challenge that expires while the bot is down is closed as it starts.
	e.say("/challenge @bob")
	e.clock.Advance(11 * time.Minute)
	e = reopen(e)
	expect(t, e.out.String(), "The challenge expired without an answer.")
}

// Both players and a third press at once in the same game: the game is never
// corrupted and no move applies twice.
func TestConcurrentPressesInOneGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black size:8 rated:false", "bob: click Accept")
	ctx := context.Background()
	svc := e.adapter.Service()
	for round := 0; round < 10; round++ {
		g := e.game()
		moves := g.Position().LegalMoves()
		menu := fmt.Sprintf("move:%d:%d", g.ID, len(g.Plies()))
		var wg sync.WaitGroup
		var mu sync.Mutex
		applied := 0
		for i, who := range []string{"alice", "bob", "carol", "alice", "bob", "carol"} {
			wg.Add(1)
			go func(i int, who string) {
				defer wg.Done()
				resp := svc.Handle(ctx, bot.Request{Kind: bot.Select, User: record.Player{ID: who, Name: who}, ChannelID: local.ChannelID,
					CustomID: menu, Values: []string{moves[i%len(moves)].String()}})
				if resp.Message != nil && !resp.Message.Ephemeral {
					mu.Lock()
					applied++
					mu.Unlock()
				}
			}(i, who)
		}
		wg.Wait()
		after := e.game()
		if applied != 1 || len(after.Plies()) != len(g.Plies())+1 && after.Plies()[len(after.Plies())-1].Square != game.Pass {
			t.Fatalf("round %d: %d moves applied, plies %d -> %d", round, applied, len(g.Plies()), len(after.Plies()))
		}
		rules, err := game.ReplayPlies(after.State.Start(), after.Plies())
		if err != nil || !rules.Position().Equal(after.Position()) {
			t.Fatalf("round %d: stored game does not replay: %v", round, err)
		}
	}
}

// A clock stepped back leaves stored times in the future: no wait is ever
// longer than its configured maximum.
func TestClockStepBackClampsTheCooldown(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob")
	e.say("bob: click Decline")
	e = openAt(t, e.dir, e.clock.Now().Add(-365*24*time.Hour)) // a year back
	expect(t, e.say("/challenge @bob"), "Please wait 30 seconds before your next challenge.")
}

// A rematch right after a short game is not held back by the cooldown.
func TestRematchIgnoresTheCooldown(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob size:4", "bob: click Accept")
	g := e.game()
	e.say(g.ToMove().Player.ID+": /resign", g.ToMove().Player.ID+": click Resign")
	out := e.say("click Rematch")
	expect(t, out, "Rematch of game #1!", "[Accept]")
	if strings.Contains(out, "Please wait") {
		t.Fatalf("rematch held back:\n%s", out)
	}
}

// Buttons carry ids; one pressed (or forged) in another channel is refused
// and changes nothing.
func TestComponentsFromAnotherChannelAreRefused(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob")
	c := e.challenge()
	bob := record.Player{ID: "bob", Name: "bob"}
	for _, id := range []string{"accept", "decline"} {
		resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Button, User: bob, GuildID: local.GuildID,
			ChannelID: "elsewhere", CustomID: fmt.Sprintf("%s:%d", id, c.ID)})
		if resp.Message == nil || !resp.Message.Ephemeral || !strings.Contains(resp.Message.Content, "does not belong to this channel") {
			t.Fatalf("%s from another channel: %+v", id, resp.Message)
		}
	}
	if c2, _ := e.store.Challenge(context.Background(), c.ID); c2.Status != record.ChallengePending {
		t.Fatalf("challenge now %s", c2.Status)
	}
	e.say("bob: click Accept")
	g := e.game()
	e.say(g.ToMove().Player.ID+": /resign", g.ToMove().Player.ID+": click Resign")
	resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Button, User: bob, GuildID: local.GuildID,
		ChannelID: "elsewhere", CustomID: fmt.Sprintf("rematch:%d", g.ID)})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "does not belong to this channel") {
		t.Fatalf("rematch from another channel: %+v", resp.Message)
	}
}

// resignedGame is game #1, alice (black) against bob on 4x4, four moves
// played, then resigned by alice: a finished game offering Rematch.
func resignedGame(e *env) {
	e.t.Helper()
	e.say("/challenge @bob color:black size:4", "bob: click Accept")
	for i := 0; i < 4; i++ {
		g := e.game()
		e.say(g.ToMove().Player.ID + ": select " + g.Position().LegalMoves()[0].String())
	}
	e.say("/resign", "click Resign")
}
