package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
)

// The real `run` wiring (serveDiscord) against a fake Discord that answers
// as Discord documents: gateway, REST, limits, the 3-second rule.

const testToken = "fake-bot-token"

var (
	alice = discordtest.User{ID: "7000000000000000001", Name: "alice"}
	bob   = discordtest.User{ID: "7000000000000000002", Name: "bob"}
	carol = discordtest.User{ID: "7000000000000000003", Name: "carol"}
)

const (
	lobby    = "8000000000000000001"
	hall     = "8000000000000000002"
	readOnly = "8000000000000000003" // the bot may read but not post
	hidden   = "8000000000000000004" // the bot may do nothing at all
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// botRun is one run of the bot against the fake.
type botRun struct {
	t      testing.TB
	srv    *discordtest.Server
	cancel context.CancelFunc
	done   chan error
	logs   *syncBuffer
}

func newFake(t testing.TB) *discordtest.Server {
	srv := discordtest.New(testToken)
	t.Cleanup(srv.Close)
	srv.AddChannel(lobby, discordtest.AllText)
	srv.AddChannel(hall, discordtest.AllText)
	srv.AddChannel(readOnly, discordtest.ViewChannel)
	srv.AddChannel(hidden, 0)
	return srv
}

func testBotConfig(srv *discordtest.Server, dir string) config.Config {
	c := config.Default()
	c.Database = filepath.Join(dir, "bot.db")
	c.ResultsLog = filepath.Join(dir, "results.log")
	c.GuildIDs = []string{srv.GuildID}
	c.DiscordAPI = srv.URL()
	c.EngineMoveTime = config.Duration(50 * time.Millisecond)
	c.DefaultLevel = 1
	c.ImageDir = filepath.Join(dir, "boards")
	return c
}

// startBot runs serveDiscord until the test stops it, and waits until it
// has connected and registered its commands.
func startBot(t testing.TB, srv *discordtest.Server, c config.Config) *botRun {
	t.Helper()
	r := &botRun{t: t, srv: srv, done: make(chan error, 1), logs: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	logger := slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	go func() { r.done <- serveDiscord(ctx, c, testToken, logger) }()
	if !srv.Connected(10 * time.Second) {
		t.Fatalf("the bot did not connect; log:\n%s", r.logs)
	}
	deadline := time.Now().Add(10 * time.Second)
	scope := "" // global, without servers configured
	if len(c.GuildIDs) > 0 {
		scope = srv.GuildID
	}
	for len(srv.Commands(scope)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no commands registered; log:\n%s", r.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Cleanup(func() { r.stop() })
	return r
}

func (r *botRun) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		if err != nil {
			r.t.Errorf("the bot stopped with %v", err)
		}
	case <-time.After(30 * time.Second):
		r.t.Errorf("the bot did not stop within 30s")
	}
}

// do sends an interaction and waits for the bot's whole answer.
func (r *botRun) do(ia *discordtest.Interaction) *discordtest.Interaction {
	r.t.Helper()
	if err := r.srv.Wait(ia, 20*time.Second); err != nil {
		r.t.Fatalf("%v; violations %q; log:\n%s", err, r.srv.Violations(), r.logs)
	}
	return ia
}

// checkClean fails the test on anything the fake refused or any message
// sent without allowed_mentions, and reports the largest sizes seen.
func checkClean(t *testing.T, srv *discordtest.Server, r *botRun) {
	t.Helper()
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("the fake Discord refused or flagged %d requests:\n%s", len(v), strings.Join(v, "\n"))
	}
	st := srv.Stats()
	t.Logf("largest: content %d, description %d, footer %d, embed total %d; worst acknowledgement %s over %d messages",
		st.MaxContent, st.MaxDescription, st.MaxFooter, st.MaxEmbedTotal, st.WorstAck, st.Messages)
	if r != nil && strings.Contains(r.logs.String(), "level=ERROR") {
		t.Errorf("errors in the log:\n%s", r.logs)
	}
}

// liveGame returns the newest message in the channel with a move menu
// that viewer can see.
func liveGame(srv *discordtest.Server, channel string) *discordtest.Message {
	msgs := srv.Messages(channel, "")
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, _, ok := msgs[i].Menu(); ok && !msgs[i].Ephemeral {
			return msgs[i]
		}
	}
	return nil
}

