package local_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"othello-bot/app"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/local"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type env struct {
	t       testing.TB
	dir     string
	store   *storage.Store
	adapter *local.Adapter
	out     *lockedBuffer
	clock   *local.Clock
	cfg     app.Config
	app     *app.App // the bot the adapter drives
}

func testConfig() bot.Config {
	return bot.Config{DefaultLevel: 3, DefaultSize: 8, EngineMoveTime: 200 * time.Millisecond,
		ChallengeExpiry: 10 * time.Minute, ChallengeCooldown: 30 * time.Second, MoveTimeout: 24 * time.Hour,
		ReminderBefore: time.Hour, MaxEmojiSize: 10, AbandonAfter: 7 * 24 * time.Hour}
}

// open starts the bot on the database in dir, as `othello-bot local` does.
func open(t testing.TB, dir string) *env {
	t.Helper()
	return openAt(t, dir, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

// reopen restarts the bot on e's database, its clock going on from e's.
func reopen(e *env) *env {
	e.t.Helper()
	e.store.Close()
	return openAt(e.t, e.dir, e.clock.Now())
}

func openAt(t testing.TB, dir string, now time.Time) *env {
	t.Helper()
	return openOn(t, dir, filepath.Join(dir, "bot.db"), "", now, false, nil)
}

// openOn opens the terminal bot on a database (a file or a PostgreSQL
// URL) as the process instance, threads on or off, its store wrapped
// when wrap is set.
func openOn(t testing.TB, dir, database, instance string, now time.Time, threads bool, wrap func(*storage.Store) app.Backend) *env {
	t.Helper()
	s, err := storage.Open(context.Background(), database,
		storage.Options{ResultsLog: filepath.Join(dir, "results.log"), Logger: quiet, Instance: instance})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	out := &lockedBuffer{}
	clock := local.NewClock(now)
	a := local.New(out, clock, "alice")
	a.ImageDir = filepath.Join(dir, "boards")
	e := &env{t: t, dir: dir, store: s, adapter: a, out: out, clock: clock, cfg: app.Config{Config: testConfig()}}
	e.cfg.Threads = threads
	var store app.Backend = s
	if wrap != nil {
		store = wrap(s)
	}
	e.app = app.New(store, engine.New(engine.Options{Searches: 1}), clock, a, e.cfg, quiet)
	a.SetService(e.app)
	if err := e.app.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e
}

// rebuild makes the service over the env's store with a given logger.
func rebuild(e *env, log *slog.Logger) *app.App {
	e.app = app.New(e.store, engine.New(engine.Options{Searches: 1}), e.clock, e.adapter, e.cfg, log)
	return e.app
}

// say feeds lines and returns what the bot printed for them.
func (e *env) say(lines ...string) string {
	e.t.Helper()
	before := e.out.Len()
	for _, l := range lines {
		e.adapter.Line(context.Background(), l)
	}
	return e.out.String()[before:]
}

func (e *env) game() *record.Game {
	e.t.Helper()
	g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

// A whole game against level 1, played through the select menu, to the end
// with its line in the results log.
func TestWholeGameAgainstLevelOne(t *testing.T) {
	e := open(t, t.TempDir())
	out := e.say("/start level:1 color:black size:6")
	if !strings.Contains(out, "alice started a game against Bot (level 1).") || !strings.Contains(out, "Turn: alice ⚫") {
		t.Fatalf("start:\n%s", out)
	}
	var id int64
	for i := 0; i < 40; i++ {
		g, err := e.store.ActiveGame(context.Background(), local.ChannelID)
		if err != nil {
			break // finished
		}
		id = g.ID
		moves := g.Position().LegalMoves()
		out = e.say("select " + moves[len(moves)/2].String())
	}
	if !strings.Contains(out, "Result: ") || !strings.Contains(out, "Transcript: ") {
		t.Fatalf("the last message has no result:\n%s", out)
	}
	g, err := e.store.Game(context.Background(), id)
	if err != nil || g.Status != record.Finished || g.Result == nil || g.Result.Reason != record.EndNormal {
		t.Fatalf("stored game %+v %v", g, err)
	}
	rules := g.State
	if !rules.Over() {
		t.Error("game stored as finished while moves remain")
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "results.log"))
	want := fmt.Sprintf(` game=%d server="local" size=6 black="alice" black_id="alice" white="bot" white_level=1 score=%d-%d`,
		id, g.Result.BlackDiscs, g.Result.WhiteDiscs)
	if strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), want) ||
		!strings.Contains(string(log), `transcript="`+rules.Transcript()+`"`) {
		t.Errorf("results log %q, want a line with %q", log, want)
	}
}

