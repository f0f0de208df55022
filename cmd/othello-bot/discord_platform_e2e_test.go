package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// Discord holds back thread starts on a server for minutes (a 429 of scope
// shared and a retry_after of 240 s, as field reports show): an accepted
// challenge starts its game in the channel within 3 s instead of hanging,
// the 429 is logged, and no other channel of the server asks Discord again
// until it lifts: /start there plays in its channel and says why.
func TestDiscordLongThreadLimitPlaysInTheChannel(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	srv.AddChannel(hall, discordtest.AllText|discordtest.CreatePublicThreads)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	srv.LimitThreadStarts(0, time.Minute, 240*time.Second)

	r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "size": 6, "rated": false}))
	msgs := srv.Messages(lobby, "")
	challenge := msgs[len(msgs)-1]
	accept, ok := challenge.Button("Accept")
	if !ok {
		t.Fatalf("no Accept: %s", challenge.Text())
	}
	clicked := time.Now()
	srv.Click(bob, challenge, accept)
	for liveGame(srv, lobby) == nil {
		if time.Since(clicked) > 3*time.Second {
			t.Fatalf("no game in the channel within 3 s of Accept; threads %+v; log:\n%s", srv.Threads(), r.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("Accept → board in the channel: %v", time.Since(clicked).Round(time.Millisecond))
	if len(srv.Threads()) != 0 {
		t.Fatalf("threads %+v", srv.Threads())
	}
	if !strings.Contains(r.logs.String(), "rate limited (429)") || !strings.Contains(r.logs.String(), "scope=shared") {
		t.Errorf("the 429 is not logged:\n%s", r.logs)
	}

	ia := r.do(srv.Command(carol, hall, "start", map[string]any{"level": 1, "size": 4}))
	reply := srv.Reply(ia)
	if liveGame(srv, hall) == nil {
		t.Fatalf("/start in another channel: no game there; log:\n%s", r.logs)
	}
	notes := reply.Text()
	for _, f := range srv.Followups(ia) {
		notes += f.Text()
	}
	if !strings.Contains(notes, "holding back new threads") {
		t.Errorf("/start does not say why the game is in the channel: %q", notes)
	}
	if n := len(srv.RateLimited()); n != 1 {
		t.Errorf("%d thread starts answered 429: the server's wait was not kept (%q)", n, srv.RateLimited())
	}
	checkClean(t, srv, r)
}

// SIGTERM while a reply waits out a 429 stops the bot within 5 s: no wait
// for Discord's rate limits outlasts the shutdown's grace.
func TestDiscordShutdownDuringA429(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	const route = "PATCH /webhooks/{id}/{token}/messages/@original"
	srv.RefuseNext(route, 9*time.Second)
	srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 4})
	for deadline := time.Now().Add(10 * time.Second); len(srv.RateLimited()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the reply was never refused; log:\n%s", r.logs)
		}
	}
	time.Sleep(200 * time.Millisecond) // the reply is waiting out the 429
	stopped := time.Now()
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("the bot stopped with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the bot did not stop within 5 s of SIGTERM with a 429 pending; log:\n%s", r.logs)
	}
	t.Logf("stopped %v after SIGTERM", time.Since(stopped).Round(time.Millisecond))
}