func menusIn(srv *discordtest.Server, channel string) int {
	n := 0
	for _, m := range srv.Messages(channel, "") {
		if _, _, ok := m.Menu(); ok {
			n++
		}
	}
	return n
}

// A game against the bot from /start to the end, played through the move
// menu; the results log gets its line.
func TestDiscordVsBotThroughTheMenu(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	r := startBot(t, srv, testBotConfig(srv, dir))
	ia := r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 6, "color": "black"}))
	first := srv.Reply(ia)
	if first == nil || !strings.Contains(first.Text(), "alice started a game against Bot (level 1).") {
		t.Fatalf("start reply: %+v", first)
	}
	playToTheEnd(t, r, lobby, map[string]discordtest.User{alice.ID: alice})
	final := srv.Message(first.ID)
	if !strings.Contains(final.Text(), "Result") || !strings.Contains(final.Text(), "Transcript: ") {
		t.Fatalf("final message:\n%s", final.Text())
	}
	if _, ok := final.Button("Rematch"); !ok {
		t.Fatal("no Rematch button at the end")
	}
	// The Replay button posts the game as an animated GIF.
	replayID, ok := final.Button("Replay")
	if !ok {
		t.Fatal("no Replay button at the end")
	}
	if replay := srv.Reply(r.do(srv.Click(bob, final, replayID))); replay == nil || len(replay.Files) != 1 || replay.Files[0] != "game-1-replay.gif" {
		t.Fatalf("replay reply: %+v", replay)
	}
	if menusIn(srv, lobby) != 0 {
		t.Fatal("a move menu is left after the game")
	}
	log, _ := os.ReadFile(filepath.Join(dir, "results.log"))
	if strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), `black="alice" black_id="`+alice.ID+`"`) {
		t.Fatalf("results log %q", log)
	}
	for _, p := range srv.Pings() {
		if len(p.Users)+len(p.Roles) > 0 || p.Everyone {
			t.Errorf("a game against the bot pinged %+v", p)
		}
	}
	checkClean(t, srv, r)
}

// playToTheEnd plays the live game in a channel by its menu, each move by
// the player the menu is for, until no menu is left.
func playToTheEnd(t testing.TB, r *botRun, channel string, players map[string]discordtest.User) {
	t.Helper()
	for i := 0; i < 400; i++ {
		m := liveGame(r.srv, channel)
		if m == nil {
			return
		}
		id, values, _ := m.Menu()
		mover := playerToMove(t, m, players)
		r.do(r.srv.Select(mover, m, id, values[len(values)/2]))
	}
	t.Fatal("the game did not end")
}

// playerToMove reads whose turn it is from the menu's placeholder-free
// Turn field: the player whose name it shows.
func playerToMove(t testing.TB, m *discordtest.Message, players map[string]discordtest.User) discordtest.User {
	t.Helper()
	text := m.Text()
	i := strings.Index(text, "Turn: ")
	if i < 0 {
		t.Fatalf("no Turn field:\n%s", text)
	}
	turn := text[i+len("Turn: "):]
	turn, _, _ = strings.Cut(turn, "\n")
	for _, u := range players {
		if strings.Contains(turn, escapeForTest(displayOf(u))) {
			return u
		}
	}
	t.Fatalf("turn %q is nobody's of %v", turn, players)
	return discordtest.User{}
}

func displayOf(u discordtest.User) string {
	if u.Nick != "" {
		return u.Nick
	}
	return u.Name
}

// escapeForTest is the bot's escaping of a plain name (letters only in
// these tests, so none).
func escapeForTest(s string) string { return s }