// Every refusal is answered only to the user and changes nothing.
func TestRefusalsChangeNothing(t *testing.T) {
	e := open(t, t.TempDir())
	if out := e.say("/move d3"); !strings.Contains(out, "(only visible to alice)") || !strings.Contains(out, "There is no game in this channel") {
		t.Errorf("move without a game:\n%s", out)
	}
	e.say("/start level:2 color:black size:8")
	before := e.game()
	cases := map[string]string{
		"/move e4":            "e4 is taken. Your legal moves: d3, c4, f5, e6.",
		"/move c3":            "c3 flips nothing.",
		"/move d9":            "d9 is off the 8x8 board.",
		"/move 3d":            "3d is not a square (use a letter then a number, like d3).",
		"/move":               "Which square? Type it like /move d3. Your legal moves: ",
		"bob: /start level:3": "Game #1 (alice vs Bot (level 2)) is running in this channel. Start a thread for your own game.",
		"bob: /move d3":       "You are not playing in this game.",
		"bob: select d3":      "You are not playing in this game.",
		"/start level:3":      "is already running in this channel",
		"/start level:21":     "The level must be a number from 1 (easiest) to 20",
		"/start size:7":       "The board size must be an even number from 4 to 26.",
		"/start color:green":  "The color must be black, white or random.",
		"bob: /hint":          "Hints are for the players of this game.",
		"bob: /resign":        "You are not playing in this game.",
		"/fly":                "I don't know the command /fly.",
		"select z9":           "z9 is off the 8x8 board.",
	}
	for line, want := range cases {
		user := "alice"
		if strings.HasPrefix(line, "bob:") {
			user = "bob"
		}
		out := e.say(line)
		if !strings.Contains(out, want) || !strings.Contains(out, "(only visible to "+user+")") {
			t.Errorf("%s:\n%s\nwant only-you %q", line, out, want)
		}
		after := e.game()
		if after.Version != before.Version || len(after.Plies()) != len(before.Plies()) {
			t.Errorf("%s changed the game", line)
		}
	}
	// A stale menu: after a move, the menu of the first board (ply 0) is
	// refused kindly.
	e.say("/move d3")
	g := e.game()
	resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Select, User: record.Player{ID: "alice", Name: "alice"},
		ChannelID: local.ChannelID, CustomID: fmt.Sprintf("move:%d:0", g.ID), Values: []string{"c4"}})
	if resp.Message == nil || !resp.Message.Ephemeral || !strings.Contains(resp.Message.Content, "out of date") {
		t.Errorf("stale menu: %+v", resp.Message)
	}
	if now := e.game(); now.Version != g.Version {
		t.Error("a stale menu changed the game")
	}
}

func TestResignWithConfirmation(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:white size:8")
	g := e.game()
	for i := 0; i < 3; i++ {
		moves := e.game().Position().LegalMoves()
		e.say("/move " + moves[0].String())
	}
	out := e.say("click Resign")
	if !strings.Contains(out, "Resign game #") || !strings.Contains(out, "[Resign] [Keep playing]") {
		t.Fatalf("no confirmation:\n%s", out)
	}
	out = e.say("bob: click Keep playing") // bob cannot see alice's confirmation
	if !strings.Contains(out, "no button") {
		t.Errorf("bob pressed alice's button:\n%s", out)
	}
	out = e.say("click Resign")
	if !strings.Contains(out, "You resigned game #") || !strings.Contains(out, "wins by resignation") {
		t.Fatalf("resign:\n%s", out)
	}
	done, _ := e.store.Game(context.Background(), g.ID)
	if done.Result == nil || done.Result.Reason != record.EndResign || done.Result.Winner != game.Black {
		t.Errorf("result %+v", done.Result)
	}
}

