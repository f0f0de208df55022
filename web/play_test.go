package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"othello-bot/game"
	"othello-bot/record"
)

// recordingActor plays nothing: it notes what it was asked to do.
type recordingActor struct {
	mu    sync.Mutex
	asked []Action
}

func (a *recordingActor) Act(_ context.Context, act Action) (Outcome, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, act)
	return Outcome{Changed: true}, nil
}

func (a *recordingActor) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

func testSessions(t *testing.T, key byte) *Sessions {
	t.Helper()
	s, err := NewSessions([]byte(strings.Repeat(string(rune('a'+key)), KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// post sends a page's action with the cookies of jar (nil: none) and the
// headers given; it returns the status and the note.
func (f *fixture) post(jar http.CookieJar, g *record.Game, body string, headers map[string]string) (int, string) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+PagePath(g.PublicID)+"/act", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	c := &http.Client{Jar: jar}
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out Outcome
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.Note
}

// logIn follows a player's private link and returns the browser's
// cookies: the link answers with a session cookie and sends the reader on
// to the page without the token.
func (f *fixture) logIn(s *Sessions, g *record.Game, p record.Player) http.CookieJar {
	f.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(f.srv.URL + s.LoginPath(g.PublicID, p))
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != PagePath(g.PublicID) {
		f.t.Fatalf("a login link answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookie := resp.Header.Get("Set-Cookie")
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
		f.t.Fatalf("the session cookie is readable by scripts or sent cross-site: %q", cookie)
	}
	return jar
}

// Only a game's player, logged in, moves on its page: no session, a forged
// or expired one, a spectator's, and a request from another site are each
// refused, and the game flow is never asked.
func TestOnlyAPlayerActs(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 2) // alice (black) to move against the bot
	actor := &recordingActor{}
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, actor)
	alice, eve := record.Player{ID: "1", Name: "alice"}, record.Player{ID: "666", Name: "eve"}
	move := `{"kind": "move", "square": "c4", "ply": 2}`

	if status, note := f.post(nil, g, move, nil); status != http.StatusUnauthorized || note == "" {
		t.Errorf("no session: %d %q", status, note)
	}
	// A session cookie signed with another key: forged; one made 31 days
	// ago: expired; a link's token as the session: the wrong purpose.
	old := testSessions(t, 0)
	old.now = func() time.Time { return time.Now().Add(-31 * 24 * time.Hour) }
	for name, value := range map[string]string{
		"forged":     testSessions(t, 1).sign(purposeSession, alice, time.Hour),
		"expired":    old.sign(purposeSession, alice, 30*24*time.Hour),
		"a link":     sessions.LoginToken(alice),
		"not signed": "eyJwIjoic2Vzc2lvbiIsImlkIjoiMSJ9",
	} {
		jar, _ := cookiejar.New(nil)
		u, _ := url.Parse(f.srv.URL)
		jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: value, Path: "/"}})
		if status, _ := f.post(jar, g, move, nil); status != http.StatusUnauthorized {
			t.Errorf("%s session: %d", name, status)
		}
	}
	spectator := f.logIn(sessions, g, eve)
	if status, note := f.post(spectator, g, move, nil); status != http.StatusForbidden || !strings.Contains(note, "watching") {
		t.Errorf("a spectator: %d %q", status, note)
	}
	player := f.logIn(sessions, g, alice)
	if status, _ := f.post(player, g, move, map[string]string{"Sec-Fetch-Site": "cross-site"}); status != http.StatusForbidden {
		t.Errorf("a move sent from another site: %d", status)
	}
	if status, _ := f.post(player, g, move, map[string]string{"Origin": "https://evil.example"}); status != http.StatusForbidden {
		t.Errorf("a move from another origin: %d", status)
	}
	if status, _ := f.post(player, g, `{"kind": "delete-everything"}`, nil); status != http.StatusBadRequest {
		t.Errorf("an unknown action: %d", status)
	}
	if n := actor.count(); n != 0 {
		t.Fatalf("the game flow was asked %d times by requests that should be refused", n)
	}
	if status, _ := f.post(player, g, move, map[string]string{"Sec-Fetch-Site": "same-origin"}); status != http.StatusOK {
		t.Fatalf("the player's own move: %d", status)
	}
	if a := actor.asked[0]; a.Player != alice || a.Square != "c4" || a.Ply != 2 || a.Game.ID != g.ID || a.Kind != "move" {
		t.Fatalf("the game flow was asked %+v", a)
	}
}