// A game between members: the challenged member is pinged, the third
// user is refused at every step, each turn pings the player to move, and
// a nickname made of mentions pings nobody.
func TestDiscordPvPWithABystander(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	ia := r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "size": 4, "color": "black", "rated": false}))
	if reply := srv.Reply(ia); reply == nil || !reply.Ephemeral || !strings.Contains(reply.Content, "Challenge sent to bob") {
		t.Fatalf("challenge reply: %+v", reply)
	}
	msgs := srv.Messages(lobby, "")
	challenge := msgs[len(msgs)-1]
	if p := pingOf(srv, challenge.ID); !slices.Equal(p.Users, []string{bob.ID}) || p.Everyone {
		t.Fatalf("the challenge pinged %+v, want bob alone", p)
	}
	accept, _ := challenge.Button("Accept")
	refusal := srv.Reply(r.do(srv.Click(carol, challenge, accept)))
	if refusal == nil || !refusal.Ephemeral || refusal.VisibleTo != carol.ID || !strings.Contains(refusal.Content, "This challenge is for bob") {
		t.Fatalf("carol's accept: %+v", refusal)
	}
	acc := r.do(srv.Click(bob, challenge, accept))
	if got := srv.Message(challenge.ID); !strings.Contains(got.Text(), "bob accepted alice's challenge.") {
		t.Fatalf("after accept:\n%s", got.Text())
	}
	if f := srv.Followups(acc); len(f) != 1 || !slices.Equal(pingOf(srv, f[0].ID).Users, []string{alice.ID}) {
		t.Fatalf("alice was not pinged for her first move: %+v", f)
	}
	players := map[string]discordtest.User{alice.ID: alice, bob.ID: bob}
	for turn := 0; turn < 40; turn++ {
		m := liveGame(srv, lobby)
		if m == nil {
			break
		}
		id, values, _ := m.Menu()
		mover := playerToMove(t, m, players)
		other := bob
		if mover.ID == bob.ID {
			other = alice
		}
		for _, wrong := range []discordtest.User{carol, other} {
			ref := srv.Reply(r.do(srv.Select(wrong, m, id, values[0])))
			if ref == nil || !ref.Ephemeral || ref.VisibleTo != wrong.ID {
				t.Fatalf("%s's move was not refused privately: %+v", wrong.Name, ref)
			}
		}
		if ref := srv.Reply(r.do(srv.Command(carol, lobby, "move", map[string]any{"square": values[0]}))); ref == nil || !ref.Ephemeral {
			t.Fatalf("carol's /move: %+v", ref)
		}
		done := r.do(srv.Select(mover, m, id, values[0]))
		if liveGame(srv, lobby) != nil {
			f := srv.Followups(done)
			if len(f) != 1 || !slices.Equal(pingOf(srv, f[0].ID).Users, []string{other.ID}) {
				t.Fatalf("turn %d: %s was not pinged for the move: %+v", turn, other.Name, f)
			}
		}
	}
	if liveGame(srv, lobby) != nil {
		t.Fatal("the game did not end")
	}

	// A member whose nickname is all mentions challenges: only the one
	// challenged is pinged, and the name shows as typed.
	mallory := discordtest.User{ID: "7000000000000000009", Name: "mallory", Nick: "@everyone <@&1> <@2> **x** ||y||"}
	r.do(srv.Command(mallory, hall, "challenge", map[string]any{"opponent": bob}))
	hallMsgs := srv.Messages(hall, "")
	post := hallMsgs[len(hallMsgs)-1]
	p := pingOf(srv, post.ID)
	if p.Everyone || len(p.Roles) > 0 || !slices.Equal(p.Users, []string{bob.ID}) {
		t.Fatalf("mallory's challenge pinged %+v; content %q", p, post.Content)
	}
	if strings.Contains(post.Content, "<@2>") || strings.Contains(post.Content, "<@&1>") || strings.Contains(post.Content, "**x**") {
		t.Fatalf("the nickname was not escaped: %q", post.Content)
	}
	// Her open challenge, naming nobody, pings nobody at all.
	cancel, _ := post.Button("Cancel")
	r.do(srv.Click(mallory, post, cancel))
	r.do(srv.Command(mallory, hall, "challenge", nil))
	hallMsgs = srv.Messages(hall, "")
	open := hallMsgs[len(hallMsgs)-1]
	if p := pingOf(srv, open.ID); p.Everyone || len(p.Roles)+len(p.Users) > 0 || !strings.Contains(open.Content, "looking for an opponent") {
		t.Fatalf("mallory's open challenge %q pinged %+v", open.Content, p)
	}
	checkClean(t, srv, r)
}

func pingOf(srv *discordtest.Server, messageID string) discordtest.Ping {
	for _, p := range srv.Pings() {
		if p.MessageID == messageID {
			return p
		}
	}
	return discordtest.Ping{}
}

