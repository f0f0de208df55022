package local_test

import (
	"context"
	"strings"
	"testing"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/catalog"
	"othello-bot/place"
	"othello-bot/record"
	"othello-bot/web"
)

// The pairing pool through the terminal: two members in different
// channels asking for the same game are sent to one game (where the
// second asked; the first pinged where they waited); other games wait
// apart; /play alone lists who waits; Leave, Play and lapsing end a wait.
func TestPlayPairsAcrossChannels(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("alice #lobby: /play time:3+2")
	expect(t, out, "alice is looking for a game: 3+2 · 8x8 · rated.", "[Play] [Leave]")
	expect(t, e.say("alice #den: /play time:5+3"), "You are waiting for a game already (3+2 · 8x8 · rated)")
	e.say("bob #den: /play time:5+3 rated:false")
	expect(t, e.say("carol #den: /play"), "Waiting for a game on this server", "alice · 3+2 · 8x8 · rated", "bob · 5+3 · 8x8 · casual")

	out = e.say("carol #den: /play time:3+2")
	expect(t, out, "alice and carol are paired from the pool.", "in #lobby", "@alice, you are paired with carol: game #1 is on in #den.", "alice was paired with carol: game #1 in #den.")
	g, err := e.store.ActiveGame(context.Background(), "den")
	if err != nil || g.ID != 1 || g.Control.String() != "3+2" || !g.Rated ||
		!(g.Black.Player.ID == "alice" && g.White.Player.ID == "carol" || g.Black.Player.ID == "carol" && g.White.Player.ID == "alice") {
		t.Fatalf("the game: %+v %v", g, err)
	}
	expect(t, e.playLine("den", "f5"), "played f5")
	expect(t, e.say("carol #den: /play"), "bob · 5+3")
	if strings.Contains(e.say("carol #den: /play"), "alice ·") {
		t.Error("a paired player still waits")
	}

	// Leave is for the one waiting; then the wait is over.
	expect(t, e.say("carol #den: click Leave"), "Only bob can leave this wait.")
	expect(t, e.say("bob #den: click Leave"), "bob stopped waiting.")
	expect(t, e.say("carol #den: /play"), "Nobody is waiting for a game on this server.")

	// Play on a wait takes that game, there.
	e.say("dave #hall: /play time:1+0 size:6 rated:false")
	expect(t, e.say("dave #hall: click Play"), "That is your own wait")
	e.say("erin #hall: click Play")
	if g, err := e.store.ActiveGame(context.Background(), "hall"); err != nil || g.Size() != 6 || g.Rated {
		t.Fatalf("Play: %+v %v", g, err)
	}

	// A wait nobody answers lapses.
	e.say("frank #lobby: /play time:10+5")
	expect(t, e.say("wait 31m"), "frank waited 30 minutes and nobody came.")
	expect(t, e.say("frank #lobby: /play"), "Nobody is waiting")
}

// The pool's role ping: an admin names a role; a member's new wait pings
// it, at most once in ten minutes a server; @everyone turns it off.
func TestPlayPingsTheServersRole(t *testing.T) {
	e := open(t, t.TempDir())
	expect(t, e.say("bob #lobby: /settings play-role:@players"), "Only members with the Manage Server permission can choose the role /play pings.")
	e.say("admin alice")
	expect(t, e.say("alice #lobby: /settings play-role:@players"), "When a member starts waiting in /play, I will ping @&players")
	expect(t, e.say("alice #lobby: /settings"), "Pairing pool: /play pings @&players")
	expect(t, e.say("bob #lobby: /play time:3+2"), "@&players: bob is looking for an opponent — press Play above")
	e.say("bob #lobby: click Leave")
	if out := e.say("carol #lobby: /play time:3+2"); strings.Contains(out, "@&players") {
		t.Errorf("the role pinged twice within ten minutes:\n%s", out)
	}
	e.say("carol #lobby: click Leave")
	e.say("wait 10m")
	expect(t, e.say("dave #lobby: /play time:3+2"), "@&players: dave is looking for an opponent")
	e.say("dave #lobby: click Leave")
	e.say("wait 10m")
	expect(t, e.say("alice #lobby: /settings play-role:@"+local.GuildID), "/play pings no role any more.")
	expect(t, e.say("alice #lobby: /settings"), "Pairing pool: /play pings no role")
	if out := e.say("erin #lobby: /play time:3+2"); strings.Contains(out, "@&") {
		t.Errorf("a role pinged after the ping was turned off:\n%s", out)
	}
}

