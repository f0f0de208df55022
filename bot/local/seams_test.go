package local_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/local"
	"othello-bot/record"
)

// A game aborted before both sides moved twice never was a game: /stats
// does not count it as unfinished (#44); an abandoned one is.
func TestStatsDoNotCountAbortedGames(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:6", "/resign", "click Resign")
	out := e.say("/stats")
	expect(t, out, "Stats · alice")
	if strings.Contains(out, "unfinished") {
		t.Errorf("an aborted game counts as unfinished:\n%s", out)
	}
	e.say("/start level:1 color:black size:6")
	e.say("select " + e.game().Position().LegalMoves()[0].String())
	e.say("wait 200h") // abandonAfter: the game against the bot ends as abandoned
	if out := e.say("/stats"); !strings.Contains(out, "1 unfinished") {
		t.Errorf("an abandoned game is not counted as unfinished:\n%s", out)
	}
}

// A Discord timestamp inside a Japanese sentence reads in Japanese, even
// on an English terminal (#44: "bob がin 30 secondsまでに初手を…").
func TestRelativeTimesFollowTheirSentence(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("admin alice", "/settings language:ja scope:server")
	out := e.say("bob: /start time:1+0 level:3")
	if !strings.Contains(out, "30秒後までに初手を打たないと") {
		t.Errorf("the first-move deadline in a Japanese sentence:\n%s", out)
	}
	e.say("/settings language:en scope:server")
	if out := e.say("carol #other: /start time:1+0 level:3"); !strings.Contains(out, "in 30 seconds or the game is aborted") {
		t.Errorf("the first-move deadline in an English sentence:\n%s", out)
	}
}

// A clock charges exactly the time taken, whatever the nanoseconds of the
// moment the bot started (#44: storage keeps milliseconds, the clock had
// nanoseconds, and every clock read a second low: 2:51 for 2:52).
func TestClocksChargeExactlyAcrossMilliseconds(t *testing.T) {
	e := openAt(t, t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 987654321, time.UTC))
	e.say("/challenge @bob time:3+2 color:black size:6", "bob: click Accept")
	e.say("select " + e.game().Position().LegalMoves()[0].String())
	e.say("bob: select " + e.game().Position().LegalMoves()[0].String())
	e.say("wait 10s")
	out := e.say("select " + e.game().Position().LegalMoves()[0].String())
	if !strings.Contains(out, "⚫ 2:52") {
		t.Errorf("3:00 less 10 s plus 2 s should read 2:52:\n%s", out)
	}
}

// The organiser's controls say what they did, and a kicked player's game
// says they were removed, not that they withdrew (#44: "Done (tournament
// #1)", "dave withdrew …").
func TestTournamentControlsSayWhatTheyDid(t *testing.T) {
	e := openThreads(t, 5)
	e.say("admin alice")
	e.say("alice #lobby: /tournament create format:swiss rounds:2 time:5+3 size:4 name:Cup")
	for _, p := range []string{"bob", "carol", "dave", "erin"} {
		e.say(p + " #lobby: click Join")
	}
	start := e.say("alice #lobby: /tournament start")
	expect(t, start, "(only visible to alice)", "You started tournament #1 (Cup).")
	var dave *record.Game
	for _, g := range e.activeTournamentGames(1) {
		if g.Black.Player.ID == "dave" || g.White.Player.ID == "dave" {
			dave = g
		}
	}
	if dave == nil {
		t.Fatal("dave has no game")
	}
	kick := e.say("alice #lobby: /tournament kick user:@dave reason:no-show")
	expect(t, kick, "(only visible to alice)", "You removed dave from tournament #1 (Cup)", "was removed from the tournament")
	if strings.Contains(kick, "dave withdrew") || strings.Contains(kick, "Done (tournament") {
		t.Errorf("the kick reads as a withdrawal or a bare done:\n%s", kick)
	}
	expect(t, e.say("alice #lobby: /tournament pause"), "You paused tournament #1 (Cup).")
	expect(t, e.say("alice #lobby: /tournament start"), "You resumed tournament #1 (Cup).")
	expect(t, e.say("alice #lobby: /tournament cancel"), "You canceled tournament #1 (Cup).")
	if g := e.gameByID(dave.ID); g.Status == record.Active {
		t.Errorf("dave's game goes on after the kick: %+v", g.Result)
	}
}

// A live game pings at its start and its end, not on every move (#44:
// about 30 pings a player in a 1+0 game); correspondence still pings on
// every turn.
func TestLiveGamesPingAtTheStartAndTheEnd(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob time:1+0 color:black size:4", "bob: click Accept")
	var out strings.Builder
	for i := 0; i < 30; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			break
		}
		mover := g.ToMove().Player.ID
		out.WriteString(e.say(mover + ": select " + g.Position().LegalMoves()[0].String()))
	}
	if n := strings.Count(out.String(), "your move in game"); n != 0 {
		t.Errorf("%d per-move pings in a live game:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "game #1 is over") {
		t.Errorf("no ping at the end:\n%s", out.String())
	}
	e.say("wait 1m", "/challenge @carol time:1d color:black size:4", "carol: click Accept")
	if out := e.say("select " + e.game().Position().LegalMoves()[0].String()); !strings.Contains(out, "@carol your move in game #2") {
		t.Errorf("a correspondence turn does not ping:\n%s", out)
	}
}

