package aborts

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/play"
	"othello-bot/record"
)

// core is the shared flow as /abort sees it: one game, and what was done
// to it.
type core struct {
	g     *record.Game
	ended *record.Result
	shown string // the final board's words
}

func (c *core) LockChannel(string) func() { return func() {} }
func (c *core) ChannelGame(context.Context, bot.Request) (*record.Game, bot.Response, error) {
	return c.g, bot.Response{}, nil
}

// The core is the flow's store too: a game's end is heard here.
func (c *core) FinishGame(_ context.Context, g *record.Game, r record.Result, _ *record.RatingUpdate) error {
	c.ended = &r
	g.Finished(r)
	return nil
}
func (c *core) ActiveGame(context.Context, string) (*record.Game, error)       { return c.g, nil }
func (c *core) AppendTurn(context.Context, *record.Game, record.Turn) error    { return nil }
func (c *core) TakeBack(context.Context, *record.Game, int, record.Turn) error { return nil }
func (c *core) Flow() *play.Flow                                               { return play.New(c, play.Config{}, time.Now) }
func (c *core) ServeOn(ctx context.Context, _ bot.Who, g *record.Game, _ string, h func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error)) (bot.Response, *record.Game) {
	r, _ := h(ctx, catalog.For(catalog.English), catalog.For(catalog.English))
	return r, g
}
func (c *core) GameMessage(_ *catalog.Printer, _ *record.Game, notes []string) *bot.Message {
	return &bot.Message{Content: strings.Join(notes, " ")}
}
func (c *core) ShowFinal(_ context.Context, _ *record.Game, m bot.Message) bool {
	c.shown = m.Content
	return true
}

var (
	ann = record.Player{ID: "1", Name: "ann"}
	ben = record.Player{ID: "2", Name: "ben"}
	cat = record.Player{ID: "3", Name: "cat"}
)

// gameAfter is a game between ann and ben after n moves, in a channel or
// in its own thread.
func gameAfter(t *testing.T, n int, thread bool) *record.Game {
	start, _ := game.NewPosition(8)
	g := game.NewGame(start)
	for range n {
		if _, err := g.Play(g.Position().LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	rg := &record.Game{ID: 1, ChannelID: "c", Black: record.Human(ann), White: record.Human(ben), State: g, Status: record.Active}
	if thread {
		rg.ChannelID, rg.ParentID = "t", "c"
	}
	return rg
}

// Players may abort before each side has moved twice; after, only a
// moderator ends the game — Manage Messages where it lives in a channel,
// Manage Threads in its own thread — with the reason (or a note saying
// none) for the results log.
func TestWhoMayAbort(t *testing.T) {
	for _, c := range []struct {
		name   string
		who    record.Player
		moves  int
		thread bool
		perms  int64
		reason string
		want   record.EndReason // "" refused
		note   string
	}{
		{"a player, early", ann, 3, false, 0, "", record.EndAbort, ""},
		{"a player, late", ben, 4, false, 0, "", "", ""},
		{"a stranger", cat, 1, false, 0, "", "", ""},
		{"Manage Messages in a channel", cat, 10, false, bot.PermManageMessages, "spam", record.EndModerator, "spam"},
		{"Manage Threads in a channel", cat, 10, false, bot.PermManageThreads, "spam", "", ""},
		{"Manage Threads in a thread", cat, 10, true, bot.PermManageThreads, "", record.EndModerator, noReasonNote},
		{"Manage Messages in a thread", cat, 10, true, bot.PermManageMessages, "spam", "", ""},
		{"a player with the right, late", ann, 10, false, bot.PermManageMessages, "  too   long\n", record.EndModerator, "too long"},
	} {
		co := &core{g: gameAfter(t, c.moves, c.thread)}
		s := New(co)
		resp, err := s.abort(context.Background(), bot.Request{Kind: bot.Command, Command: "abort", User: c.who, GuildID: "g",
			ChannelID: co.g.ChannelID, Options: map[string]string{"reason": c.reason}, MemberPermissions: c.perms})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch {
		case c.want == "" && co.ended != nil:
			t.Errorf("%s: the game was ended (%s)", c.name, co.ended.Reason)
		case c.want == "" && (resp.Message == nil || !resp.Message.Ephemeral):
			t.Errorf("%s: not refused privately: %+v", c.name, resp.Message)
		case c.want != "" && (co.ended == nil || co.ended.Reason != c.want || co.ended.Note != c.note):
			t.Errorf("%s: ended %+v, want %s %q", c.name, co.ended, c.want, c.note)
		case c.want != "" && !strings.Contains(resp.Message.Content, "#1"):
			t.Errorf("%s: the answer %q does not name the game", c.name, resp.Message.Content)
		}
	}
}

// From the web board a player aborts the game the page read, while they
// may; a stranger or a late abort is refused and the game runs on.
func TestAbortFor(t *testing.T) {
	late := gameAfter(t, 4, false)
	c := &core{}
	s := New(c)
	for _, who := range []record.Player{cat, ann} {
		if r, _ := s.AbortFor(context.Background(), bot.Who{User: who}, late); c.ended != nil || r.Message == nil || !r.Message.Ephemeral {
			t.Fatalf("%s aborted a game with each side's two moves made: %+v", who.Name, r.Message)
		}
	}
	early := gameAfter(t, 2, false)
	r, after := s.AbortFor(context.Background(), bot.Who{User: ben}, early)
	if c.ended == nil || c.ended.Reason != record.EndAbort || after != early || early.Status == record.Active || r.Message == nil {
		t.Fatalf("ben's abort: %+v, status %v", c.ended, early.Status)
	}
	// The final board says who aborted it, once; its result field says
	// that it does not count.
	if c.shown != "ben aborted the game." {
		t.Fatalf("the final board's words: %q", c.shown)
	}
}