// Pairing across servers: with both servers open, a newcomer's casual
// game on a clock that nobody on their server waits for is paired with a
// wait of the other server; it starts where the newcomer is, and the one
// who waited is pinged where they waited with the game's page, where they
// play. A closed server's waits, and rated waits, stay home.
func TestPlayPairsAcrossServers(t *testing.T) {
	e := open(t, t.TempDir())
	e.cfg.PageURL = func(id string) string { return "https://othello.example/g/" + id }
	e.adapter.SetService(rebuild(e, quiet))
	const other = "guild-two"
	play := func(user, guild, channel string, opts map[string]string) string {
		resp := e.handle(user, guild, channel, bot.Request{Kind: bot.Command, Command: "play", Options: opts})
		if resp.Message == nil {
			t.Fatalf("%s's /play: no answer", user)
		}
		return resp.Message.Content
	}

	expect(t, e.say("bob #lobby: /settings pool:open"), "Only members with the Manage Server permission")
	e.openPool(local.GuildID)
	casual := map[string]string{"time": "1+0", "rated": "false"}
	expect(t, play("carol", other, "den", casual), "carol is looking for a game: 1+0 · 8x8 · casual.")
	expect(t, e.say("bob #lobby: /play time:1+0 rated:false"), "bob is looking for a game") // carol's server is closed
	e.say("bob #lobby: click Leave")

	e.openPool(other)
	expect(t, e.say("alice #lobby: /settings"), "Pairing pool: casual games on a clock also pair with other servers")
	out := e.say("bob #lobby: /play time:1+0 rated:false")
	expect(t, out, "carol and bob are paired from the pool.", "carol joins from another server and plays on the game's page.",
		"@carol, you are paired with bob from another server: game #1 is on.", "[Watch ↗ https://othello.example/g/")
	g, err := e.store.ActiveGame(context.Background(), "lobby")
	if err != nil || g.GuildID != local.GuildID || g.Rated || g.Control.String() != "1+0" ||
		g.Black.Player.ID != "bob" || g.White.Player.ID != "carol" { // the newcomer, who is there, moves first
		t.Fatalf("the game across servers: %+v %v", g, err)
	}
	if list, _ := e.store.PoolEntries(context.Background(), other); len(list) != 0 {
		t.Errorf("carol still waits after her pairing: %+v", list)
	}
	// carol, on no channel of this server, moves on the page.
	for range 2 {
		g, _ = e.store.ActiveGame(context.Background(), "lobby")
		square := g.Position().LegalMoves()[0].String()
		if mover := g.ToMove().Player.ID; mover == "bob" {
			e.say("bob #lobby: /move " + square)
			continue
		}
		out, err := e.app.PagePlay.Act(context.Background(), web.Action{Game: g, Player: record.Player{ID: "carol", Name: "carol"},
			Lang: catalog.English, Kind: "move", Square: square, Ply: len(g.State.Moves())})
		if err != nil || !out.Changed {
			t.Fatalf("carol's move on the page: %+v %v", out, err)
		}
	}
	if g, _ = e.store.ActiveGame(context.Background(), "lobby"); len(g.State.Moves()) != 2 {
		t.Errorf("after a move each: %d moves", len(g.State.Moves()))
	}

	// A rated wait never crosses.
	expect(t, play("dave", other, "den", map[string]string{"time": "3+2"}), "dave is looking for a game: 3+2 · 8x8 · rated.")
	expect(t, e.say("erin #hall: /play time:3+2"), "erin is looking for a game")
}