// The gateway asks for a reconnect (op 7) and later drops the connection
// mid-game: the bot resumes each time, and an interaction sent while it
// was away is answered after the resume.
func TestDiscordGatewayReconnects(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 6, "color": "black"}))
	move := func() {
		m := liveGame(srv, lobby)
		id, values, _ := m.Menu()
		r.do(srv.Select(alice, m, id, values[0]))
	}
	move()
	srv.Reconnect()
	if !srv.Connected(10 * time.Second) {
		t.Fatal("no reconnect after op 7")
	}
	move()
	srv.DropConnection()
	m := liveGame(srv, lobby)
	id, values, _ := m.Menu()
	ia := srv.Select(alice, m, id, values[0]) // sent while the bot is away
	if !srv.Connected(15 * time.Second) {
		t.Fatal("no reconnect after the connection dropped")
	}
	r.do(ia)
	if got := srv.Message(m.ID); !strings.Contains(got.Text(), "alice ⚫ played **"+values[0]+"**") {
		t.Fatalf("the move sent during the outage:\n%s", got.Text())
	}
	playToTheEnd(t, r, lobby, map[string]discordtest.User{alice.ID: alice})
	identifies, resumes := srv.Sessions()
	if identifies != 1 || resumes < 2 {
		t.Errorf("identifies %d, resumes %d: want one session resumed twice", identifies, resumes)
	}
	checkClean(t, srv, r)
}

// The bot stops mid-game and starts again: the game goes on from its
// live message.
func TestDiscordRestartMidGame(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	r := startBot(t, srv, c)
	r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "size": 4, "color": "black"}))
	msgs := srv.Messages(lobby, "")
	accept, _ := msgs[len(msgs)-1].Button("Accept")
	r.do(srv.Click(bob, msgs[len(msgs)-1], accept))
	m := liveGame(srv, lobby)
	id, values, _ := m.Menu()
	r.do(srv.Select(alice, m, id, values[0]))
	r.stop()

	r = startBot(t, srv, c)
	playToTheEnd(t, r, lobby, map[string]discordtest.User{alice.ID: alice, bob.ID: bob})
	log, _ := os.ReadFile(c.ResultsLog)
	if strings.Count(string(log), "\n") != 1 {
		t.Fatalf("results log %q", log)
	}
	checkClean(t, srv, r)
}

// A 26x26 game to the end: the last moves and the final message, with
// its long transcript, stay within Discord's limits.
func TestDiscord26x26ToTheEnd(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	// Most of the game is played straight into the database; the bot
	// plays the end through Discord.
	store, err := storage.Open(context.Background(), c.Database, storage.Options{ResultsLog: c.ResultsLog})
	if err != nil {
		t.Fatal(err)
	}
	long := discordtest.User{ID: "7000000000000000010", Name: strings.Repeat("w", 32)}
	start, _ := game.NewPosition(26)
	now := time.Now()
	g := &record.Game{GuildID: srv.GuildID, ChannelID: lobby, Black: record.Human(record.Player{ID: long.ID, Name: long.Name}),
		White: record.Bot(1), State: game.NewGame(start), CreatedAt: now, UpdatedAt: now, TurnStartedAt: now}
	if err := store.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	rules := g.State
	for rules.Position().Empties() > 12 || rules.Position().ToMove() != game.Black {
		if rules.Over() {
			t.Fatal("the prefilled game ended early")
		}
		moves := rules.Position().LegalMoves()
		plies, _ := rules.Play(moves[0])
		if err := store.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: now}); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()

	r := startBot(t, srv, c)
	r.do(srv.Command(long, lobby, "board", nil))
	playToTheEnd(t, r, lobby, map[string]discordtest.User{long.ID: long})
	msgs := srv.Messages(lobby, "")
	final := msgs[len(msgs)-1]
	if !strings.Contains(final.Text(), "Result") || !slices.Contains(final.Files, fmt.Sprintf("game-%d-transcript.txt", g.ID)) {
		t.Fatalf("final message files %v:\n%s", final.Files, final.Text())
	}
	if st := srv.Stats(); st.MaxFooter > 2048 || st.MaxFooter < 1500 {
		t.Errorf("largest footer %d: want a long transcript footer within 2,048", st.MaxFooter)
	}
	checkClean(t, srv, r)
}

