package main

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/internal/browsertest"
)

// loginLink is a private link /board gives a player, as local shows it.
var loginLink = regexp.MustCompile(`only visible to (\w+)\) ---\n[^<]*<(http://[^>]+\?login=[^>]+)>`)

// Two players play a whole 8x8 game on a 1+0 clock by clicks on the game's
// page, each in a browser of their own, logged in by the private link
// /board gave them; every click shows on both boards, and the terminal —
// local's stand-in for Discord — shows the same game to the same end.
func TestLocalGamePlayedByClicks(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in two browsers")
	}
	l := startLocal(t)
	l.in.Write([]byte("alice: /challenge @bob color:black rated:false time:1+0\nbob: click Accept\nalice: /board\nbob: /board\n"))
	links := map[string]string{}
	for deadline := time.Now().Add(20 * time.Second); len(links) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no private links in:\n%s", l.out.String())
		}
		for _, m := range loginLink.FindAllStringSubmatch(l.out.String(), -1) {
			links[m[1]] = m[2]
		}
	}
	score, took := playByClicks(t, links)
	// The terminal saw the same game end: its last game message has the
	// page's final score.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out := l.out.String()
		if i := strings.LastIndex(out, "Score: "); i >= 0 && score != "" && strings.HasPrefix(out[i+len("Score: "):], score) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal does not end on the page's score %q:\n%s", score, out[max(0, len(out)-3000):])
		}
	}
	t.Logf("%d clicks; click → both boards p50 %v, max %v; %s", len(took), took[len(took)/2].Round(time.Millisecond),
		took[len(took)-1].Round(time.Millisecond), score)
	l.in.Close()
	if code := <-l.done; code != 0 {
		t.Fatalf("local exited %d", code)
	}
}

// "Log in with Discord" through the real run wiring and the fake Discord's
// OAuth2 (authorize, the code exchanged once for a token, /users/@me):
// alice, signed in to Discord, opens her game's page from the game
// message, logs in, and moves by a click; the game message in Discord is
// edited to the move. The client secret never reaches the log.
func TestDiscordLoginThenMoveOnThePage(t *testing.T) {
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.WebAddress = freeAddress(t)
	c.PublicURL, c.ApplicationID = "http://"+c.WebAddress+"/", srv.AppID
	const secret = "s3cret-that-never-reaches-the-log"
	t.Setenv(ClientSecretEnv, secret)
	srv.EnableOAuth(secret, c.PublicURL+"login/discord/callback")
	alice := discordtest.User{ID: "710000000000000001", Name: "alice", Avatar: "0f1e2d3c4b5a69788796a5b4c3d2e1f0"}
	bob := discordtest.User{ID: "710000000000000002", Name: "bob"}
	srv.SignIn(alice)
	r := startBot(t, srv, c)
	board := challengeAccepted(t, srv, r, alice, bob)
	page, _ := board.Embeds[0]["url"].(string)
	edits := board.Edits
	if !strings.HasPrefix(page, c.PublicURL+"g/") {
		t.Fatalf("the game message links %q", page)
	}
	if url := linkButton(board, "Watch"); url != page {
		t.Fatalf("the game message's Watch button opens %q, not its page %q: %v", url, page, board.Components)
	}
	tab := browsertest.Person(t, browsertest.Start(t, time.Minute))
	if err := chromedp.Do(tab, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("login")), chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.CSS(`#squares button.legal`))); err != nil {
		t.Fatalf("logging in: %v; log:\n%s", err, r.logs)
	}
	me, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.me + " " + location.pathname`))
	if err != nil || me != "X "+strings.TrimPrefix(page, strings.TrimSuffix(c.PublicURL, "/")) {
		t.Fatalf("after logging in: %q (%v), want black on %s", me, err, page)
	}
	// Her Discord avatar, kept as she logged in, beside her name.
	pic, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#box-X .avatar").getAttribute("src") || ""`))
	if want := "https://cdn.discordapp.com/avatars/" + alice.ID + "/" + alice.Avatar + ".png?size=64"; err != nil || pic != want {
		t.Fatalf("alice's box shows %q (%v), want %q", pic, err, want)
	}
	square, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#squares button.legal").dataset.square`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#squares button[data-square="`+square+`"]`))); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := liveGame(srv, lobby); m != nil && m.ID == board.ID && m.Edits > edits && strings.Contains(m.Content, square) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game message never showed %s; log:\n%s", square, r.logs)
		}
	}
	if n := srv.TokenExchanges(); n != 1 {
		t.Errorf("%d codes exchanged, want 1", n)
	}
	if strings.Contains(r.logs.String(), secret) {
		t.Error("the client secret is in the log")
	}
	checkClean(t, srv, r)
}