// Both players press Rematch: the second press accepts the first's
// challenge, as on lichess (#44: two challenges crossed, and the second
// could not accept).
func TestRematchCrossing(t *testing.T) {
	e := open(t, t.TempDir())
	resignedGame(e)
	expect(t, e.say("bob: click Rematch"), "Rematch of game #1!")
	out := e.say("click Rematch")
	expect(t, out, "You and bob both asked for a rematch", "alice accepted bob's challenge.", "Game #2 · bob ⚫ vs alice ⚪")
	if strings.Contains(out, "challenges you") {
		t.Errorf("the second press made a second challenge:\n%s", out)
	}
	if g := e.game(); g.ID != 2 {
		t.Errorf("the rematch is game #%d", g.ID)
	}
}

// After a rated bullet game, /leaderboard without a speed shows the speed
// this server plays, and /stats never says "not rated" of a rated player
// (#44: "No rated games here yet", "Rating here · Bullet: 1338" then
// "Rating here: not rated yet").
func TestLeaderboardAndStatsFollowTheSpeedsPlayed(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob time:1+0 color:black size:4", "bob: click Accept")
	for i := 0; i < 30; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			break
		}
		e.say(g.ToMove().Player.ID + ": select " + g.Position().LegalMoves()[0].String())
	}
	board := e.say("/leaderboard")
	expect(t, board, "Bullet", "alice", "bob")
	if strings.Contains(board, "No rated games") {
		t.Errorf("the leaderboard missed the bullet game:\n%s", board)
	}
	stats := e.say("/stats")
	expect(t, stats, "Bullet")
	if strings.Contains(stats, "not rated yet") {
		t.Errorf("/stats says not rated of a rated player:\n%s", stats)
	}
}

// The terminal's own user runs its server, and a tournament opens its
// games in threads without --threads, while a plain /start still plays in
// the channel (#44: tournaments needed --threads and admin alice, which
// nobody meets by accident).
func TestLocalTournamentsNeedNoHiddenSwitch(t *testing.T) {
	e := open(t, t.TempDir()) // no --threads, no admin line
	out := e.say("/tournament create format:swiss rounds:1 time:5+3 size:4 name:Cup")
	expect(t, out, "Tournament #1: Cup", "[Join] [Leave]")
	for _, p := range []string{"bob", "carol", "dave", "erin"} {
		e.say(p + " #terminal: click Join")
	}
	expect(t, e.say("/tournament start"), "You started tournament #1 (Cup).")
	for _, g := range e.activeTournamentGames(1) {
		if g.ParentID == "" || !strings.HasPrefix(g.ChannelID, "thread-") {
			t.Errorf("tournament game #%d plays in %s, not a thread", g.ID, g.ChannelID)
		}
	}
	e.say("/start level:1 size:4")
	if g := e.game(); g.ParentID != "" || g.ChannelID != local.ChannelID {
		t.Errorf("a plain /start plays in %s (thread of %q), not the channel", g.ChannelID, g.ParentID)
	}
	expect(t, e.say("bob: /settings language:ja scope:server"), "Only members with the Manage Server permission")
}

// One wait past both the 10-second mark and the flag gives both, in
// order: the low-time ping, then the flag (#44: a single wait 61s gave the
// flag alone).
func TestOneWaitPastThePingAndTheFlag(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/challenge @bob color:black size:8 time:1+0", "bob: click Accept")
	e.say("select " + e.game().Position().LegalMoves()[0].String())
	e.say("bob: select " + e.game().Position().LegalMoves()[0].String())
	out := e.say("wait 61s")
	ping, flag := strings.Index(out, "@alice ⏰"), strings.Index(out, "ran out of time")
	if ping < 0 || flag < 0 || ping > flag {
		t.Errorf("want the low-time ping, then the flag:\n%s", out)
	}
}

// A name that looks like a mention is shown as typed, in the terminal as in
// Discord (#44: a tournament named "<@123>" read "@123\").
func TestMentionLikeNamesShowAsTyped(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/tournament create format:swiss rounds:1 time:5+3 size:4 name:<@123> **bold**")
	expect(t, out, "Tournament #1: <@123> **bold**")
	if strings.Contains(out, `@123\`) {
		t.Errorf("the name's escapes leak:\n%s", out)
	}
	out = e.say("bob: click Join")
	expect(t, out, "<@123> **bold**")
}

// The move that ends a tournament's last game shows its result before the
// podium (#44: the arena's podium came before its last game's result).
func TestPodiumAfterTheLastResult(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/tournament create format:swiss rounds:1 time:5+3 size:4 name:Cup")
	e.say("bob #terminal: click Join", "carol #terminal: click Join")
	e.say("/tournament start")
	games := e.activeTournamentGames(1)
	if len(games) != 1 {
		t.Fatalf("%d games", len(games))
	}
	id := games[0].ID
	var last string
	for n := 0; n < 100; n++ {
		g := e.gameByID(id)
		if g.Status != record.Active {
			break
		}
		last = e.say(g.ToMove().Player.ID + " #" + g.ChannelID + ": select " + g.Position().LegalMoves()[0].String())
	}
	result, podium := strings.Index(last, "Result: "), strings.Index(last, "🥇")
	if result < 0 || podium < 0 || podium < result {
		t.Errorf("the last move's output: result at %d, podium at %d:\n%s", result, podium, last)
	}
}