// Where the bot may not post: /challenge says which permission is
// missing, privately, in one line; a game still works (replies to a
// user's own command need no permission) and its resignation reaches the
// channel through the interaction.
func TestDiscordChannelWithoutSendMessages(t *testing.T) {
	srv := newFake(t)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	for channel, missing := range map[string]string{readOnly: "Send Messages", hidden: "View Channel"} {
		reply := srv.Reply(r.do(srv.Command(alice, channel, "challenge", map[string]any{"opponent": bob})))
		if reply == nil || !reply.Ephemeral || !strings.Contains(reply.Content, "give me the "+missing+" permission") ||
			strings.Contains(reply.Content, "\n") {
			t.Fatalf("%s: challenge reply %+v", channel, reply)
		}
	}
	r.do(srv.Command(alice, hidden, "start", map[string]any{"level": 1, "size": 6}))
	for i := 0; i < 3; i++ {
		m := liveGame(srv, hidden)
		if m == nil {
			break
		}
		id, values, _ := m.Menu()
		r.do(srv.Select(alice, m, id, values[0]))
	}
	ask := srv.Reply(r.do(srv.Command(alice, hidden, "resign", nil)))
	yes, _ := ask.Button("Resign")
	r.do(srv.Click(alice, ask, yes))
	var announced bool
	for _, m := range srv.Messages(hidden, bob.ID) { // what another member sees
		if strings.Contains(m.Text(), "alice resigned.") {
			announced = true
		}
	}
	if !announced {
		t.Fatal("the resignation did not reach the channel")
	}
	// Refusals of posts are expected here; nothing else.
	for _, v := range srv.Violations() {
		if !strings.Contains(v, "Missing Permissions") {
			t.Errorf("unexpected: %s", v)
		}
	}
}

// The bot is killed while it thinks about its first move: the restarted
// bot finishes the reply the user is looking at (the interaction token is
// still valid) instead of posting a new message.
func TestDiscordCrashWhileThinking(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bot as a child process")
	}
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	c.EngineMoveTime = config.Duration(20 * time.Second)
	child := func(c config.Config) *exec.Cmd {
		raw, _ := json.Marshal(c)
		cmd := exec.Command(os.Args[0], "-test.run=^TestBotChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), botChildEnv+"="+string(raw))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if !srv.Connected(20 * time.Second) {
			cmd.Process.Kill()
			t.Fatal("the child bot did not connect")
		}
		return cmd
	}
	cmd := child(c)
	// 10x10: level 20 answers 8x8 openings from its book without thinking.
	ia := srv.Command(alice, lobby, "start", map[string]any{"level": 20, "size": 10, "color": "white"})
	deadline := time.Now().Add(5 * time.Second)
	for srv.AckTime(ia) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // well into the 20-second think
	cmd.Process.Kill()
	cmd.Wait()
	if reply := srv.Reply(ia); reply == nil || !strings.Contains(reply.Content, "thinking") {
		t.Fatalf("before the restart the reply is %+v", reply)
	}

	c.EngineMoveTime = config.Duration(200 * time.Millisecond)
	cmd = child(c)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline = time.Now().Add(20 * time.Second)
	for {
		if reply := srv.Reply(ia); reply != nil && strings.Contains(reply.Text(), "I'm back. Bot (level 20) ⚫ played") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reply was not finished: %+v\nchannel: %v", srv.Reply(ia), srv.Messages(lobby, ""))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(srv.Messages(lobby, "")); n != 1 {
		t.Errorf("%d messages in the channel, want the one finished reply", n)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}