// playByClicks plays a whole game between two players, each in a browser
// of their own logged in by their link, every move a click on the first
// legal square of whoever is to move; every click must show on both
// boards. It returns the final score as game messages write it
// ("⚫ 19 · ⚪ 45") and each click's time to both boards, sorted.
func playByClicks(t *testing.T, links map[string]string) (string, []time.Duration) {
	t.Helper()
	browser := browsertest.Start(t, 4*time.Minute)
	tabs := map[string]context.Context{}
	for _, who := range []string{"alice", "bob"} {
		tab := browsertest.Person(t, browser)
		if err := chromedp.Do(tab, chromedp.Navigate(links[who]), chromedp.WaitVisible(chromedp.CSS("#squares button"))); err != nil {
			t.Fatal(err)
		}
		tabs[who] = tab
	}
	eval := func(who, js string, out any) {
		t.Helper()
		var err error
		switch p := out.(type) {
		case *string:
			*p, err = chromedp.Run(tabs[who], chromedp.Evaluate[string](js))
		case *int:
			*p, err = chromedp.Run(tabs[who], chromedp.Evaluate[int](js))
		case *bool:
			*p, err = chromedp.Run(tabs[who], chromedp.Evaluate[bool](js))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var side, location string
	eval("alice", `document.body.dataset.me`, &side)
	eval("alice", `location.href`, &location)
	if side != "X" || strings.Contains(location, "login=") {
		t.Fatalf("alice's page: playing %q at %s (the link's token should be gone)", side, location)
	}
	eval("bob", `document.body.dataset.me`, &side)
	if side != "O" {
		t.Fatalf("bob's page plays %q", side)
	}
	total := func(who string) (n int) { eval(who, `game.plies.length`, &n); return }
	var took []time.Duration
	shot := false
	for moves := 0; ; moves++ {
		var active bool
		eval("alice", `game.status === "active"`, &active)
		if !active {
			break
		}
		if moves > 80 {
			t.Fatal("no end after 80 clicks")
		}
		mover, square := "", ""
		for deadline := time.Now().Add(5 * time.Second); square == ""; time.Sleep(10 * time.Millisecond) {
			// The last move and the game's end are stored one after the
			// other: a page may show the full board as still running for a
			// moment before the end reaches it.
			if eval("alice", `game.status === "active"`, &active); !active {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %d plies nobody has a legal square to click", total("alice"))
			}
			for _, who := range []string{"alice", "bob"} {
				var sq string
				eval(who, `(document.querySelector("#squares button.legal") || {dataset: {}}).dataset.square || ""`, &sq)
				if sq != "" {
					mover, square = who, sq
				}
			}
		}
		if square == "" {
			break // the game ended
		}
		before := total(mover)
		clicked := time.Now()
		if err := chromedp.Do(tabs[mover], chromedp.Click(chromedp.CSS(`#squares button[data-square="`+square+`"]`))); err != nil {
			t.Fatal(err)
		}
		for total("alice") <= before || total("bob") <= before {
			if time.Since(clicked) > 5*time.Second {
				t.Fatalf("%s's click on %s did not reach both boards within 5 s", mover, square)
			}
			time.Sleep(5 * time.Millisecond)
		}
		took = append(took, time.Since(clicked))
		if dir := os.Getenv("OTHELLO_SCREENSHOTS"); dir != "" && !shot && moves == 12 {
			shot = true
			if png, err := chromedp.Run(tabs["bob"], chromedp.FullScreenshot(100)); err == nil { // bob to move: his squares marked
				os.WriteFile(dir+"/web-play-1+0.png", png, 0o644)
			}
		}
	}
	var aliceT, bobT, result string
	eval("alice", `game.transcript`, &aliceT)
	eval("bob", `game.transcript`, &bobT)
	eval("bob", `game.result`, &result)
	if aliceT != bobT || len(aliceT) < 2*40 { // two characters a move
		t.Fatalf("the boards disagree or the game is short: %q / %q", aliceT, bobT)
	}
	score := ""
	if m := regexp.MustCompile(`(\d+)–(\d+)`).FindStringSubmatch(result); m != nil {
		score = "⚫ " + m[1] + " · ⚪ " + m[2]
	}
	slices.Sort(took)
	return score, took
}

// The same whole game through the real run wiring and the fake Discord:
// each player's /board answers them, privately, with their link; they
// play every move by clicks on a 1+0 clock running on the wall clock, and
// the game message in Discord ends on the pages' final score.
func TestDiscordGamePlayedByClicks(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in two browsers")
	}
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.WebAddress = freeAddress(t)
	c.PublicURL = "http://" + c.WebAddress + "/"
	r := startBot(t, srv, c)
	alice := discordtest.User{ID: "710000000000000031", Name: "alice"}
	bob := discordtest.User{ID: "710000000000000032", Name: "bob"}
	challengeAccepted(t, srv, r, alice, bob, "1+0")
	links := map[string]string{}
	for _, u := range []discordtest.User{alice, bob} {
		if err := srv.Wait(srv.Command(u, lobby, "board", nil), 10*time.Second); err != nil {
			t.Fatal(err)
		}
		for _, m := range srv.Messages(lobby, u.ID) {
			if m.Ephemeral && m.VisibleTo == u.ID {
				if link := regexp.MustCompile(`<(http://[^>]+\?login=[^>]+)>`).FindStringSubmatch(m.Content); link != nil {
					links[u.Name] = link[1]
				}
			}
		}
	}
	if len(links) != 2 {
		t.Fatalf("private links: %v; log:\n%s", links, r.logs)
	}
	score, took := playByClicks(t, links)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var final string
		for _, m := range srv.Messages(lobby, "") {
			if strings.Contains(m.Text(), "Game #1") {
				final = m.Text()
			}
		}
		if score != "" && strings.Contains(final, score) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game message does not end on the pages' score %q:\n%s", score, final)
		}
	}
	t.Logf("%d clicks; click → both boards p50 %v, max %v; %s", len(took), took[len(took)/2].Round(time.Millisecond),
		took[len(took)-1].Round(time.Millisecond), score)
	checkClean(t, srv, r)
}

// linkButton is the address a message's link button (style 5) of that
// label opens, or "".
func linkButton(m *discordtest.Message, label string) string {
	for _, row := range m.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			b, _ := it.(map[string]any)
			if b["label"] == label && b["style"] == float64(5) {
				url, _ := b["url"].(string)
				return url
			}
		}
	}
	return ""
}