// The Activity's Entry Point, as Discord runs it since Activities have
// one: enabling Activities makes a default Entry Point ("launch", handled
// by Discord), and a bulk overwrite of the global commands that leaves it
// out is refused (50240). With the Activity off the bot registers its
// commands around the Entry Point and leaves it as it is; with it on, the
// bot's own Entry Point takes its place (same id, APP_HANDLER), and the
// App Launcher's press is answered with the Activity itself; registering
// in a server then clears the global commands but the Entry Point.
func TestDiscordEntryPointKept(t *testing.T) {
	srv := newFake(t)
	srv.EnableActivities()
	entry := func() map[string]any {
		for _, c := range srv.Commands("") {
			if c["type"] == 4 || c["type"] == float64(4) {
				return c
			}
		}
		return nil
	}
	registered := func(scope, name string, r *botRun) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			for _, c := range srv.Commands(scope) {
				if c["name"] == name {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("/%s never registered in %q; violations %q; log:\n%s", name, scope, srv.Violations(), r.logs)
			}
		}
	}
	discords := entry()
	dir := t.TempDir()

	c := testBotConfig(srv, dir)
	c.GuildIDs = nil
	r := startBot(t, srv, c)
	registered("", "start", r)
	if ep := entry(); ep == nil || ep["id"] != discords["id"] || num(ep["handler"]) != 2 {
		t.Fatalf("with the Activity off the Entry Point changed: %v, was %v", ep, discords)
	}
	if srv.AppLauncher(alice, lobby) != nil || len(srv.Launches()) != 1 {
		t.Fatalf("Discord's own Entry Point did not launch: %+v", srv.Launches())
	}
	r.stop()

	c.Activity = true
	c.WebAddress = freeAddress(t)
	c.PublicURL, c.ApplicationID = "http://"+c.WebAddress+"/", srv.AppID
	t.Setenv(ClientSecretEnv, "activity-secret")
	srv.EnableOAuth("activity-secret", c.PublicURL+"login/discord/callback")
	r = startBot(t, srv, c)
	for deadline := time.Now().Add(10 * time.Second); num(entry()["handler"]) != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot's Entry Point was not registered: %v; log:\n%s", entry(), r.logs)
		}
	}
	if ep := entry(); ep["id"] != discords["id"] || ep["name"] != "launch" || len(ep["name_localizations"].(map[string]any)) == 0 {
		t.Fatalf("the bot's Entry Point %v (Discord's had id %v)", ep, discords["id"])
	}
	ia := srv.AppLauncher(bob, lobby)
	if ia == nil {
		t.Fatal("the App Launcher did not reach the bot")
	}
	if err := srv.Wait(ia, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if l := srv.Launches(); srv.AckKind(ia) != 12 || len(l) != 2 || l[1].User.ID != bob.ID || srv.AckTime(ia) > discordtest.AckLimit {
		t.Fatalf("the Entry Point answered with type %d after %v; launches %+v", srv.AckKind(ia), srv.AckTime(ia), l)
	}
	r.stop()

	c.GuildIDs = []string{srv.GuildID}
	r = startBot(t, srv, c)
	registered(srv.GuildID, "start", r)
	for deadline := time.Now().Add(10 * time.Second); len(srv.Commands("")) != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("global commands after moving to the server: %d", len(srv.Commands("")))
		}
	}
	if ep := entry(); ep == nil || num(ep["handler"]) != 1 {
		t.Fatalf("clearing the global commands lost the Entry Point: %v", srv.Commands(""))
	}
	checkClean(t, srv, r)
}

func num(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	}
	return 0
}

// connectProxy is an HTTP proxy on loopback, as operators put in front of
// a bot: CONNECT tunnels (the gateway) and absolute-URL requests (plain
// HTTP REST), each counted.
type connectProxy struct {
	mu       sync.Mutex
	connects []string // CONNECT targets
	forwards int
}

func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		p.mu.Lock()
		p.forwards++
		p.mu.Unlock()
		out := r.Clone(r.Context())
		out.RequestURI = ""
		resp, err := (&http.Transport{}).RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
		return
	}
	p.mu.Lock()
	p.connects = append(p.connects, r.Host)
	p.mu.Unlock()
	upstream, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	go func() {
		defer upstream.Close()
		if buf.Reader.Buffered() > 0 {
			io.CopyN(upstream, buf, int64(buf.Reader.Buffered()))
		}
		io.Copy(upstream, client)
	}()
	go func() {
		defer client.Close()
		io.Copy(client, upstream)
	}()
}

// Behind an HTTP proxy the bot reaches the gateway through a CONNECT
// tunnel (it used to TLS-dial the proxy itself and blame the token) and
// its REST calls through the proxy too: it connects, registers and plays.
// A proxy that is not there is named in the start-up error.
func TestDiscordThroughAProxy(t *testing.T) {
	srv := newFake(t)
	p := &connectProxy{}
	proxy := httptest.NewServer(p)
	defer proxy.Close()
	c := testBotConfig(srv, t.TempDir())
	c.Proxy = proxy.URL
	r := startBot(t, srv, c)
	r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 4}))
	if liveGame(srv, lobby) == nil {
		t.Fatalf("no game through the proxy; log:\n%s", r.logs)
	}
	p.mu.Lock()
	connects, forwards := p.connects, p.forwards
	p.mu.Unlock()
	gateway := strings.TrimSuffix(strings.TrimPrefix(srv.URL(), "http://"), "/")
	if len(connects) == 0 || connects[0] != gateway || forwards == 0 {
		t.Fatalf("through the proxy: CONNECT %q (the gateway is %s), %d REST calls", connects, gateway, forwards)
	}
	r.stop()

	c.Proxy = "http://" + freeAddress(t)
	err := serveDiscord(context.Background(), c, testToken, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil || !strings.Contains(err.Error(), "proxy "+c.Proxy) ||
		strings.Contains(err.Error(), "DISCORD_TOKEN") {
		t.Fatalf("with the proxy away: %v", err)
	}
}

