package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

type recordingLauncher struct{ asked []Launch }

func (l *recordingLauncher) Launch(_ context.Context, launch Launch) (Outcome, error) {
	l.asked = append(l.asked, launch)
	return Outcome{}, nil
}

func (l *recordingLauncher) Opening(context.Context, string, string) (string, error) { return "", nil }

// The Activity's lobby answers only a signed-in player, from its own
// page, with a launch it can make sense of; its pages may be framed by
// Discord, the public pages by nobody.
func TestActivityRefusals(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 2)
	sessions := testSessions(t, 0)
	launcher := &recordingLauncher{}
	f.web.EnablePlay(sessions, &recordingActor{})
	f.web.EnableActivity("1", &DiscordLogin{ClientID: "1", Secret: "s"}, f.store, launcher)
	alice := sessions.SessionToken(record.Player{ID: "1", Name: "alice"})
	do := func(method, path, body, token string, headers ...string) int {
		t.Helper()
		req, _ := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	start := `{"kind": "start", "level": 3, "channel_id": "42"}`
	for name, c := range map[string]struct {
		status                    int
		method, path, body, token string
		headers                   []string
	}{
		"games without a session":    {401, "GET", "/activity/games?guild_id=1", "", "", nil},
		"a forged session":           {401, "GET", "/activity/games", "", testSessions(t, 1).SessionToken(record.Player{ID: "1", Name: "alice"}), nil},
		"a launch without session":   {401, "POST", "/activity/launch", start, "", nil},
		"a launch from another site": {403, "POST", "/activity/launch", start, alice, []string{"Sec-Fetch-Site", "cross-site"}},
		"an unknown launch":          {400, "POST", "/activity/launch", `{"kind": "delete", "channel_id": "42"}`, alice, nil},
		"level 21":                   {400, "POST", "/activity/launch", `{"kind": "start", "level": 21, "channel_id": "42"}`, alice, nil},
		"no channel":                 {400, "POST", "/activity/launch", `{"kind": "start", "level": 3}`, alice, nil},
		"challenging oneself":        {400, "POST", "/activity/launch", `{"kind": "challenge", "opponent": "1", "channel_id": "42"}`, alice, nil},
		"a token without a code":     {400, "POST", "/activity/token", `{}`, "", nil},
	} {
		if got := do(c.method, c.path, c.body, c.token, c.headers...); got != c.status {
			t.Errorf("%s: %d, want %d", name, got, c.status)
		}
	}
	if len(launcher.asked) != 0 {
		t.Fatalf("refused launches reached the bot: %+v", launcher.asked)
	}
	if got := do("POST", "/activity/launch", start, alice); got != 200 || len(launcher.asked) != 1 || launcher.asked[0].Player.ID != "1" {
		t.Fatalf("alice's launch: %d %+v", got, launcher.asked)
	}
	for path, framed := range map[string]bool{"/activity/": true, "/activity/g/" + g.PublicID: true, PagePath(g.PublicID): false} {
		resp, err := http.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if path == "/activity/" && (!strings.Contains(string(body), `<option value="20">20 · my best`) || !strings.Contains(string(body), `<option value="13" selected>13 · strong club player · rating ≈`)) {
			t.Errorf("the lobby's levels:\n%s", body)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if strings.Contains(csp, "https://discord.com") != framed || framed == strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: policy %q", path, csp)
		}
	}
}

// The lobby lists a server's games to its members only (as Discord said
// when the session was made); to anyone else, and outside servers, only
// their own.
func TestActivityListsAServerToItsMembers(t *testing.T) {
	f := newFixture(t)
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	f.web.EnableActivity("1", &DiscordLogin{ClientID: "1", Secret: "s"}, f.store, &recordingLauncher{})
	ctx := context.Background()
	mk := func(guild, channel, player string) {
		start, _ := game.NewPosition(8)
		now := time.Now()
		g := &record.Game{GuildID: guild, ChannelID: channel, State: game.NewGame(start), Black: record.Human(record.Player{ID: player, Name: "p" + player}),
			White: record.Bot(3), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
		if err := f.store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	mk("500", "c1", "1") // alice's, in the server
	mk("500", "c2", "2") // someone else's there
	mk("", "dm3", "3")   // someone's DM game
	mk("", "dm1", "1")   // alice's DM game
	alice := record.Player{ID: "1", Name: "alice"}
	list := func(token, guild string) (mine, live int) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/activity/games?guild_id="+guild, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ Mine, Live []lobbyGame }
		json.NewDecoder(resp.Body).Decode(&out)
		return len(out.Mine), len(out.Live)
	}
	member, stranger := sessions.sessionIn(alice, "500"), sessions.sessionIn(alice, "")
	for name, c := range map[string]struct {
		token, guild       string
		wantMine, wantLive int
	}{
		"a member":          {member, "500", 1, 1},
		"not said a member": {stranger, "500", 1, 0},
		"another server":    {member, "600", 0, 0},
		"outside servers":   {member, "", 1, 0},
	} {
		if mine, live := list(c.token, c.guild); mine != c.wantMine || live != c.wantLive {
			t.Errorf("%s: %d mine, %d live; want %d, %d", name, mine, live, c.wantMine, c.wantLive)
		}
	}
}
