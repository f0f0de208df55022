package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
	"othello-bot/internal/browsertest"
)

// harnessPage is Discord's client as an Activity's frame meets it: it
// frames the app with the query Discord gives (frame_id, instance_id,
// platform, guild_id, channel_id) and answers the Embedded App SDK's
// postMessage protocol as the SDK's own source expects (Discord.ts: the
// [opcode, payload] tuples, HANDSHAKE answered by a READY dispatch;
// schema/responses.ts and generated/schemas.ts: AUTHORIZE's {code},
// AUTHENTICATE's {access_token, user, scopes, expires, application}, and
// an ERROR event for what it refuses). The code comes from the fake
// Discord as for a consenting user, and authenticate checks the token with
// it: the token the app's server got for that code, or an error.
//
// Sharing and presence as the SDK documents them (commands/shareLink.ts,
// openInviteDialog.ts, setActivity.ts; generated/schemas.ts): SHARE_LINK
// takes {message ≤ 1000, custom_id ≤ 64} and answers {success,
// didCopyLink, didSendMessage}; the link it shares launches the Activity
// with custom_id (and referrer_id) in its query (Discord.ts reads both).
// OPEN_INVITE_DIALOG refuses outside a server's channel
// (RPCError.INVALID_CHANNEL). SET_ACTIVITY needs the rpc.activities.write
// scope granted to the token the frame authenticated with ("Using Rich
// Presence with the Embedded App SDK"), and answers the activity.
// Each document of the frame handshakes anew, and must authenticate
// anew: the grant is the connection's.
const harnessPage = `<!doctype html>
<html><body>
<iframe id="app" style="width: 900px; height: 1000px; border: 0"></iframe>
<script>
"use strict";
const params = new URLSearchParams(location.search);
const clientId = params.get("client_id"), frameId = "frame-" + Math.random().toString(16).slice(2);
const frame = document.getElementById("app");
window.rpc = []; window.shared = []; window.presence = []; window.invites = 0;
let granted = [];
const launch = {frame_id: frameId, instance_id: "instance-1", platform: "desktop",
  guild_id: params.get("guild_id"), channel_id: params.get("channel_id")};
if (params.get("custom_id")) Object.assign(launch, {custom_id: params.get("custom_id"), referrer_id: params.get("referrer_id") || ""});
frame.src = "/.proxy/?" + new URLSearchParams(launch);
function send(payload) { frame.contentWindow.postMessage([1, payload], location.origin); }
function refuse(data, message) { send({cmd: data.cmd, evt: "ERROR", nonce: data.nonce, data: {code: 4000, message}}); }
window.addEventListener("message", async (e) => {
  if (e.source !== frame.contentWindow || !Array.isArray(e.data)) return;
  const [op, data] = e.data;
  window.rpc.push(op + " " + (data.cmd || ""));
  if (op === 0) {
    if (data.v !== 1 || data.encoding !== "json" || data.client_id !== clientId || data.frame_id !== frameId) {
      window.rpcError = "bad handshake: " + JSON.stringify(data);
      return;
    }
    granted = [];
    const me = await (await fetch("/harness/me")).json();
    send({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production"},
      user: {id: me.id, username: me.name, discriminator: "0"}}});
    return;
  }
  if (op !== 1) return;
  if (data.cmd === "AUTHORIZE") {
    const a = data.args || {};
    if (a.client_id !== clientId || !Array.isArray(a.scope) || !a.scope.includes("identify")) return refuse(data, "bad authorize");
    const code = await (await fetch("/harness/code?" + new URLSearchParams({scope: a.scope.join(" ")}))).text();
    return send({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code}});
  }
  if (data.cmd === "AUTHENTICATE") {
    const r = await fetch("/harness/token?" + new URLSearchParams({token: (data.args || {}).access_token || ""}));
    if (!r.ok) return refuse(data, "Invalid token");
    const u = await r.json();
    granted = u.scopes;
    return send({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {access_token: data.args.access_token,
      user: {username: u.name, discriminator: "0", id: u.id, avatar: null, public_flags: 0, global_name: u.name},
      scopes: u.scopes, expires: new Date(Date.now() + 7 * 86400e3).toISOString(),
      application: {description: "", icon: null, id: clientId, name: "othello-bot"}}});
  }
  if (data.cmd === "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS") {
    const people = await (await fetch("/harness/participants")).json();
    return send({cmd: data.cmd, evt: null, nonce: data.nonce, data: {participants: people.map(p =>
      ({id: p.id, username: p.name, global_name: p.name, discriminator: "0", avatar: null, flags: 0, bot: false}))}});
  }
  if (data.cmd === "SHARE_LINK") {
    const a = data.args || {};
    if (typeof a.message !== "string" || a.message.length > 1000 || (a.custom_id || "").length > 64) return refuse(data, "bad share");
    window.shared.push({message: a.message, custom_id: a.custom_id || ""});
    return send({cmd: data.cmd, evt: null, nonce: data.nonce, data: {success: true, didCopyLink: true, didSendMessage: false}});
  }
  if (data.cmd === "OPEN_INVITE_DIALOG") {
    if (!launch.guild_id) return refuse(data, "INVALID_CHANNEL");
    window.invites++;
    return send({cmd: data.cmd, evt: null, nonce: data.nonce, data: null});
  }
  if (data.cmd === "SET_ACTIVITY") {
    if (!granted.includes("rpc.activities.write")) return refuse(data, "missing scope rpc.activities.write");
    const act = (data.args || {}).activity || {};
    window.presence.push(act);
    return send({cmd: data.cmd, evt: null, nonce: data.nonce, data: {name: "othello-bot", type: act.type || 0, ...act}});
  }
  refuse(data, "not answered by this harness");
});
</script>
</body></html>`

