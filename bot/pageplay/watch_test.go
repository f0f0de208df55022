package pageplay_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/bot/pageplay"
	"othello-bot/record"
)

// "Watch in Discord" opens the Activity, and the Activity signing the
// presser in, in the channel they pressed in, opens that game's board —
// once, within five minutes; anyone else, another channel, a later
// launch, a game of another server or a dead button get the lobby.
func TestWatchInDiscordOpensTheGameOnce(t *testing.T) {
	f := newFixture(t)
	g := f.game(t, "c", "")
	cat := record.Player{ID: "103", Name: "cat"}
	press := func(p record.Player, guild, channel, id string) bot.Response {
		return f.app.Handle(context.Background(), bot.Request{Kind: bot.Button, CustomID: "watchhere:" + id, User: p, GuildID: guild, ChannelID: channel})
	}
	pp := f.app.PagePlay
	ctx := context.Background()
	opening := func(user, channel string) string {
		t.Helper()
		id, err := pp.Opening(ctx, user, channel)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := strconv.FormatInt(g.ID, 10)

	if r := press(cat, "g", "c", id); !r.LaunchActivity || r.Message != nil {
		t.Fatalf("cat's press: %+v", r)
	}
	if got := opening(ann.ID, "c"); got != "" {
		t.Errorf("ann, who did not press, is sent to %q", got)
	}
	if got := opening(cat.ID, "other"); got != "" {
		t.Errorf("cat's launch in another channel opens %q", got)
	}
	if got := opening(cat.ID, "c"); got != g.PublicID {
		t.Errorf("cat's launch opens %q, want the game's page %q", got, g.PublicID)
	}
	if got := opening(cat.ID, "c"); got != "" {
		t.Errorf("cat's next launch opens %q again", got)
	}

	// A press older than WatchFor: its row as the store would hold it.
	if err := f.store.RememberOpening(ctx, cat.ID, "c", g.PublicID, time.Now().Add(-pageplay.WatchFor-time.Second), time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := opening(cat.ID, "c"); got != "" {
		t.Errorf("a press %v old opens %q", pageplay.WatchFor+time.Second, got)
	}

	for _, bad := range []struct{ guild, id string }{{"elsewhere", id}, {"g", "999999"}, {"g", "x"}} {
		if r := press(cat, bad.guild, "c", bad.id); r.LaunchActivity || r.Message == nil || !r.Message.Ephemeral {
			t.Errorf("a press on game %s from server %s: %+v", bad.id, bad.guild, r)
		}
	}
	if !bot.OpensActivity(bot.Request{Kind: bot.Button, CustomID: "watchhere:" + id}) || bot.OpensActivity(bot.Request{Kind: bot.Button, CustomID: "watch:1"}) {
		t.Error("OpensActivity does not know its button")
	}
}
