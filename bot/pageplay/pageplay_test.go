package pageplay_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/app"
	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
	"othello-bot/web"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// channel is a fake Discord channel: what the bot posted and edited.
type channel struct {
	gate    chan struct{} // when set, each edit waits for a value from it
	editing chan struct{} // when set, each edit says it began, before the gate
	mu      sync.Mutex
	edits   []string // "message: content"
	sent    []bot.Message
}

func (c *channel) Send(_ context.Context, _ string, m bot.Message) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, m)
	return "posted", nil
}

func (c *channel) Edit(_ context.Context, _, messageID string, m bot.Message) error {
	if c.editing != nil {
		c.editing <- struct{}{}
	}
	if c.gate != nil {
		<-c.gate // Discord is slow to answer (a rate limit)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	text := m.Content
	if m.Embed != nil {
		text += " " + m.Embed.Title + " " + m.Embed.Description
	}
	c.edits = append(c.edits, messageID+": "+text)
	return nil
}

func (c *channel) CreateThread(context.Context, string, string) (string, error) {
	return "", bot.ErrThreadsNotAllowed
}
func (c *channel) ArchiveThread(context.Context, string) error                    { return nil }
func (c *channel) RemoveComponents(context.Context, string, string) error         { return nil }
func (c *channel) EditReply(context.Context, string, bot.Message) (string, error) { return "", nil }

// settled waits until what the bot shows in Discord after a page's
// action (in the background) satisfies ok.
func (c *channel) settled(t *testing.T, ok func(edits []string, sent []bot.Message) bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		c.mu.Lock()
		done := ok(c.edits, c.sent)
		c.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Discord was not shown it: edits %q, %d posts", c.edits, len(c.sent))
		}
	}
}

var (
	ann = record.Player{ID: "101", Name: "ann"}
	ben = record.Player{ID: "102", Name: "ben"}
)

type fixture struct {
	store *storage.Store
	app   *app.App
	ch    *channel
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	st, err := storage.Open(context.Background(), filepath.Join(tb.TempDir(), "bot.db"), storage.Options{Logger: quiet})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	ch := &channel{}
	cfg := app.Config{Config: bot.Config{DefaultLevel: 1, DefaultSize: 8, EngineMoveTime: 50 * time.Millisecond, MaxEmojiSize: 10,
		ChallengeExpiry: 10 * time.Minute},
		PageLink: func(id string, p record.Player) string { return "https://othello.example/g/" + id + "?login=" + p.ID }}
	a := app.New(st, engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, ch, cfg, quiet)
	tb.Cleanup(a.Shutdown)
	return &fixture{store: st, app: a, ch: ch}
}

// game stores a game between ann (black) and ben in channel c, shown in
// message m1 there, on control ("" for none).
func (f *fixture) game(tb testing.TB, c, control string) *record.Game {
	tb.Helper()
	start, _ := game.NewPosition(8)
	now := time.Now()
	g := &record.Game{GuildID: "g", ChannelID: c, State: game.NewGame(start), Black: record.Human(ann), White: record.Human(ben),
		CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, MessageID: "m1"}
	if control != "" {
		g.Control, _ = timecontrol.Parse(control)
		g.Left = [2]time.Duration{g.Control.Base, g.Control.Base}
	}
	if err := f.store.CreateGame(context.Background(), g); err != nil {
		tb.Fatal(err)
	}
	return g
}

