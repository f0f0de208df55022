package bot

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

// The service against an in-memory store: its behaviour tested in its own
// package, without a database or a transport.

type fixture struct {
	t      *testing.T
	store  *fakeStore
	notify *fakeNotifier
	clock  *fakeClock
	svc    *Service
	posted int // follow-ups shown
}

var (
	ann = record.Player{ID: "1001", Name: "ann"}
	ben = record.Player{ID: "1002", Name: "ben"}
	cat = record.Player{ID: "1003", Name: "cat"}
)

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, store: newFakeStore(), notify: &fakeNotifier{},
		clock: &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}}
	cfg := Config{DefaultLevel: 1, DefaultSize: 8, EngineMoveTime: 100 * time.Millisecond, ChallengeExpiry: 10 * time.Minute,
		ChallengeCooldown: 30 * time.Second, MoveTimeout: 24 * time.Hour, ReminderBefore: time.Hour, MaxEmojiSize: 10}
	f.svc = New(StoresOf(f.store), engine.New(engine.Options{Searches: 1}), f.clock, f.notify, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return f
}

func (f *fixture) command(user record.Player, channel, name string, opts map[string]string) Response {
	f.t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	return f.svc.Handle(context.Background(), Request{Kind: Command, Command: name, User: user, GuildID: "g", ChannelID: channel,
		Options: opts, UserNames: map[string]string{ben.ID: ben.Name, cat.ID: cat.Name, ann.ID: ann.Name}})
}

// challenge sends /challenge and shows its challenge, the reply's
// follow-up, as an adapter would (as message "challenge-N"); it returns
// the challenge message.
func (f *fixture) challenge(user record.Player, channel string, opts map[string]string) Message {
	f.t.Helper()
	r := f.command(user, channel, "challenge", opts)
	if len(r.Followups) != 1 {
		f.t.Fatalf("the challenge does not follow the reply: %+v", r)
	}
	f.posted++
	msg := r.Followups[0]
	f.svc.Posted(context.Background(), channel, &msg, "challenge-"+strconv.Itoa(f.posted))
	return msg
}

func (f *fixture) button(user record.Player, channel, customID string) Response {
	f.t.Helper()
	return f.svc.Handle(context.Background(), Request{Kind: Button, CustomID: customID, User: user, GuildID: "g", ChannelID: channel})
}

func (f *fixture) game(channel string) *record.Game {
	f.t.Helper()
	g, err := f.store.ActiveGame(context.Background(), channel)
	if err != nil {
		f.t.Fatal(err)
	}
	return g
}

func refused(t *testing.T, r Response, want string) {
	t.Helper()
	if r.Message == nil || !r.Message.Ephemeral || !strings.Contains(r.Message.Content, want) {
		t.Fatalf("want a private refusal with %q, got %+v", want, r.Message)
	}
}

// /start against the bot playing black: the bot moves at once, the game
// is stored, and the reply is the live game message.
func TestStartWithTheBotMovingFirst(t *testing.T) {
	f := newFixture(t)
	r := f.command(ann, "c", "start", map[string]string{"level": "2", "color": "white", "size": "6"})
	if r.Message == nil || r.Message.Ephemeral || r.Message.Game == nil {
		t.Fatalf("start: %+v", r.Message)
	}
	g := f.game("c")
	if g.Size() != 6 || !g.Black.IsBot() || g.Black.Level != 2 || g.White.Player != ann || len(g.Plies()) != 1 {
		t.Fatalf("stored game: size %d, black %+v, white %+v, plies %v", g.Size(), g.Black, g.White, g.Plies())
	}
	if r.Message.Game.ID != g.ID || r.Message.Game.Version != g.Version {
		t.Errorf("the message shows version %d of game %d; stored %d", r.Message.Game.Version, r.Message.Game.ID, g.Version)
	}
	refused(t, f.command(ann, "c", "start", nil), "already running in this channel")
	refused(t, f.command(ben, "c", "start", nil), "Start a thread for your own game")
	for opts, want := range map[string]map[string]string{
		"The level must be":      {"level": "21"},
		"The board size must be": {"size": "7"},
		"The color must be":      {"color": "green"},
		"The style must be":      {"style": "neon"},
	} {
		refused(t, f.command(ann, "d", "start", want), opts)
	}
	if _, err := f.store.ActiveGame(context.Background(), "d"); !errors.Is(err, record.ErrNotFound) {
		t.Error("a refused /start made a game")
	}
}

