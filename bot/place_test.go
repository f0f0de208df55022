package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/catalog"
	"othello-bot/place"
	"othello-bot/record"
	"othello-bot/timecontrol"
)

// Where the bot is no member: the challenge is a follow-up of the reply,
// its expiry (with no token left) waits for the channel's next
// interaction, and is shown there once.
func TestOutcomesWaitForTheNextInteractionWhereTheBotIsNoMember(t *testing.T) {
	f := newFixture(t)
	f.notify.unreachable = map[string]bool{"gdm": true}
	req := func(user string, kind Kind, name string, opts map[string]string) Request {
		who := ann
		if user == ben.ID {
			who = ben
		}
		return Request{Kind: kind, Command: name, User: who, ChannelID: "gdm", Place: place.PrivateChannel,
			Options: opts, UserNames: map[string]string{ben.ID: ben.Name}}
	}
	ctx := context.Background()
	resp := f.svc.Handle(ctx, req(ann.ID, Command, "challenge", map[string]string{"opponent": ben.ID}))
	if resp.Message == nil || !resp.Message.Ephemeral || len(resp.Followups) != 1 || resp.Followups[0].Ephemeral {
		t.Fatalf("challenge: %+v", resp)
	}
	if len(f.notify.sent) != 0 {
		t.Fatalf("posted in a channel where the bot is no member: %+v", f.notify.sent)
	}
	// The adapter shows the follow-up and says where it went.
	f.svc.Posted(ctx, "gdm", &resp.Followups[0], "c1")
	if c, err := f.store.Challenge(ctx, 1); err != nil || c.MessageID != "c1" {
		t.Fatalf("the challenge's message was not recorded: %+v %v", c, err)
	}
	f.clock.advance(11 * time.Minute)
	f.svc.Tick(ctx)
	next := f.svc.Handle(ctx, req(ben.ID, Command, "help", nil))
	var shown []string
	for _, m := range next.Followups {
		shown = append(shown, m.Content)
	}
	if text := strings.Join(shown, "\n"); !strings.Contains(text, "While I could not post here:") || !strings.Contains(text, "expired") {
		t.Fatalf("the expiry is not shown with the next answer: %q", text)
	}
	again := f.svc.Handle(ctx, req(ben.ID, Command, "help", nil))
	if len(again.Followups) != 0 {
		t.Fatalf("shown twice: %+v", again.Followups)
	}
}

// A tournament needs the bot itself in the server (the daily puzzle's
// setting too: bot/puzzles).
func TestCommandsThatNeedTheBotInTheServer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := f.svc.Handle(ctx, Request{Kind: Command, Command: "tournament", Subcommand: "create", User: ann, GuildID: "g2",
		ChannelID: "c", Place: place.ServerWithoutBot, Options: map[string]string{"format": "swiss"}})
	refused(t, r, "needs me in the server itself")
}

// Every DM shares the empty server id: a game's number names it only in
// its own channel or to its players (/games outside a server: bot/stats).
func TestDMGamesStayTheirPlayers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	dm := func(who record.Player, channel, name string, opts map[string]string) Response {
		return f.svc.Handle(ctx, Request{Kind: Command, Command: name, User: who, ChannelID: channel, Place: place.BotDM, Options: opts})
	}
	if r := dm(ann, "dm-ann", "start", map[string]string{"level": "1", "size": "6"}); r.Message == nil || r.Message.Ephemeral {
		t.Fatalf("start in a DM: %+v", r.Message)
	}
	refused(t, dm(ann, "dm-ann", "challenge", map[string]string{"opponent": ben.ID}), "Only you and I are in this DM")
	g := f.game("dm-ann")
	if !visibleHere(Request{User: ann, ChannelID: "elsewhere"}, g) || !visibleHere(Request{User: ben, ChannelID: "dm-ann"}, g) ||
		visibleHere(Request{User: ben, ChannelID: "dm-ben"}, g) || visibleHere(Request{User: ann, GuildID: "g", ChannelID: "dm-ann"}, g) {
		t.Fatal("a DM game is named where it should not be, or not where it should")
	}
}

// /help names every option players look for, in every language: the
// live clocks (time) and XOT openings of /start and /challenge among them
// (#44: the last wave's headline features were not discoverable).
func TestHelpNamesTheOptions(t *testing.T) {
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		text := help(p).Message.Embed.Description
		for _, cmd := range []string{"start", "challenge"} {
			for _, opt := range []string{"time", "xot", "size", "color"} {
				name := p.T("cmd." + cmd + ".opt." + opt + ".name")
				if !strings.Contains(text, "`"+name+"`") {
					t.Errorf("%s: /help does not name %s's option %q (%s)", l, cmd, opt, name)
				}
			}
		}
	}
}

// What a player typed is quoted the same way whatever it is (#44: "5
// minutes" was quoted, 3+2+1 not), in each language's quotes, its
// markdown shown as typed.
func TestTypedTimeIsAlwaysQuoted(t *testing.T) {
	en, ja := catalog.For(catalog.English), catalog.For(catalog.Japanese)
	for typed, want := range map[string]string{"3+2+1": `"3+2+1"`, "5 minutes": `"5 minutes"`, "**3**": `"\*\*3\*\*"`} {
		c, err := timecontrol.Parse(typed)
		if err == nil {
			t.Fatalf("%q parsed as %v", typed, c)
		}
		if got := timeError(en, typed, err); !strings.Contains(got, want) {
			t.Errorf("en: %q does not quote %q as %s", got, typed, want)
		}
		if got := timeError(ja, typed, err); !strings.Contains(got, "「"+strings.Trim(want, `"`)+"」") {
			t.Errorf("ja: %q does not quote %q", got, typed)
		}
	}
}