// activityHost is <app id>.discordsays.com as the test has it: the
// harness (Discord's client) and, by the app's URL mapping (/ to the
// bot's /activity), the app itself at / and under /.proxy/, on one origin.
func activityHost(t *testing.T, srv *discordtest.Server, bot string, user discordtest.User, others ...discordtest.User) *httptest.Server {
	target, _ := url.Parse("http://" + bot)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		p := strings.TrimPrefix(r.In.URL.Path, "/.proxy")
		r.SetURL(target)
		r.Out.URL.Path, r.Out.URL.RawPath = "/activity"+p, ""
		r.Out.Host = target.Host
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /harness", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, harnessPage)
	})
	mux.HandleFunc("GET /harness/me", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"id": user.ID, "name": user.Name})
	})
	mux.HandleFunc("GET /harness/participants", func(w http.ResponseWriter, r *http.Request) {
		people := []map[string]string{{"id": user.ID, "name": user.Name}}
		for _, o := range others {
			people = append(people, map[string]string{"id": o.ID, "name": o.Name})
		}
		json.NewEncoder(w).Encode(people)
	})
	mux.HandleFunc("GET /harness/code", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, srv.IssueCode(user, strings.Fields(r.URL.Query().Get("scope"))...))
	})
	mux.HandleFunc("GET /harness/token", func(w http.ResponseWriter, r *http.Request) {
		u, scopes, ok := srv.TokenGrant(r.URL.Query().Get("token"))
		if !ok {
			http.Error(w, "no such token", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": u.ID, "name": u.Name, "scopes": scopes})
	})
	mux.Handle("/", proxy)
	h := httptest.NewServer(mux)
	t.Cleanup(h.Close)
	return h
}

// The Activity end to end, offline: Discord's client (the harness) frames
// it; the SDK's authorize, our server's token exchange with the fake
// Discord and authenticate sign alice in; the lobby lists her game, and
// she opens it and moves by a click inside the frame — and the game
// message in Discord is edited to the move.
func TestActivityPlaysInTheHarness(t *testing.T) {
	srv, c, r := activityBot(t)
	alice := discordtest.User{ID: "710000000000000011", Name: "alice"}
	bob := discordtest.User{ID: "710000000000000012", Name: "bob"}
	board := challengeAccepted(t, srv, r, alice, bob)

	host := activityHost(t, srv, c.WebAddress, alice)
	f := openActivity(t, browsertest.Start(t, time.Minute), host, srv, lobby, r)
	tab, inFrame, waitFor := f.tab, f.eval, f.waitFor
	if got := waitFor("the lobby", `d.body.dataset.ready && d.body.dataset.user`); got != alice.ID {
		t.Fatalf("the Activity signed in %q, want alice", got)
	}
	rpc, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.rpc`))
	if err != nil || strings.Join(rpc, ",") != "0 ,1 AUTHORIZE,1 AUTHENTICATE,1 GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS,1 SET_ACTIVITY" {
		t.Fatalf("the SDK's conversation with Discord's client: %q (%v)", rpc, err)
	}
	mine := waitFor("alice's game in the lobby", `d.querySelector("#mine a").dataset.game`)
	if dir := os.Getenv("OTHELLO_SCREENSHOTS"); dir != "" {
		time.Sleep(300 * time.Millisecond) // painted
		if png, err := chromedp.Run(tab, chromedp.FullScreenshot(100)); err == nil {
			os.WriteFile(dir+"/activity-lobby.png", png, 0o644)
		}
	}
	if !strings.HasSuffix(board.Embeds[0]["url"].(string), "/g/"+mine) {
		t.Fatalf("the lobby lists %s as alice's game; the game is %v", mine, board.Embeds[0]["url"])
	}
	inFrame(`d.querySelector("#mine a").click()`)
	square := waitFor("alice's legal squares on the game's page", `d.querySelector("#squares button.legal").dataset.square`)
	if path := inFrame(`d.location.pathname`); path != "/.proxy/g/"+mine {
		t.Fatalf("the game page is at %s", path)
	}
	edits := board.Edits
	inFrame(`d.querySelector('#squares button[data-square="` + square + `"]').click()`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := liveGame(srv, lobby); m != nil && m.ID == board.ID && m.Edits > edits && strings.Contains(m.Content, square) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game message never showed alice's %s from the Activity; log:\n%s", square, r.logs)
		}
	}
	// Framed by Discord (and only in the Activity): its pages say so.
	resp, err := http.Get(host.URL + "/.proxy/g/" + mine)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://discord.com") {
		t.Errorf("the Activity's page policy: %q", csp)
	}
	checkClean(t, srv, r)
}

// activityFrame is a person's browser on the harness: Discord's client
// with the Activity launched in a channel.
type activityFrame struct {
	t   *testing.T
	tab context.Context
	r   *botRun
}

func openActivity(t *testing.T, browser context.Context, host *httptest.Server, srv *discordtest.Server, channel string, r *botRun) *activityFrame {
	return openActivityLink(t, browser, host, srv, channel, r, "")
}

// openActivityLink launches the Activity as a shared link does: with the
// link's custom_id in Discord's launch query.
func openActivityLink(t *testing.T, browser context.Context, host *httptest.Server, srv *discordtest.Server, channel string, r *botRun, customID string) *activityFrame {
	t.Helper()
	f := &activityFrame{t: t, tab: browsertest.Person(t, browser), r: r}
	q := url.Values{"client_id": {srv.AppID}, "guild_id": {srv.GuildID}, "channel_id": {channel}}
	if customID != "" {
		q.Set("custom_id", customID)
		q.Set("referrer_id", "710000000000000099")
	}
	if err := chromedp.Do(f.tab, chromedp.Navigate(host.URL+"/harness?"+q.Encode())); err != nil {
		t.Fatal(err)
	}
	return f
}

// eval runs js with d, the Activity's document in the frame (the same
// origin as the harness, as the SDK requires), and returns it as text.
func (f *activityFrame) eval(js string) string {
	f.t.Helper()
	v, err := chromedp.Run(f.tab, chromedp.Evaluate[string](`(() => { const d = document.getElementById("app").contentDocument;
		try { return String(`+js+`); } catch (e) { return ""; } })()`))
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

// waitFor waits until js has a value.
func (f *activityFrame) waitFor(what, js string) string {
	f.t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if v := f.eval(js); v != "" && v != "undefined" && v != "null" {
			return v
		}
		if time.Now().After(deadline) {
			rpc, _ := chromedp.Run(f.tab, chromedp.Evaluate[string](`JSON.stringify([window.rpc, window.rpcError || ""])`))
			f.t.Fatalf("%s: not within 15 s (RPC %s); log:\n%s", what, rpc, f.r.logs)
		}
	}
}

// challengeAccepted has a challenge to bob answered in the lobby, alice
// black, on a time control if one is given, and returns the game message.
func challengeAccepted(t *testing.T, srv *discordtest.Server, r *botRun, alice, bob discordtest.User, control ...string) *discordtest.Message {
	t.Helper()
	opts := map[string]any{"opponent": bob, "color": "black", "rated": false}
	if len(control) > 0 {
		opts["time"] = control[0]
	}
	ia := srv.Command(alice, lobby, "challenge", opts)
	if err := srv.Wait(ia, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	var accept string
	var challenge *discordtest.Message
	for _, m := range srv.Messages(lobby, bob.ID) {
		if id, ok := m.Button("Accept"); ok {
			challenge, accept = m, id
		}
	}
	if challenge == nil {
		t.Fatalf("no challenge to accept; log:\n%s", r.logs)
	}
	if err := srv.Wait(srv.Click(bob, challenge, accept), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	board := liveGame(srv, lobby)
	if board == nil || len(board.Embeds) == 0 {
		t.Fatalf("no game message; log:\n%s", r.logs)
	}
	return board
}

// activityBot runs the bot with its pages and the Activity on (a client
// secret, the application's id, a public address) against a fake Discord
// with OAuth2; tune changes the config before the bot starts.
func activityBot(t *testing.T, tune ...func(*config.Config)) (*discordtest.Server, config.Config, *botRun) {
	t.Helper()
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.WebAddress = freeAddress(t)
	c.PublicURL, c.ApplicationID = "http://"+c.WebAddress+"/", srv.AppID
	for _, f := range tune {
		f(&c)
	}
	t.Setenv(ClientSecretEnv, "activity-secret")
	srv.EnableOAuth("activity-secret", c.PublicURL+"login/discord/callback")
	return srv, c, startBot(t, srv, c)
}

// freeAddress is a loopback address nothing listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	h := httptest.NewServer(http.NotFoundHandler())
	addr := h.Listener.Addr().String()
	h.Close()
	return addr
}

// From the Activity's lobby, through the same commands as in Discord:
// alice starts a game against the bot (its page opens, hers to play, and
// the game message is posted in the channel); bob, in the same Activity
// in another channel, challenges alice, who sees the challenge in her
// lobby there and accepts it — the game opens for her, and the challenge's
// message in Discord becomes the game's.
func TestActivityStartsAndAnswersChallenges(t *testing.T) {
	srv, c, r := activityBot(t)
	alice := discordtest.User{ID: "710000000000000021", Name: "alice"}
	bob := discordtest.User{ID: "710000000000000022", Name: "bob"}
	browser := browsertest.Start(t, 2*time.Minute)

	a := openActivity(t, browser, activityHost(t, srv, c.WebAddress, alice, bob), srv, lobby, r)
	a.waitFor("alice's lobby", `d.body.dataset.ready`)
	a.eval(`(d.getElementById("level").value = "1", d.getElementById("start").click())`)
	if me := a.waitFor("the new game's page", `d.body.dataset.activity && d.querySelector("#squares button.legal") && d.body.dataset.me`); me == "" {
		t.Fatal("no side for alice")
	}
	if m := liveGame(srv, lobby); m == nil || !strings.Contains(m.Text(), "alice") {
		t.Fatalf("no game message for alice's game in the channel; log:\n%s", r.logs)
	}

	b := openActivity(t, browser, activityHost(t, srv, c.WebAddress, bob, alice), srv, hall, r)
	b.waitFor("alice among bob's people", `d.querySelector('#people button[data-user="`+alice.ID+`"]')`)
	// bob, a member of the server, sees alice's game there to watch.
	b.waitFor("alice's game among the server's, shown", `d.querySelector("#watch a") && d.querySelector("#watch a").offsetParent`)
	b.eval(`d.querySelector('#people button[data-user="` + alice.ID + `"]').click()`)
	if note := b.waitFor("the challenge sent", `d.getElementById("state").textContent`); !strings.Contains(note, "alice") {
		t.Fatalf("bob was told %q", note)
	}
	var challenge *discordtest.Message
	for _, m := range srv.Messages(hall, alice.ID) {
		if _, ok := m.Button("Accept"); ok {
			challenge = m
		}
	}
	if challenge == nil {
		t.Fatalf("no challenge in the channel; log:\n%s", r.logs)
	}

	a2 := openActivity(t, browser, activityHost(t, srv, c.WebAddress, alice, bob), srv, hall, r)
	a2.waitFor("bob's challenge in alice's lobby", `d.querySelector("#challenges button[data-challenge]")`)
	a2.eval(`d.querySelector("#challenges button[data-challenge]").click()`)
	a2.waitFor("the accepted game's page", `d.body.dataset.activity && d.getElementById("squares").children.length`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := liveGame(srv, hall); m != nil && m.ID == challenge.ID {
			break // the challenge's message is the game's now
		}
		if time.Now().After(deadline) {
			t.Fatalf("the challenge's message did not become the game; log:\n%s", r.logs)
		}
	}
	checkClean(t, srv, r)
}

// "Watch in Discord" on a game message, end to end: carol, who does not
// play, presses it; the bot answers within Discord's 3 seconds with the
// Activity itself (LAUNCH_ACTIVITY, no message), which Discord's client
// then opens in that channel — and once it has signed carol in, it shows
// the game's board, not its lobby. The board's way back leads to the
// lobby (signed in again with Discord's client, the press used up), which
// lists the game to watch.
func TestDiscordWatchOpensTheActivity(t *testing.T) {
	srv, c, r := activityBot(t, func(c *config.Config) { c.Activity = true })
	srv.EnableActivities()
	alice := discordtest.User{ID: "710000000000000041", Name: "alice"}
	bob := discordtest.User{ID: "710000000000000042", Name: "bob"}
	carol := discordtest.User{ID: "710000000000000043", Name: "carol"}
	board := challengeAccepted(t, srv, r, alice, bob)
	page := linkButton(board, "Watch")
	here := ""
	for _, row := range board.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			if b, _ := it.(map[string]any); b["label"] == "Watch in Discord" {
				here, _ = b["custom_id"].(string)
			}
		}
	}
	if page == "" || here == "" {
		t.Fatalf("the game message's buttons: %v", board.Components)
	}
	ia := srv.Click(carol, board, here)
	if err := srv.Wait(ia, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if launches := srv.Launches(); srv.AckKind(ia) != 12 || len(launches) != 1 || launches[0].User.ID != carol.ID || launches[0].ChannelID != lobby {
		t.Fatalf("carol's press answered with type %d; Activities launched: %+v; log:\n%s", srv.AckKind(ia), launches, r.logs)
	}
	if ack := srv.AckTime(ia); ack > discordtest.AckLimit {
		t.Fatalf("answered after %v", ack)
	}

	host := activityHost(t, srv, c.WebAddress, carol)
	browser := browsertest.Start(t, time.Minute)
	f := openActivity(t, browser, host, srv, lobby, r)
	f.waitFor("the game's board in the Activity", `d.querySelector("#squares button") && d.location.pathname`)
	publicID := page[strings.LastIndex(page, "/")+1:]
	if path := f.eval(`d.location.pathname`); path != "/.proxy/g/"+publicID {
		t.Fatalf("the Activity opened %s, not the game's board /.proxy/g/%s", path, publicID)
	}
	if me := f.eval(`d.body.dataset.me`); me != "" {
		t.Fatalf("carol watches, yet the board has her play %q", me)
	}
	f.waitFor("the way back to the lobby", `!d.getElementById("lobby").hidden && "shown"`)
	f.eval(`d.getElementById("lobby").click()`)
	if got := f.waitFor("the lobby", `d.body.dataset.ready && d.querySelector("#watch a").dataset.game`); got != publicID {
		t.Fatalf("the lobby lists %q to watch, want the game %s", got, publicID)
	}
	if path := f.eval(`d.location.pathname`); path != "/.proxy/" {
		t.Fatalf("back in the lobby at %s", path)
	}
	checkClean(t, srv, r)
}

// "Play with a friend" in the Activity, end to end: alice opens a seat
// (an open challenge in the channel) and shares it through Discord's
// share dialog; bob launches the Activity from the link (its custom_id)
// and lands on that game as its other player; each board is on its
// player's profile (rich presence: who plays, the move). The invite
// dialog opens in a server's channel.
func TestActivityPlayWithAFriend(t *testing.T) {
	srv, c, r := activityBot(t)
	alice := discordtest.User{ID: "710000000000000031", Name: "alice"}
	bob := discordtest.User{ID: "710000000000000032", Name: "bob"}
	browser := browsertest.Start(t, 2*time.Minute)

	a := openActivity(t, browser, activityHost(t, srv, c.WebAddress, alice), srv, lobby, r)
	a.waitFor("alice's lobby", `d.body.dataset.ready`)
	if p := a.waitFor("the lobby on alice's profile", `window.presence.length ? window.presence[0].details : ""`); p != "In the lobby" {
		t.Fatalf("alice's presence reads %q", p)
	}
	a.eval(`d.getElementById("invite").click()`)
	a.waitFor("the invite dialog", `window.invites || ""`)
	a.eval(`d.getElementById("friend").click()`)
	seat := a.waitFor("the seat shared", `window.shared.length ? window.shared[0].custom_id : ""`)
	if msg := a.eval(`window.shared[0].message`); !strings.Contains(msg, "Othello") || !strings.HasPrefix(seat, "c") {
		t.Fatalf("shared %q with %q", seat, msg)
	}
	var open *discordtest.Message
	for _, m := range srv.Messages(lobby, "") {
		if _, ok := m.Button("Accept"); ok && strings.Contains(m.Text(), "alice") {
			open = m
		}
	}
	if open == nil {
		t.Fatalf("no open challenge from alice in the channel; log:\n%s", r.logs)
	}

	b := openActivityLink(t, browser, activityHost(t, srv, c.WebAddress, bob, alice), srv, lobby, r, seat)
	side := b.waitFor("bob on the seat", `(d.body.dataset.activity && d.getElementById("squares") && d.getElementById("squares").children.length > 0 && d.body.dataset.me) || ""`)
	if side != "X" && side != "O" {
		t.Fatalf("bob plays %q", side)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := liveGame(srv, lobby); m != nil && m.ID == open.ID {
			break // the open challenge's message is the game's now
		}
		if time.Now().After(deadline) {
			t.Fatalf("the seat's challenge did not become the game; log:\n%s", r.logs)
		}
	}
	who := b.waitFor("the game on bob's profile", `window.presence.length ? JSON.stringify(window.presence[window.presence.length - 1]) : ""`)
	if !strings.Contains(who, `"details":"alice vs bob"`) && !strings.Contains(who, `"details":"bob vs alice"`) || !strings.Contains(who, `move 1"`) {
		t.Fatalf("bob's presence: %s", who)
	}
	// The board shares itself too: a link to this game.
	b.eval(`d.getElementById("share").click()`)
	if id := b.waitFor("the game shared", `window.shared.length ? window.shared[0].custom_id : ""`); !strings.HasPrefix(id, "g") {
		t.Fatalf("the board shared %q", id)
	}
	checkClean(t, srv, r)
}