// A move: refused when it is not yours or not legal, changing nothing;
// played and answered by the bot when it is.
func TestMoves(t *testing.T) {
	f := newFixture(t)
	f.command(ann, "c", "start", map[string]string{"level": "1", "color": "black", "size": "8"})
	before := f.game("c")
	refused(t, f.command(ben, "c", "move", map[string]string{"square": "d3"}), "You are not playing in this game")
	refused(t, f.command(ann, "c", "move", map[string]string{"square": "a1"}), "a1 flips nothing")
	refused(t, f.command(ann, "c", "move", map[string]string{"square": "z9"}), "off the 8x8 board")
	refused(t, f.command(ann, "c", "move", nil), "Which square?")
	refused(t, f.command(ann, "elsewhere", "move", map[string]string{"square": "d3"}), "There is no game in this channel")
	if g := f.game("c"); g.Version != before.Version {
		t.Fatal("a refused move changed the game")
	}
	r := f.command(ann, "c", "move", map[string]string{"square": "d3"})
	g := f.game("c")
	if r.Message == nil || r.Message.Ephemeral || !strings.Contains(r.Message.Content, "played **d3**") {
		t.Fatalf("move: %+v", r.Message)
	}
	if plies := g.Plies(); len(plies) != 2 || plies[0].Square.String() != "d3" || plies[1].Color != game.White {
		t.Fatalf("after the move: %v", plies)
	}
	// Someone else's turn: the bot's turn has passed back to ann, so ben
	// is refused and so is a stale menu.
	stale := f.svc.Handle(context.Background(), Request{Kind: Select, CustomID: "move:1:0", Values: []string{"c4"}, User: ann,
		GuildID: "g", ChannelID: "c"})
	refused(t, stale, "out of date")
}

// A move made on the live message's menu, answered by editing that
// message, records the message as showing the game after the bot's reply
// in the turn's own write (the move and an instant level's reply are one
// write): the answer landing writes nothing more, and a game message of
// an older version shown after it never becomes live.
func TestMoveOnTheLiveMessage(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	start := f.command(ann, "c", "start", map[string]string{"level": "1", "color": "black", "size": "8"})
	f.svc.Posted(ctx, "c", start.Message, "m1")
	before := f.game("c")
	board := f.command(ann, "c", "board", nil) // a /board answered before the move lands after it
	id, _, ok := menuOf(start.Message)
	if !ok {
		t.Fatalf("no move menu: %+v", start.Message)
	}
	writes := f.store.messageWrites
	r := f.svc.Handle(ctx, Request{Kind: Select, CustomID: id, Values: []string{"d3"}, User: ann, GuildID: "g", ChannelID: "c",
		MessageID: "m1"})
	if r.Message == nil || !r.Update || !strings.Contains(r.Message.Content, "played **d3**") {
		t.Fatalf("the move's answer: %+v", r)
	}
	f.svc.Posted(ctx, "c", r.Message, "m1")
	g := f.game("c")
	if f.store.messageWrites != writes {
		t.Errorf("the answer wrote the live message again (%d writes)", f.store.messageWrites-writes)
	}
	if len(g.Plies()) != 2 || f.store.messageVersions[g.ID] != g.Version || g.Version != before.Version+1 {
		t.Errorf("m1 recorded at version %d; the game is at %d after %d plies", f.store.messageVersions[g.ID], g.Version, len(g.Plies()))
	}
	f.svc.Posted(ctx, "c", board.Message, "m2")
	if g := f.game("c"); g.MessageID != "m1" {
		t.Errorf("the older /board became the live message: %s", g.MessageID)
	}
}

// A commit that finds the game changed meanwhile is refused kindly.
func TestStaleCommit(t *testing.T) {
	f := newFixture(t)
	f.command(ann, "c", "start", map[string]string{"level": "1", "color": "black"})
	f.store.failAppend = record.ErrStale
	refused(t, f.command(ann, "c", "move", map[string]string{"square": "d3"}), "The game changed at the same moment")
	if len(f.game("c").Plies()) != 0 {
		t.Fatal("the refused move was stored")
	}
}