// The gateway intents stay GUILDS alone: no privileged intent (members,
// presences, message content), so the bot's growth never waits on
// Discord's review of them (issue #52 cites a policy of 2026-06-10), and nothing it does
// needs more.
func TestDiscordIntentsAreGuildsOnly(t *testing.T) {
	srv := newFake(t)
	startBot(t, srv, testBotConfig(srv, t.TempDir()))
	if got := srv.Intents(); got != 1 {
		t.Fatalf("the bot identified with intents %b, want GUILDS (1) alone", got)
	}
}

// "Challenge to Othello" in a member's Apps menu (a user command) is
// /challenge with that member as the opponent: the challenge is posted
// for them to accept, and accepting it starts the game.
func TestDiscordChallengeFromAMembersMenu(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	r.do(srv.UserCommand(alice, lobby, "Challenge to Othello", bob))
	var challenge *discordtest.Message
	for _, m := range srv.Messages(lobby, "") {
		if _, ok := m.Button("Accept"); ok && strings.Contains(m.Content, "<@"+bob.ID+">") {
			challenge = m
		}
	}
	if challenge == nil {
		t.Fatalf("no challenge for bob; messages %+v; log:\n%s", srv.Messages(lobby, ""), r.logs)
	}
	accept, _ := challenge.Button("Accept")
	r.do(srv.Click(bob, challenge, accept))
	if liveGame(srv, lobby) == nil {
		t.Fatalf("no game after bob accepted; log:\n%s", r.logs)
	}
	checkClean(t, srv, r)
}

// /analyze file: takes a record as an attached .ggf (or .txt) file, read
// from Discord's CDN as the record: option would be; a file of another
// kind is refused, only to the asker, and nothing is analysed.
func TestDiscordAnalyzeAnAttachedRecord(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	ggf := "(;GM[Othello]PC[elsewhere]PB[ann]PW[ben]RE[?]TI[0:00]TY[8]" +
		"BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3]W[d3]B[c4];)"
	r.do(srv.Command(alice, lobby, "analyze", map[string]any{"file": discordtest.Attachment{Filename: "game.GGF", Content: ggf}}))
	// The analysis is a channel message, edited until the report is there.
	for deadline := time.Now().Add(60 * time.Second); messageSaying(srv, lobby, "", "Analysis of a record") == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no analysis of the attached record: %+v; log:\n%s", srv.Messages(lobby, ""), r.logs)
		}
	}
	png := srv.Reply(r.do(srv.Command(alice, lobby, "analyze", map[string]any{"file": discordtest.Attachment{Filename: "board.png", Content: "\x89PNG"}})))
	if png == nil || !png.Ephemeral || !strings.Contains(png.Text(), ".ggf or .txt") {
		t.Fatalf("a picture as a record: %+v", png)
	}
	checkClean(t, srv, r)
}

// A name with bidirectional controls (a right-to-left override reverses
// the rest of the line it is in) is shown without them: in the challenge,
// the game's message, its thread's name and its export.
func TestDiscordNamesCannotReorderTheBotsLine(t *testing.T) {
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	mallory := discordtest.User{ID: "7000000000000000066", Name: "\u202emallory\u2066x\u2069"}
	r.do(srv.Command(mallory, lobby, "challenge", map[string]any{"opponent": bob, "size": 4, "color": "black", "rated": false}))
	msgs := srv.Messages(lobby, "")
	accept, _ := msgs[len(msgs)-1].Button("Accept")
	r.do(srv.Click(bob, msgs[len(msgs)-1], accept))
	th := srv.Threads()
	if len(th) != 1 {
		t.Fatalf("threads %+v", th)
	}
	shownAs := mallory
	shownAs.Name = "malloryx" // as the bot shows her: who is to move is found by name
	playToTheEnd(t, r, th[0].ID, map[string]discordtest.User{mallory.ID: shownAs, bob.ID: bob})
	export := r.do(srv.Command(bob, lobby, "export", map[string]any{"game": 1}))
	var shown []string
	for _, ch := range []string{lobby, th[0].ID} {
		for _, m := range srv.Messages(ch, "") {
			shown = append(shown, m.Text())
		}
	}
	for _, m := range append(srv.Followups(export), srv.Reply(export)) {
		if m != nil {
			shown = append(shown, m.Text())
		}
	}
	shown = append(shown, th[0].Name)
	named := 0
	for _, s := range shown {
		if strings.ContainsAny(s, "\u202e\u2066\u2069") {
			t.Errorf("a bidirectional control reached Discord: %q", s)
		}
		if strings.Contains(s, "malloryx") {
			named++
		}
	}
	if named < 3 {
		t.Errorf("mallory's name shown %d times: %q", named, shown)
	}
}