// BenchmarkInitialResponse measures how long the bot takes to acknowledge
// interactions while it is busy: 20 channels with a level-20 game on 10x10
// where the bot thinks for its whole engineMoveTime of 10s, and in each of
// them, meanwhile, /board, /hint, /resign and its confirmation, and
// /challenge, which wait for the channel's lock or the engine. Discord
// allows 3 seconds. Reports the worst and the median acknowledgement.
//
//	go test ./cmd/othello-bot -run '^$' -bench InitialResponse -benchtime 1x
func BenchmarkInitialResponse(b *testing.B) {
	for b.Loop() {
		srv := discordtest.New(testToken)
		c := testBotConfig(srv, b.TempDir())
		c.EngineMoveTime = config.Duration(10 * time.Second)
		const channels = 20
		var ids []string
		for i := 0; i < channels; i++ {
			id := fmt.Sprintf("81000000000000000%02d", i)
			srv.AddChannel(id, discordtest.AllText)
			ids = append(ids, id)
		}
		logs := &syncBuffer{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- serveDiscord(ctx, c, testToken, slog.New(slog.NewTextHandler(logs, nil))) }()
		if !srv.Connected(10 * time.Second) {
			b.Fatal("no connection")
		}
		for len(srv.Commands(srv.GuildID)) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		var all []*discordtest.Interaction
		for i, ch := range ids {
			u := discordtest.User{ID: fmt.Sprintf("71000000000000000%02d", i), Name: fmt.Sprintf("player%d", i)}
			all = append(all, srv.Command(u, ch, "start", map[string]any{"level": 20, "size": 10, "color": "white"}))
		}
		time.Sleep(500 * time.Millisecond) // every bot is thinking now
		var asks []*discordtest.Interaction
		for i, ch := range ids {
			u := discordtest.User{ID: fmt.Sprintf("71000000000000000%02d", i), Name: fmt.Sprintf("player%d", i)}
			all = append(all, srv.Command(u, ch, "board", nil), srv.Command(u, ch, "hint", nil),
				srv.Command(u, ch, "challenge", map[string]any{"opponent": bob}))
			ask := srv.Command(u, ch, "resign", nil)
			asks = append(asks, ask)
			all = append(all, ask)
		}
		for i, ask := range asks {
			if err := srv.Wait(ask, 30*time.Second); err != nil {
				b.Fatal(err)
			}
			m := srv.Reply(ask)
			yes, ok := m.Button("Resign")
			if !ok {
				b.Fatalf("no confirmation: %+v", m)
			}
			u := discordtest.User{ID: fmt.Sprintf("71000000000000000%02d", i), Name: fmt.Sprintf("player%d", i)}
			all = append(all, srv.Click(u, m, yes))
		}
		for _, ia := range all {
			if err := srv.Wait(ia, 60*time.Second); err != nil {
				b.Fatal(err)
			}
		}
		var acks []time.Duration
		for _, ia := range all {
			acks = append(acks, srv.AckTime(ia))
		}
		slices.Sort(acks)
		b.ReportMetric(float64(acks[len(acks)-1].Microseconds())/1000, "worst-ack-ms")
		b.ReportMetric(float64(acks[len(acks)/2].Microseconds())/1000, "median-ack-ms")
		b.ReportMetric(float64(len(acks)), "interactions")
		if v := srv.Violations(); len(v) > 0 {
			b.Errorf("violations: %q", v)
		}
		cancel()
		<-done
		srv.Close()
	}
}

// A shutdown while the bot thinks lets the move finish and its reply
// reach Discord before the process ends.
func TestDiscordShutdownDeliversTheReplyInFlight(t *testing.T) {
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.EngineMoveTime = config.Duration(time.Second)
	r := startBot(t, srv, c)
	// 10x10: level 20 answers 8x8 openings from its book without thinking.
	ia := srv.Command(alice, lobby, "start", map[string]any{"level": 20, "size": 10, "color": "white"})
	deadline := time.Now().Add(5 * time.Second)
	for srv.AckTime(ia) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	r.stop() // the signal, mid-think
	if reply := srv.Reply(ia); reply == nil || !strings.Contains(reply.Text(), "Bot (level 20) ⚫ played") {
		t.Fatalf("after shutdown the reply is %+v", reply)
	}
	checkClean(t, srv, nil)
}

// SIGTERM at any moment of start-up (here: the context canceled from 0 to
// about 400 ms in) is an orderly stop: no error, and the next start comes
// up with its commands registered.
func TestDiscordStopDuringStartUp(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	c := testBotConfig(srv, dir)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for i := range 12 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- serveDiscord(ctx, c, testToken, logger) }()
		time.Sleep(time.Duration(i) * 35 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("stopped %d ms into start-up: %v", i*35, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the bot did not stop")
		}
	}
	r := startBot(t, srv, c)
	if len(srv.Commands(srv.GuildID)) == 0 {
		t.Fatal("no commands after the interrupted starts")
	}
	checkClean(t, srv, r)
}