// A challenge pings the member challenged; a bystander cannot answer it;
// the challenged member accepts and the player to move is pinged.
func TestChallengeAccept(t *testing.T) {
	f := newFixture(t)
	r := f.command(ann, "c", "challenge", map[string]string{"opponent": ben.ID, "color": "white", "size": "4"})
	refused(t, r, "Challenge sent to ben")
	// The challenge follows the reply: no channel message of its own.
	if len(f.notify.sent) != 0 || len(r.Followups) != 1 || r.Followups[0].Ephemeral {
		t.Fatalf("posted %d messages; follow-ups %+v", len(f.notify.sent), r.Followups)
	}
	post := r.Followups[0]
	if !strings.Contains(post.Content, "<@1002>") || !slices.Equal(post.Mentions, []string{ben.ID}) {
		t.Fatalf("challenge message %q mentions %v", post.Content, post.Mentions)
	}
	accept := post.Components[0].Buttons[0].CustomID
	refused(t, f.button(cat, "c", accept), "This challenge is for ben")
	refused(t, f.button(ben, "other", accept), "does not belong to this channel")
	r = f.button(ben, "c", accept)
	if !r.Update || r.Message == nil || r.Message.Game == nil {
		t.Fatalf("accept: %+v", r)
	}
	g := f.game("c")
	if g.White.Player != ann || g.Black.Player != ben || g.Deadline.IsZero() {
		t.Fatalf("game from the challenge: %+v %+v, deadline %v", g.Black, g.White, g.Deadline)
	}
	// ben accepted and is black: he moves first, so nobody else is pinged.
	if len(r.Followups) != 0 {
		t.Errorf("followups %+v", r.Followups)
	}
	refused(t, f.command(ann, "c", "challenge", map[string]string{"opponent": ben.ID}), "is running in this channel")
	refused(t, f.command(ann, "c2", "challenge", map[string]string{"opponent": ann.ID}), "can't challenge yourself")
	refused(t, f.svc.Handle(context.Background(), Request{Kind: Command, Command: "challenge", User: ann, GuildID: "g", ChannelID: "c3",
		Options: map[string]string{"opponent": "9"}, BotUsers: map[string]bool{"9": true}}), "Bots can't take challenges")
	// A move hands the turn to ann, who is pinged.
	r = f.command(ben, "c", "move", map[string]string{"square": g.Position().LegalMoves()[0].String()})
	if len(r.Followups) != 1 || !slices.Equal(r.Followups[0].Mentions, []string{ann.ID}) {
		t.Fatalf("the turn passing pinged %+v", r.Followups)
	}
}

// Timers: the player to move is reminded, then loses on time; the live
// game message shows the end and the loser is pinged. Challenges expire.
func TestTimers(t *testing.T) {
	f := newFixture(t)
	post := f.challenge(ann, "c", map[string]string{"opponent": ben.ID, "color": "black", "size": "6"})
	accept := post.Components[0].Buttons[0].CustomID
	acc := f.button(ben, "c", accept)
	f.svc.Posted(context.Background(), "c", acc.Message, "challenge-1") // the challenge message became the board
	for i := 0; i < 4; i++ {
		g := f.game("c")
		f.command(g.ToMove().Player, "c", "move", map[string]string{"square": g.Position().LegalMoves()[0].String()})
	}
	mover := f.game("c").ToMove().Player
	f.notify.sent = nil
	f.clock.advance(23*time.Hour + 30*time.Minute)
	f.svc.Tick(context.Background())
	if len(f.notify.sent) != 1 || !slices.Equal(f.notify.sent[0].msg.Mentions, []string{mover.ID}) ||
		!strings.Contains(f.notify.sent[0].msg.Content, "it's your move") {
		t.Fatalf("reminder: %+v", f.notify.sent)
	}
	f.svc.Tick(context.Background())
	if len(f.notify.sent) != 1 {
		t.Fatal("the reminder went twice")
	}
	f.clock.advance(time.Hour)
	f.svc.Tick(context.Background())
	if len(f.store.finished) != 1 || f.store.finished[0].Reason != record.EndTimeout {
		t.Fatalf("results: %+v", f.store.finished)
	}
	if len(f.notify.edited) != 1 || f.notify.edited[0].id != "challenge-1" || !strings.Contains(f.notify.edited[0].msg.Content, "ran out of time") {
		t.Fatalf("the live game message was not edited to its end: %+v", f.notify.edited)
	}
	last := f.notify.sent[len(f.notify.sent)-1].msg
	if !slices.Equal(last.Mentions, []string{mover.ID}) {
		t.Fatalf("the loser was not pinged: %+v", last)
	}
	// A rated loss on time after two moves each counts.
	if _, err := f.store.Standing(context.Background(), mover.ID, record.GlobalScope, record.DeviationGrowth{}); err != nil {
		t.Errorf("the timeout was not rated: %v", err)
	}

	f.clock.advance(time.Minute)
	f.challenge(ann, "d", map[string]string{"opponent": cat.ID})
	f.clock.advance(11 * time.Minute)
	f.svc.Tick(context.Background())
	if e := f.notify.edited[len(f.notify.edited)-1]; e.id != "challenge-2" || !strings.Contains(e.msg.Content, "expired") {
		t.Fatalf("expiry: %+v", e)
	}
}

