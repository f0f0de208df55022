package resigns

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

type fake struct {
	g     *record.Game
	loser *game.Color
}

func (f *fake) ActiveGame(context.Context, string) (*record.Game, error) {
	if f.g == nil || f.g.Status != record.Active {
		return nil, record.ErrNotFound
	}
	return f.g, nil
}
func (f *fake) LockChannel(string) func() { return func() {} }
func (f *fake) ChannelGame(ctx context.Context, _ bot.Request) (*record.Game, bot.Response, error) {
	g, err := f.ActiveGame(ctx, "")
	if err != nil {
		return nil, bot.Refuse("no game"), nil
	}
	return g, bot.Response{}, nil
}

// The fake is the flow's store too: a game's end is heard here.
func (f *fake) FinishGame(_ context.Context, g *record.Game, r record.Result, _ *record.RatingUpdate) error {
	loser := r.Winner.Opponent()
	f.loser = &loser
	g.Finished(r)
	return nil
}
func (f *fake) AppendTurn(context.Context, *record.Game, record.Turn) error    { return nil }
func (f *fake) TakeBack(context.Context, *record.Game, int, record.Turn) error { return nil }
func (f *fake) Flow() *play.Flow                                               { return play.New(f, play.Config{}, time.Now) }
func (f *fake) ServeOn(ctx context.Context, _ bot.Who, g *record.Game, _ string, h func(ctx context.Context, me, pub *catalog.Printer) (bot.Response, error)) (bot.Response, *record.Game) {
	r, _ := h(ctx, catalog.For(catalog.English), catalog.For(catalog.English))
	return r, g
}
func (f *fake) GameMessage(*catalog.Printer, *record.Game, []string) *bot.Message {
	return &bot.Message{}
}
func (f *fake) ShowFinal(context.Context, *record.Game, bot.Message) bool { return true }

// /resign asks its player first (a stranger is refused); the Resign button
// of another game than the channel's says it is over; the answer Resign
// ends the game against the one who gave it; Keep playing changes nothing.
func TestResignAsksThenEnds(t *testing.T) {
	start, _ := game.NewPosition(8)
	ann, ben, cat := record.Player{ID: "1", Name: "ann"}, record.Player{ID: "2", Name: "ben"}, record.Player{ID: "3", Name: "cat"}
	// Each side has moved twice: a resignation is a loss, not an abort.
	f := &fake{g: &record.Game{ID: 7, Black: record.Human(ann), White: record.Human(ben), State: game.NewGame(start), Status: record.Active}}
	for _, sq := range []string{"d3", "c3", "c4", "e3"} {
		p, _ := game.ParseSquare(sq, 8)
		if _, err := f.g.State.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	s := New(f, f)
	routes := s.Routes()
	do := func(entry string, who record.Player, custom string) bot.Response {
		r, err := routes[entry](context.Background(), bot.Request{Kind: bot.Button, User: who, CustomID: custom, ChannelID: "c"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := do("resign", cat, ""); r.Message == nil || !r.Message.Ephemeral || len(r.Message.Components) != 0 {
		t.Errorf("a stranger was asked: %+v", r.Message)
	}
	ask := do("resign:", ben, "resign:7:4")
	if ask.Message == nil || len(ask.Message.Components) != 1 || ask.Message.Components[0].Buttons[0].CustomID != "resign-yes:7" {
		t.Fatalf("the question: %+v", ask.Message)
	}
	if r := do("resign:", ben, "resign:6:4"); !strings.Contains(r.Message.Content, "over") {
		t.Errorf("another game's button: %q", r.Message.Content)
	}
	do("resign-no:", ben, "resign-no:7")
	if f.loser != nil {
		t.Fatal("Keep playing ended the game")
	}
	if r := do("resign-yes:", cat, "resign-yes:7"); f.loser != nil || !r.Message.Ephemeral {
		t.Fatal("a stranger's Resign ended the game")
	}
	do("resign-yes:", ben, "resign-yes:7")
	if f.loser == nil || *f.loser != game.White {
		t.Fatalf("the game ended against %v, want ben (white)", f.loser)
	}
	if r := do("resign-yes:", ben, "resign-yes:7"); !r.Update {
		t.Error("a second Resign on an ended game does not say so in place")
	}
}

// From the web board the game the page read is resigned at once (the page
// asked first): no read of it, a stranger refused, the loser the one who
// resigned.
func TestResignFor(t *testing.T) {
	start, _ := game.NewPosition(8)
	ann, ben := record.Player{ID: "1", Name: "ann"}, record.Player{ID: "2", Name: "ben"}
	g := &record.Game{ID: 7, Black: record.Human(ann), White: record.Human(ben), State: game.NewGame(start), Status: record.Active}
	for _, sq := range []string{"d3", "c3", "c4", "e3"} {
		p, _ := game.ParseSquare(sq, 8)
		if _, err := g.State.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	f := &fake{} // no game to read: ResignFor must not
	s := New(f, f)
	if r, _ := s.ResignFor(context.Background(), bot.Who{User: record.Player{ID: "3"}}, g); f.loser != nil || r.Message == nil || !r.Message.Ephemeral {
		t.Fatalf("a stranger resigned: %+v", r.Message)
	}
	r, after := s.ResignFor(context.Background(), bot.Who{User: ann}, g)
	if f.loser == nil || *f.loser != game.Black || after != g || g.Status == record.Active || !strings.Contains(r.Message.Content, "resigned") {
		t.Fatalf("ann's resignation: loser %v, status %v, %+v", f.loser, g.Status, r.Message)
	}
}
