package local_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/rating"
	"othello-bot/record"
)

func (e *env) handle(user, guild, channel string, req bot.Request) bot.Response {
	req.User = record.Player{ID: user, Name: user}
	req.GuildID, req.ChannelID = guild, channel
	return e.adapter.Service().Handle(context.Background(), req)
}

// playRated plays a rated game in which loser resigns after both sides have
// moved twice, through the command logic.
func (e *env) playRated(guild, channel, winner, loser string) {
	e.t.Helper()
	ctx := context.Background()
	resp := e.handle(winner, guild, channel, bot.Request{Kind: bot.Command, Command: "challenge",
		Options: map[string]string{"opponent": loser, "size": "6"}, UserNames: map[string]string{loser: loser}})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "Challenge sent") {
		e.t.Fatalf("challenge: %+v", resp.Message)
	}
	cs, _ := e.store.PendingChallenges(ctx)
	c := cs[len(cs)-1]
	e.handle(loser, guild, channel, bot.Request{Kind: bot.Button, CustomID: fmt.Sprintf("accept:%d", c.ID)})
	g, err := e.store.ActiveGame(ctx, channel)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		g, _ = e.store.ActiveGame(ctx, channel)
		e.handle(g.ToMove().Player.ID, guild, channel, bot.Request{Kind: bot.Command, Command: "move",
			Options: map[string]string{"square": g.Position().LegalMoves()[0].String()}})
	}
	resp = e.handle(loser, guild, channel, bot.Request{Kind: bot.Button, CustomID: fmt.Sprintf("resign-yes:%d", g.ID)})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "You resigned") {
		e.t.Fatalf("resign: %+v", resp.Message)
	}
	e.clock.Advance(time.Minute) // past the challenge cooldown
}