// A login link that expired, or was altered, logs nobody in: the page
// shows the game to watch and says why.
func TestBadLoginLink(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 2)
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	old := testSessions(t, 0)
	old.now = func() time.Time { return time.Now().Add(-25 * time.Hour) }
	alice := record.Player{ID: "1", Name: "alice"}
	tampered := sessions.LoginPath(g.PublicID, alice)
	tampered = tampered[:len(tampered)-2] + "xx"
	for name, path := range map[string]string{"expired": old.LoginPath(g.PublicID, alice), "tampered": tampered} {
		resp, err := http.Get(f.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var body strings.Builder
		buf := make([]byte, 1<<16)
		for {
			n, err := resp.Body.Read(buf)
			body.Write(buf[:n])
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		if resp.Header.Get("Set-Cookie") != "" || !strings.Contains(body.String(), "has expired or is not valid") ||
			!strings.Contains(body.String(), `data-me=""`) {
			t.Errorf("%s link: cookie %q; page:\n%.400s", name, resp.Header.Get("Set-Cookie"), body.String())
		}
	}
}

// A 26x26 game fits a phone's width (390 px): no sideways scrolling, every
// square a button of its own, named and labelled, a finger's tap apart.
func TestBigBoardOnAPhone(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c26", 26, 30)
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	ctx := browser(t)
	err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Navigate(f.srv.URL+sessions.LoginPath(g.PublicID, record.Player{ID: "1", Name: "alice"})),
		chromedp.WaitVisible(chromedp.CSS(`#squares button[data-square="z26"]`)))
	if err != nil {
		t.Fatal(err)
	}
	type layout struct {
		ScrollWidth, Buttons, Legal int
		Smallest                    float64
		Label                       string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](`(() => {
		const bs = [...document.querySelectorAll("#squares button")];
		return {ScrollWidth: document.documentElement.scrollWidth, Buttons: bs.length,
			Legal: document.querySelectorAll("#squares button.legal").length,
			Smallest: Math.min(...bs.map(b => b.getBoundingClientRect().width)),
			Label: document.querySelector('#squares button[data-square="m13"]').getAttribute("aria-label")};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.ScrollWidth > 390 || got.Buttons != 26*26 || got.Smallest < 12 || got.Legal == 0 || !strings.HasPrefix(got.Label, "m13, ") {
		t.Fatalf("a 26x26 board on a 390 px phone: %+v", got)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("OTHELLO_SCREENSHOTS"); dir != "" {
		os.WriteFile(dir+"/web-26x26-390px.png", shot, 0o644)
	}
	t.Logf("%+v", got)
}

// A premove: on the opponent's turn the player picks an empty square; it
// is sent the moment the opponent's move arrives, if legal there. One that
// is not legal then is dropped, never sent.
func TestPremove(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 1) // alice (black) has moved: the bot's turn
	actor := &recordingActor{}
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, actor)
	// What alice may play once the bot has played (the fixture's move is
	// the first legal one), and an empty square she may not.
	next := g.State.Clone()
	if _, err := next.Play(next.Position().LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	legal := next.Position().LegalMoves()
	premove := legal[len(legal)-1].String()
	ctx := browser(t)
	err := chromedp.Do(ctx, chromedp.Navigate(f.srv.URL+sessions.LoginPath(g.PublicID, record.Player{ID: "1", Name: "alice"})),
		chromedp.WaitVisible(chromedp.CSS(`#squares button[data-square="a1"]`)))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the event stream is open
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#squares button[data-square="`+premove+`"]`))); err != nil {
		t.Fatal(err)
	}
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#squares button.premove")].map(b => b.dataset.square).join()`))
	if err != nil || marked != premove {
		t.Fatalf("the premove shows on %q (%v), want %s", marked, err, premove)
	}
	if actor.count() != 0 {
		t.Fatal("a premove was sent before the opponent moved")
	}
	f.play(g) // the bot's move arrives
	for deadline := time.Now().Add(3 * time.Second); actor.count() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the premove was not sent when alice's turn came")
		}
	}
	if a := actor.asked[0]; a.Kind != "move" || a.Square != premove || a.Ply != 2 {
		t.Fatalf("the premove was sent as %+v", a)
	}
	// (The recording actor plays nothing: alice's move is made here.)
	f.play(g)
	next = g.State.Clone()
	if _, err := next.Play(next.Position().LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	illegal := ""
	for _, sq := range []string{"a1", "h1", "a8", "h8", "b2", "g7"} {
		p, _ := game.ParseSquare(sq, 8)
		if next.Position().At(p) == game.Empty && !slices.Contains(next.Position().LegalMoves(), p) {
			illegal = sq
			break
		}
	}
	time.Sleep(300 * time.Millisecond) // the page has alice's move
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#squares button[data-square="`+illegal+`"]`))); err != nil {
		t.Fatal(err)
	}
	f.play(g)
	time.Sleep(time.Second)
	left, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#squares button.premove").length`))
	if err != nil || left != 0 || actor.count() != 1 {
		t.Fatalf("a premove on %s, not legal when its turn came: %d still marked, %d sent", illegal, left, actor.count())
	}
}