// From the bot's DM: /play pairs only across, casual games on a clock,
// with waits of servers that open their pools. A wait in the DM is taken
// by a newcomer on such a server (the game there; the DM told, with the
// page); a newcomer in the DM joins a server's wait (the game in that
// channel, the one who waited pinged there). Two DMs never pair.
func TestPlayFromTheBotsDM(t *testing.T) {
	e := open(t, t.TempDir())
	e.cfg.PageURL = func(id string) string { return "https://othello.example/g/" + id }
	e.adapter.SetService(rebuild(e, quiet))
	dm := func(user string, opts map[string]string) string {
		resp := e.handle(user, "", "dm-"+user, bot.Request{Kind: bot.Command, Command: "play", Options: opts, Place: place.BotDM})
		if resp.Message == nil {
			t.Fatalf("%s's /play in the DM: no answer", user)
		}
		return resp.Message.Content
	}
	expect(t, dm("erin", nil), "Here in my DM, /play time:3+2")
	expect(t, dm("erin", map[string]string{"time": "1d"}), "From my DM the pool pairs casual games on a clock only")
	expect(t, dm("erin", map[string]string{"time": "1+0"}), "You wait for a game: 1+0 · 8x8 · casual.") // casual in a DM
	expect(t, dm("gina", map[string]string{"time": "1+0", "size": "6"}), "You wait for a game")         // apart from the rest
	if resp := e.handle("admin", local.GuildID, "lobby", bot.Request{Kind: bot.Command, Command: "settings",
		Options: map[string]string{"pool": "open"}, MemberPermissions: bot.PermManageGuild}); resp.Message == nil ||
		!strings.Contains(resp.Message.Content, "also pair with players of other servers") {
		t.Fatalf("opening the pool: %+v", resp.Message)
	}

	out := e.say("bob #lobby: /play time:1+0 rated:false")
	expect(t, out, "erin and bob are paired from the pool.", "@erin, you are paired with bob from another server: game #1 is on.",
		"[Watch ↗ https://othello.example/g/")
	if g, err := e.store.ActiveGame(context.Background(), "lobby"); err != nil || g.White.Player.ID != "erin" {
		t.Fatalf("the game with erin: %+v %v", g, err)
	}

	expect(t, dm("hank", map[string]string{"time": "1+0", "size": "6"}), "You wait for a game") // two DMs never pair
	e.say("carol #den: /play time:1+0 rated:false")
	before := e.out.Len()
	expect(t, dm("frank", map[string]string{"time": "1+0"}), "You are paired with carol: game #2 is on in their server.")
	shown := e.out.String()[before:]
	expect(t, shown, "@carol, frank joins your game from elsewhere and plays on the game's page.", "Game #2 · carol ⚫ vs frank ⚪",
		"carol was paired with frank: game #2 in #den.")
	if g, err := e.store.ActiveGame(context.Background(), "den"); err != nil || g.GuildID != local.GuildID || g.Black.Player.ID != "carol" {
		t.Fatalf("the game in #den: %+v %v", g, err)
	}
	if list, _ := e.store.PoolEntries(context.Background(), ""); len(list) != 2 || list[0].PlayerID != "gina" || list[1].PlayerID != "hank" {
		t.Errorf("the DM's waits after both pairings: %+v", list)
	}
}

// A newcomer from the DM joining a wait on a server whose games open
// threads: the game gets its thread off the waiting channel, the channel
// is told where it is (not the thread twice), and the one who waited is
// pinged in the channel.
func TestPlayFromTheBotsDMIntoAThread(t *testing.T) {
	e := openThreads(t, 5)
	e.cfg.PageURL = func(id string) string { return "https://othello.example/g/" + id }
	e.adapter.SetService(rebuild(e, quiet))
	e.say("carol #den: /play time:1+0 rated:false")
	if resp := e.handle("admin", local.GuildID, "den", bot.Request{Kind: bot.Command, Command: "settings",
		Options: map[string]string{"pool": "open"}, MemberPermissions: bot.PermManageGuild}); resp.Message == nil {
		t.Fatal("no answer to opening the pool")
	}
	before := e.out.Len()
	resp := e.handle("frank", "", "dm-frank", bot.Request{Kind: bot.Command, Command: "play", Options: map[string]string{"time": "1+0"}, Place: place.BotDM})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "You are paired with carol: game #1 is on in their server.") {
		t.Fatalf("frank's answer: %+v", resp.Message)
	}
	g, err := e.store.Game(context.Background(), 1)
	if err != nil || g.ParentID != "den" || g.ChannelID == "den" {
		t.Fatalf("the game is not in a thread of #den: %+v %v", g, err)
	}
	shown := e.out.String()[before:]
	expect(t, shown, "in #den ---\n@carol, frank joins your game from elsewhere", "Game #1 · carol ⚫ vs frank ⚪")
	if strings.Count(shown, "Game #1 · carol ⚫ vs frank ⚪") != 1 {
		t.Errorf("the board shown more than once:\n%s", shown)
	}
	expect(t, shown, "carol was paired with frank: game #1 in #thread-")
}

// openPool opens a server to the others (/settings pool:open by one with
// Manage Server there).
func (e *env) openPool(guild string) {
	e.t.Helper()
	resp := e.handle("admin-"+guild, guild, "den", bot.Request{Kind: bot.Command, Command: "settings",
		Options: map[string]string{"pool": "open"}, MemberPermissions: bot.PermManageGuild})
	if resp.Message == nil || !strings.Contains(resp.Message.Content, "also pair with players of other servers") {
		e.t.Fatalf("opening %s's pool: %+v", guild, resp.Message)
	}
}