// A season where each player beats everyone weaker ends with the
// leaderboard in that order.
func TestSeasonLeaderboardOrder(t *testing.T) {
	e := open(t, t.TempDir())
	order := []string{"ana", "ben", "cai", "dev"}
	for round := 0; round < 2; round++ {
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				e.playRated(local.GuildID, local.ChannelID, order[i], order[j])
			}
		}
	}
	out := e.say("dev: /leaderboard")
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\. (\w+) · (\d+)`).FindAllStringSubmatch(out, -1) {
		got = append(got, m[2])
	}
	if strings.Join(got, ",") != strings.Join(order, ",") {
		t.Errorf("leaderboard order %v, want %v:\n%s", got, order, out)
	}
	expect(t, out, "ana · ", "6 games, 6-0-0", "dev · ", "6 games, 0-6-0")
	// Someone without a rating sees the board and a word about joining.
	expect(t, e.say("zoe: /leaderboard"), "You have no rating here yet")
	expect(t, e.say("zoe: /leaderboard scope:galaxy"), "The scope must be server or global.")
	// A speed nobody played rated here says so, and names those played.
	expect(t, e.say("zoe: /leaderboard speed:blitz"), "No rated blitz games here yet. Rated games here are Correspondence: try /leaderboard speed:Correspondence.")
}

// Ratings per server differ from the global one.
func TestServerAndGlobalScopesDiffer(t *testing.T) {
	e := open(t, t.TempDir())
	e.playRated("g1", "c1", "ann", "bob")
	e.playRated("g1", "c1", "ann", "bob")
	e.playRated("g2", "c2", "bob", "ann")
	board := func(guild, scope string) string {
		resp := e.handle("ann", guild, "c9", bot.Request{Kind: bot.Command, Command: "leaderboard", Options: map[string]string{"scope": scope}})
		return resp.Message.Embed.Description
	}
	g1, g2, global := board("g1", "server"), board("g2", "server"), board("g1", "global")
	if !strings.HasPrefix(g1, "**1.** ann") || !strings.HasPrefix(g2, "**1.** bob") {
		t.Errorf("g1:\n%s\ng2:\n%s", g1, g2)
	}
	// The expected ratings, from the Glicko-2 implementation the paper's
	// worked example checks (rating/): each game its own rating period,
	// the deviation growing with the minute between games.
	idle := time.Minute.Seconds() / rating.Period
	type pair struct{ ann, bob rating.Player }
	play := func(p pair, annScore float64, first bool) pair {
		if !first {
			p.ann, p.bob = p.ann.Idle(idle), p.bob.Idle(idle)
		}
		return pair{p.ann.Update([]rating.Result{{Opponent: p.bob, Score: annScore}}),
			p.bob.Update([]rating.Result{{Opponent: p.ann, Score: 1 - annScore}})}
	}
	server1 := play(play(pair{rating.New(), rating.New()}, 1, true), 1, false)
	server2 := play(pair{rating.New(), rating.New()}, 0, true)
	all := play(server1, 0, false)
	// Globally both have played all three games; the latest result weighs
	// most while the deviations are high, so bob's win puts him ahead.
	if all.bob.Rating <= all.ann.Rating {
		t.Fatalf("the expectation itself: bob %.0f, ann %.0f", all.bob.Rating, all.ann.Rating)
	}
	for _, c := range []struct{ board, want string }{
		{g1, fmt.Sprintf("ann · %.0f? · 2 games, 2-0-0", server1.ann.Rating)},
		{g1, fmt.Sprintf("bob · %.0f? · 2 games, 0-2-0", server1.bob.Rating)},
		{g2, fmt.Sprintf("bob · %.0f? · 1 game, 1-0-0", server2.bob.Rating)},
		{global, fmt.Sprintf("**1.** bob · %.0f? · 3 games, 1-2-0", all.bob.Rating)},
		{global, fmt.Sprintf("**2.** ann · %.0f? · 3 games, 2-1-0", all.ann.Rating)},
	} {
		if !strings.Contains(c.board, c.want) {
			t.Errorf("want %q in:\n%s", c.want, c.board)
		}
	}
}

func TestStatsAndHistory(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("/stats"), "You haven't finished a game yet. /start plays me, /challenge plays a friend.")
	expect(t, e.say("/history @zed"), "zed hasn't finished a game yet.")

	// alice beats level 1 with the engine's help, and loses to bob twice.
	helper := engine.New(engine.Options{Searches: 1})
	e.say("/start level:1 color:black size:6")
	for i := 0; i < 40; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		r, _ := helper.Move(ctx, g.Position(), 17, nil)
		cancel()
		e.say("select " + r.Move.String())
	}
	e.playRated(local.GuildID, local.ChannelID, "bob", "alice")
	e.playRated(local.GuildID, local.ChannelID, "bob", "alice")

	out := e.say("/stats")
	if strings.Contains(out, "±") {
		t.Errorf("a provisional rating shown with its interval:\n%s", out)
	}
	expect(t, out, "== Stats · alice ==", "Rating here: ", "provisional: 2 rated games so far · rank 2 · 0-2-0", "Rating everywhere: ",
		"All games: 1 won, 2 lost, 0 drawn", "Streak: 2 losses in a row", "Against the bot (W-L-D): L1 1-0-0",
		"Best level beaten: level 1")
	expect(t, e.say("alice: /stats @bob"), "== Stats · bob ==", "Streak: 2 wins in a row", "provisional: 2 rated games so far · rank 1 · 2-0-0")

	out = e.say("/history")
	expect(t, out, "Recent games · alice", "vs bob · lost", "by resignation · 1d (6x6)", "vs Bot (level 1) · won")
	lines := regexp.MustCompile("(?m)^`([a-z0-9]+)`$").FindAllStringSubmatch(out, -1)
	if len(lines) != 3 {
		t.Fatalf("%d transcripts:\n%s", len(lines), out)
	}
	// The transcripts replay: paste-able into an Othello program.
	for _, l := range lines {
		if _, err := replay(l[1], 6); err != nil {
			t.Errorf("transcript %q: %v", l[1], err)
		}
	}
}

func replay(transcript string, size int) (int, error) {
	moves, err := game.ParseTranscript(transcript, size)
	if err != nil {
		return 0, err
	}
	start, _ := game.NewPosition(size)
	_, err = game.Replay(start, moves)
	return len(moves), err
}