// A Discord login that comes back with a state this server did not sign,
// or in a browser that did not start it (no login cookie: someone else's
// link), logs nobody in, and Discord is never asked for a token.
func TestDiscordLoginRefusesForeignState(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("c1", 8, 2)
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	var asked atomic.Int32
	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer discord.Close()
	f.web.EnableDiscordLogin(&DiscordLogin{ClientID: "1", Secret: "s", AuthorizeURL: discord.URL + "/oauth2/authorize",
		APIBase: discord.URL + "/api/v10", RedirectURL: f.srv.URL + "/login/discord/callback"})
	next := PagePath(g.PublicID)
	mine := sessions.sign(purposeState, record.Player{ID: "nonce", Name: next}, time.Minute)
	forged := testSessions(t, 1).sign(purposeState, record.Player{ID: "nonce", Name: next}, time.Minute)
	for name, c := range map[string]struct{ state, cookie string }{
		"forged state":       {forged, "nonce"},
		"another's browser":  {mine, ""},
		"another's nonce":    {mine, "other"},
		"a session as state": {sessions.sign(purposeSession, record.Player{ID: "nonce", Name: next}, time.Minute), "nonce"},
	} {
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/login/discord/callback?"+url.Values{"code": {"c"}, "state": {c.state}}.Encode(), nil)
		if c.cookie != "" {
			req.AddCookie(&http.Cookie{Name: loginCookie, Value: c.cookie})
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || strings.Contains(resp.Header.Get("Set-Cookie"), sessionCookie) {
			t.Errorf("%s: %d, cookies %q", name, resp.StatusCode, resp.Header.Values("Set-Cookie"))
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("Discord was asked %d times for a refused login", n)
	}
	// Start: the state names only this server's pages.
	resp, err := http.DefaultTransport.RoundTrip(mustRequest(t, f.srv.URL+"/login/discord?next=https://evil.example/"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a login sending the reader to another site: %d", resp.StatusCode)
	}
}

func mustRequest(t *testing.T, u string) *http.Request {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// No text read as a session or a link panics, and none is accepted unless
// this server signed it: a token is only ever one it gave out.
func FuzzSessionToken(f *testing.F) {
	s, err := NewSessions([]byte(strings.Repeat("k", KeySize)))
	if err != nil {
		f.Fatal(err)
	}
	// One fixed clock: the fuzzing engine runs this setup again in each
	// worker process, and a second ticking between them would sign the
	// seeds differently there than in the process that sent them.
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return at }
	given := map[string]bool{}
	for _, p := range []record.Player{{ID: "1", Name: "alice"}, {ID: "2", Name: "b]o\"b"}} {
		for _, tok := range []string{s.LoginToken(p), s.SessionToken(p), s.sessionIn(p, "500")} {
			given[tok] = true
			f.Add(tok)
		}
	}
	f.Add("")
	f.Add(".")
	f.Add("eyJwIjoic2Vzc2lvbiIsImlkIjoiMSJ9.")
	f.Fuzz(func(t *testing.T, tok string) {
		for _, purpose := range []string{purposeLink, purposeSession, purposeState} {
			if _, err := s.readClaims(purpose, tok); err == nil && !given[tok] {
				t.Fatalf("a token this server never signed was accepted as a %s: %q", purpose, tok)
			}
		}
	})
}

// A signature has one spelling: base64's spare bits in its last character
// do not make another token (a lax decoder read 3 more spellings of
// every token as the same).
func TestOneSpellingPerToken(t *testing.T) {
	s := testSessions(t, 0)
	tok := s.SessionToken(record.Player{ID: "1", Name: "a"})
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
		if v := tok[:len(tok)-1] + string(c); v != tok {
			if _, err := s.readClaims(purposeSession, v); err == nil {
				t.Errorf("%q read as a session too", v)
			}
		}
	}
}

// Actions only where they apply: a spectator sees none; a player sees
// Resign and, while a side has not moved twice, Abort; after the end
// neither, nor the line asking them to click a square.
func TestActionsOnlyWhereTheyApply(t *testing.T) {
	f := newFixture(t)
	g := f.newGame("acts", 8, 0)
	sessions := testSessions(t, 0)
	f.web.EnablePlay(sessions, &recordingActor{})
	shown := func(ctx context.Context) map[string]bool {
		t.Helper()
		// Shown: laid out at all (offsetParent is null for an element not
		// displayed, or inside one that is not).
		got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]bool](`(() => {
			const on = id => { const e = document.getElementById(id); return !!e && e.offsetParent !== null; };
			return {actions: on("actions"), resign: on("resign"), abort: on("abort"), you: on("you")};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	waitTotal := func(ctx context.Context, n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); attr(t, ctx, "total") != n; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the page did not show ply %d", n)
			}
		}
	}

	watcher := browser(t)
	if err := chromedp.Do(watcher, chromedp.Navigate(f.srv.URL+PagePath(g.PublicID)), chromedp.WaitVisible(chromedp.CSS("circle.disc.X"))); err != nil {
		t.Fatal(err)
	}
	if s := shown(watcher); s["actions"] || s["you"] {
		t.Fatalf("a spectator sees %v", s)
	}
	player := browser(t)
	if err := chromedp.Do(player, chromedp.Navigate(f.srv.URL+sessions.LoginPath(g.PublicID, record.Player{ID: "1", Name: "alice"})),
		chromedp.WaitVisible(chromedp.CSS("#squares button"))); err != nil {
		t.Fatal(err)
	}
	if s := shown(player); !s["resign"] || !s["abort"] || !s["you"] {
		t.Fatalf("a player at the start sees %v, want Resign, Abort and the line", s)
	}
	for range 4 {
		f.play(g)
	}
	waitTotal(player, 4)
	if s := shown(player); !s["resign"] || s["abort"] {
		t.Fatalf("after each side's two moves a player sees %v, want Resign and no Abort", s)
	}
	if err := f.store.FinishGame(context.Background(), g, record.Result{Reason: record.EndResign, Winner: game.White, FinishedAt: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if s := shown(player); !s["actions"] && !s["you"] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the end a player sees %v", shown(player))
		}
	}
}
