package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"othello-bot/place"
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
	next := f.svc.Handle(ctx, req(ben.ID, Command, "board", nil))
	var shown []string
	for _, m := range next.Followups {
		shown = append(shown, m.Content)
	}
	if text := strings.Join(shown, "\n"); !strings.Contains(text, "While I could not post here:") || !strings.Contains(text, "expired") {
		t.Fatalf("the expiry is not shown with the next answer: %q", text)
	}
	again := f.svc.Handle(ctx, req(ben.ID, Command, "board", nil))
	if len(again.Followups) != 0 {
		t.Fatalf("shown twice: %+v", again.Followups)
	}
}

// A tournament and the daily puzzle need the bot itself in the server.
func TestCommandsThatNeedTheBotInTheServer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := f.svc.Handle(ctx, Request{Kind: Command, Command: "tournament", Subcommand: "create", User: ann, GuildID: "g2",
		ChannelID: "c", Place: place.ServerWithoutBot, Options: map[string]string{"format": "swiss"}})
	refused(t, r, "needs me in the server itself")
	r = f.svc.Handle(ctx, Request{Kind: Command, Command: "settings", User: ann, GuildID: "g2", ChannelID: "c",
		Place: place.ServerWithoutBot, MemberPermissions: PermManageGuild, Options: map[string]string{"puzzle-channel": "here"}})
	refused(t, r, "needs me in the server itself")
}