func (f *fixture) act(t *testing.T, g *record.Game, p record.Player, kind, square string, ply int) web.Outcome {
	t.Helper()
	fresh, err := f.store.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.app.PagePlay.Act(context.Background(), web.Action{Game: fresh, Player: p, Lang: catalog.English, Kind: kind, Square: square, Ply: ply})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A move made on the page is the same move as one made in Discord: the
// game flow's rules refuse what they refuse there, and the game message
// in the channel is edited to the new board.
func TestAPageMoveIsADiscordMove(t *testing.T) {
	f := newFixture(t)
	g := f.game(t, "c", "")
	if out := f.act(t, g, ben, "move", "d3", 0); out.Changed || !strings.Contains(out.Note, "not your turn") {
		t.Fatalf("ben moving on ann's turn: %+v", out)
	}
	if out := f.act(t, g, ann, "move", "a1", 0); out.Changed || !strings.Contains(out.Note, "d3") {
		t.Fatalf("an illegal move: %+v", out)
	}
	if len(f.ch.edits) != 0 {
		t.Fatalf("refused moves edited the game message: %q", f.ch.edits)
	}
	if out := f.act(t, g, ann, "move", "d3", 0); !out.Changed {
		t.Fatalf("ann's move: %+v", out)
	}
	after, _ := f.store.Game(context.Background(), g.ID)
	if moves := after.State.Moves(); len(moves) != 1 || moves[0].String() != "d3" {
		t.Fatalf("the game after ann's d3: %v", moves)
	}
	f.ch.settled(t, func(edits []string, _ []bot.Message) bool {
		return len(edits) == 1 && strings.HasPrefix(edits[0], "m1: ") && strings.Contains(edits[0], "d3")
	})
	// A page that had not seen ann's move is out of date for ben.
	if out := f.act(t, g, ben, "move", "c3", 0); out.Changed || out.Note == "" {
		t.Fatalf("a move from a board that moved on: %+v", out)
	}
	// Two moves each, by the first legal square, so resigning is no abort.
	for ply := 1; ply < 4; ply++ {
		now, _ := f.store.Game(context.Background(), g.ID)
		p := ben
		if ply%2 == 0 {
			p = ann
		}
		if out := f.act(t, g, p, "move", now.Position().LegalMoves()[0].String(), ply); !out.Changed {
			t.Fatalf("ply %d: %+v", ply, out)
		}
	}
	if out := f.act(t, g, ben, "resign", "", 4); !out.Changed {
		t.Fatalf("ben resigning: %+v", out)
	}
	if after, _ := f.store.Game(context.Background(), g.ID); after.Status == record.Active || after.Result.Winner != game.Black {
		t.Fatalf("after ben resigned: %s %+v", after.Status, after.Result)
	}
}

// /board gives a player of the game their private link, only them, and
// only them to see.
func TestBoardGivesPlayersTheirLink(t *testing.T) {
	f := newFixture(t)
	g := f.game(t, "c", "")
	board := func(p record.Player) bot.Response {
		return f.app.Handle(context.Background(), bot.Request{Kind: bot.Command, Command: "board", User: p, GuildID: "g", ChannelID: "c"})
	}
	r := board(ann)
	if r.Message == nil || r.Message.Ephemeral || len(r.Followups) != 1 || !r.Followups[0].Ephemeral ||
		!strings.Contains(r.Followups[0].Content, "/g/"+g.PublicID+"?login="+ann.ID) {
		t.Fatalf("ann's /board: %+v", r)
	}
	if r := board(record.Player{ID: "103", Name: "cat"}); r.Message == nil || len(r.Followups) != 0 {
		t.Fatalf("a spectator's /board: %+v", r)
	}
}

// Rematch from the page: against the bot it is a new game at once, with
// colours swapped, whose page the player goes on to; against a person it
// is a challenge posted in the game's channel.
func TestRematchFromThePage(t *testing.T) {
	f := newFixture(t)
	start, _ := game.NewPosition(8)
	now := time.Now()
	g := &record.Game{GuildID: "g", ChannelID: "c", State: game.NewGame(start), Black: record.Human(ann), White: record.Bot(1),
		CreatedAt: now, UpdatedAt: now, TurnStartedAt: now, MessageID: "m1"}
	if err := f.store.CreateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if out := f.act(t, g, ann, "abort", "", 0); !out.Changed {
		t.Fatalf("abort: %+v", out)
	}
	out := f.act(t, g, ann, "rematch", "", 0)
	next, err := f.store.ActiveGame(context.Background(), "c")
	if err != nil || out.Next != next.PublicID || next.ID == g.ID || next.White.Player != ann || !next.Black.IsBot() {
		t.Fatalf("a rematch against the bot: %+v; the channel's game %+v (%v)", out, next, err)
	}

	h := f.game(t, "c2", "")
	if out := f.act(t, h, ann, "abort", "", 0); !out.Changed {
		t.Fatalf("abort: %+v", out)
	}
	f.ch.mu.Lock()
	sent := len(f.ch.sent)
	f.ch.mu.Unlock()
	out = f.act(t, h, ben, "rematch", "", 0)
	if out.Next != "" || !strings.Contains(out.Note, "Challenge sent to ann") {
		t.Fatalf("a rematch against a person: %+v", out)
	}
	f.ch.settled(t, func(_ []string, posted []bot.Message) bool { // the challenge, naming ann
		for _, m := range posted[sent:] {
			if strings.Contains(m.Content, "<@"+ann.ID+">") {
				return true
			}
		}
		return false
	})
}

// While Discord is slow to take an edit (its rate limit), moves made on
// the page go on at once; the game message is then edited to the newest
// board only, never to the stale ones in between, and never out of order.
func TestSlowDiscordNeverHoldsThePage(t *testing.T) {
	f := newFixture(t)
	f.ch.gate, f.ch.editing = make(chan struct{}), make(chan struct{}, 4)
	g := f.game(t, "c", "")
	var played []string
	step := func(what string, ch chan struct{}, send bool) {
		t.Helper()
		var ok bool
		if send {
			select {
			case ch <- struct{}{}:
				ok = true
			case <-time.After(10 * time.Second):
			}
		} else {
			select {
			case <-ch:
				ok = true
			case <-time.After(10 * time.Second):
			}
		}
		if !ok {
			f.ch.mu.Lock()
			defer f.ch.mu.Unlock()
			t.Fatalf("%s: not within 10 s; moves %v, edits %q", what, played, f.ch.edits)
		}
	}
	for ply := 0; ply < 4; ply++ {
		now, _ := f.store.Game(context.Background(), g.ID)
		p := ann
		if ply%2 == 1 {
			p = ben
		}
		sq := now.Position().LegalMoves()[0].String()
		if out := f.act(t, g, p, "move", sq, ply); !out.Changed {
			t.Fatalf("ply %d waited on Discord or was refused: %+v", ply, out)
		}
		played = append(played, sq)
		if ply == 0 {
			// The first move's edit is on its way before the next moves
			// (on a busy machine its worker may otherwise start after
			// them, and one edit shows all four, as it should).
			step("the first move's edit begun", f.ch.editing, false)
		}
	}
	step("the first edit (of the first move) landed", f.ch.gate, true)
	step("the second edit begun", f.ch.editing, false)
	step("the second edit (the newest board) landed", f.ch.gate, true)
	f.ch.settled(t, func(edits []string, _ []bot.Message) bool { return len(edits) == 2 })
	time.Sleep(100 * time.Millisecond)
	f.ch.mu.Lock()
	defer f.ch.mu.Unlock()
	if len(f.ch.edits) != 2 || !strings.Contains(f.ch.edits[0], played[0]) || !strings.Contains(f.ch.edits[1], played[3]) {
		t.Fatalf("moves %v; the game message was edited %q", played, f.ch.edits)
	}
}

// A game's start tells its player, only them, their link to its page: the
// one who /starts against the bot, and the one who accepts a challenge.
func TestStartTellsThePlayerTheirLink(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	private := func(r bot.Response, who record.Player) string {
		for _, m := range r.Followups {
			if m.Ephemeral && strings.Contains(m.Content, "?login="+who.ID) {
				return m.Content
			}
		}
		return ""
	}
	r := f.app.Handle(ctx, bot.Request{Kind: bot.Command, Command: "start", User: ann, GuildID: "g", ChannelID: "s1",
		Options: map[string]string{"level": "1"}})
	g, err := f.store.ActiveGame(ctx, "s1")
	if err != nil || !strings.Contains(private(r, ann), "/g/"+g.PublicID) {
		t.Fatalf("/start: %+v (%v)", r, err)
	}
	r = f.app.Handle(ctx, bot.Request{Kind: bot.Command, Command: "challenge", User: ann, GuildID: "g", ChannelID: "s2",
		Options: map[string]string{"opponent": ben.ID}, UserNames: map[string]string{ben.ID: ben.Name}})
	pending, err := f.store.PendingChallenges(ctx)
	if err != nil || len(pending) != 1 {
		t.Fatalf("the challenge: %+v %v", r, err)
	}
	r = f.app.Handle(ctx, bot.Request{Kind: bot.Button, CustomID: "accept:" + strconv.FormatInt(pending[0].ID, 10), User: ben,
		GuildID: "g", ChannelID: "s2"})
	if g, err = f.store.ActiveGame(ctx, "s2"); err != nil || !strings.Contains(private(r, ben), "/g/"+g.PublicID) || private(r, ann) != "" {
		t.Fatalf("accepting: %+v (%v)", r, err)
	}
}

// countingStore counts the reads of a game.
type countingStore struct {
	*storage.Store
	mu    sync.Mutex
	reads int
}

func (c *countingStore) Game(ctx context.Context, id int64) (*record.Game, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Store.Game(ctx, id)
}

func (c *countingStore) ActiveGame(ctx context.Context, channelID string) (*record.Game, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Store.ActiveGame(ctx, channelID)
}

// A move on the page reads the game once, as the page does before it acts:
// the move is the flow's, on that game (it was a fabricated menu press
// that read it again, and again after, three reads in all).
func TestAPageMoveReadsTheGameOnce(t *testing.T) {
	f := newFixture(t)
	counting := &countingStore{Store: f.store}
	cfg := app.Config{Config: bot.Config{DefaultLevel: 1, DefaultSize: 8, EngineMoveTime: 50 * time.Millisecond, MaxEmojiSize: 10}}
	a := app.New(counting, engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, f.ch, cfg, quiet)
	t.Cleanup(a.Shutdown)
	g := f.game(t, "c", "")
	for i, m := range []struct {
		who    record.Player
		square string
	}{{ann, "d3"}, {ben, "c3"}, {ann, "c4"}} {
		page, err := counting.Game(context.Background(), g.ID) // the page's own read
		if err != nil {
			t.Fatal(err)
		}
		out, err := a.PagePlay.Act(context.Background(), web.Action{Game: page, Player: m.who, Lang: catalog.English, Kind: "move", Square: m.square, Ply: i})
		if err != nil || !out.Changed {
			t.Fatalf("%s %s: %+v %v", m.who.Name, m.square, out, err)
		}
	}
	a.Shutdown() // the Discord edits done in the background read nothing either
	if counting.reads != 3 {
		t.Fatalf("%d reads of the game for 3 page moves, want 3 (one each, the page's)", counting.reads)
	}
}