// Resigning before each side has moved twice aborts the game.
func TestEarlyResignAborts(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:8", "/resign", "click Resign")
	var n int
	games, _ := e.store.History(context.Background(), "alice", 5)
	n = len(games)
	if n != 1 || games[0].Reason != record.EndAbort {
		t.Errorf("history %+v", games)
	}
}

// A restart in the middle of a game resumes it: a human move committed just
// before the process stopped gets the bot's answer at the next start.
func TestRestartResumesGame(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	e.say("/start level:3 color:black size:8")
	g := e.game()
	rules := g.State
	plies, _ := rules.Play(rules.Position().LegalMoves()[0])
	// The human's move reached the database; the bot's answer did not.
	if err := e.store.AppendTurn(context.Background(), g, record.Turn{Plies: plies, At: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	e2 := reopen(e) // Resume runs as the bot starts
	out := e2.out.String()
	if !strings.Contains(out, "I'm back.") || !strings.Contains(out, "Bot (level 3) ⚪ played") || !strings.Contains(out, "Turn: alice ⚫") {
		t.Fatalf("resume:\n%s", out)
	}
	after := e2.game()
	if len(after.Plies()) != 2 || after.Position().ToMove() != game.Black {
		t.Errorf("after resume: %d plies, %s to move", len(after.Plies()), after.Position().ToMove())
	}
	// And the game goes on with the menu of the new message.
	if out := e2.say("select " + after.Position().LegalMoves()[0].String()); !strings.Contains(out, "alice ⚫ played") {
		t.Errorf("playing on:\n%s", out)
	}
}

func TestHintAndAutocomplete(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:1 color:black size:8")
	if out := e.say("/hint"); !strings.Contains(out, "My suggestion: ") || !strings.Contains(out, "(only visible to alice)") ||
		!strings.Contains(out, " discs)") || !strings.Contains(out, "final disc margin") {
		t.Errorf("hint:\n%s", out)
	}
	resp := e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Autocomplete, User: record.Player{ID: "alice", Name: "alice"},
		ChannelID: local.ChannelID, Command: "move", Focused: "square", Options: map[string]string{"square": "d"}})
	if len(resp.Choices) != 1 || resp.Choices[0].Value != "d3" {
		t.Errorf("autocomplete for d: %+v", resp.Choices)
	}
	resp = e.adapter.Service().Handle(context.Background(), bot.Request{Kind: bot.Autocomplete, User: record.Player{ID: "bob", Name: "bob"},
		ChannelID: local.ChannelID, Command: "move", Focused: "square", Options: map[string]string{"square": ""}})
	if len(resp.Choices) != 0 {
		t.Errorf("autocomplete for a non-player: %+v", resp.Choices)
	}
}

func TestHelpAndUnknownInput(t *testing.T) {
	e := open(t, t.TempDir())
	if out := e.say("/help"); !strings.Contains(out, "/start") || !strings.Contains(out, "(only visible to alice)") {
		t.Errorf("help:\n%s", out)
	}
	if out := e.say("dance"); !strings.Contains(out, "not understood") {
		t.Errorf("garbage:\n%s", out)
	}
	if out := e.say("wait 5m"); !strings.Contains(out, "(5 minutes later)") {
		t.Errorf("wait:\n%s", out)
	}
}

// After shutdown has begun, requests are turned away kindly, not lost in
// the middle.
func TestShutdownRefusesNewWork(t *testing.T) {
	e := open(t, t.TempDir())
	e.adapter.Service().Shutdown()
	if out := e.say("/start level:1"); !strings.Contains(out, "I'm restarting; please try again in a moment.") {
		t.Errorf("after shutdown:\n%s", out)
	}
	if _, err := e.store.ActiveGame(context.Background(), local.ChannelID); err == nil {
		t.Error("a game started during shutdown")
	}
}