// A server that refuses the bot a thread (Discord answers 403) still gets
// its game, in the channel itself, and the player is told why; a second
// game there is refused as in a channel without threads.
func TestThreadsDeniedFallBackToTheChannel(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.Threads = true
	r := f.command(ann, "c", "start", map[string]string{"level": "1", "color": "black", "size": "6"})
	if r.Message == nil || r.Message.Game == nil || len(r.Followups) != 1 || !r.Followups[0].Ephemeral ||
		!strings.Contains(r.Followups[0].Content, "I may not open threads here") {
		t.Fatalf("start where threads are denied: %+v, followups %+v", r.Message, r.Followups)
	}
	if g := f.game("c"); g.ParentID != "" {
		t.Fatalf("the game claims a thread off %q", g.ParentID)
	}
	refused(t, f.command(ben, "c", "start", nil), "is running in this channel")
}

// Manage Messages makes a moderator of a game in a channel, Manage Threads
// of one in its own thread (bot/aborts tests what each allows).
func TestModeratorPermissionFitsWhereTheGameLives(t *testing.T) {
	inChannel := &record.Game{ChannelID: "c"}
	inThread := &record.Game{ChannelID: "t", ParentID: "c"}
	if ModeratorPermission(inChannel) != PermManageMessages || ModeratorPermission(inThread) != PermManageThreads {
		t.Fatal("wrong moderator permission")
	}
}

func TestResultCaption(t *testing.T) {
	g := &record.Game{Black: record.Human(ann), White: record.Bot(3)}
	for _, c := range []struct {
		r    record.Result
		want string
	}{
		{record.Result{Reason: record.EndResign, Winner: game.White}, "Bot (level 3) wins by resignation"},
		{record.Result{Reason: record.EndTimeout, Winner: game.Black}, "ann wins on time"},
		{record.Result{Reason: record.EndNormal, Winner: game.Black}, "ann wins"},
		{record.Result{Reason: record.EndNormal, Winner: game.Empty}, "draw"},
		{record.Result{Reason: record.EndAbandoned}, "abandoned, no result"},
		{record.Result{Reason: record.EndModerator}, "ended by a moderator, no result"},
	} {
		g.Result = &c.r
		if got := ResultCaption(catalog.For(catalog.English), g); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// A game of another server is not reachable by its number from this one:
// /replay answers as for a game that does not exist (FinishedGame, which
// /analyze asks too).
func TestFinishedGamesOfAnotherServerAreNotFound(t *testing.T) {
	f := newFixture(t)
	f.command(ann, "c", "start", map[string]string{"level": "1", "color": "black", "size": "4"})
	g := f.game("c")
	for !g.State.Over() {
		f.command(g.ToMove().Player, "c", "move", map[string]string{"square": g.Position().LegalMoves()[0].String()})
		if g = f.store.games[g.ID]; g.Status != record.Active {
			break
		}
	}
	id := strconv.FormatInt(g.ID, 10)
	elsewhere := Request{Kind: Command, Command: "replay", User: ben, GuildID: "other", ChannelID: "x", Options: map[string]string{"game": id}}
	_, refusal, err := f.svc.FinishedGame(context.Background(), elsewhere, g.ID)
	if err != nil || refusal == nil {
		t.Fatalf("another server's game found: %v", err)
	}
	refused(t, *refusal, "There is no game #"+id+" here.")
	home := Request{Kind: Command, Command: "replay", User: ann, GuildID: "g", ChannelID: "c"}
	if found, refusal, err := f.svc.FinishedGame(context.Background(), home, g.ID); err != nil || refusal != nil || found.ID != g.ID {
		t.Fatalf("the game in its own server: %v %+v", err, refusal)
	}
}

// menuOf is a message's select menu: its custom id and choices.
func menuOf(m *Message) (id string, values []string, ok bool) {
	if m == nil {
		return "", nil, false
	}
	for _, row := range m.Components {
		if row.Menu != nil {
			for _, o := range row.Menu.Options {
				values = append(values, o.Value)
			}
			return row.Menu.CustomID, values, true
		}
	}
	return "", nil, false
}
