package place

import (
	"testing"
	"time"
)

func TestFromInteraction(t *testing.T) {
	for _, c := range []struct {
		context  int
		inGuild  bool
		installs []int
		want     Place
	}{
		{ContextGuild, true, []int{GuildInstall}, Server},
		{ContextGuild, true, []int{GuildInstall, UserInstall}, Server},
		{ContextGuild, true, []int{UserInstall}, ServerWithoutBot},
		{ContextGuild, true, nil, Server}, // a payload from before installs were told
		{-1, true, nil, Server},
		{ContextBotDM, false, []int{GuildInstall}, BotDM},
		{ContextBotDM, false, []int{UserInstall}, BotDM},
		{ContextPrivateChannel, false, []int{UserInstall}, PrivateChannel},
		{-1, false, nil, BotDM},
	} {
		if got := FromInteraction(c.context, c.inGuild, c.installs); got != c.want {
			t.Errorf("FromInteraction(%d, %v, %v) = %s, want %s", c.context, c.inGuild, c.installs, got, c.want)
		}
	}
}

func TestWhatEachPlaceAllows(t *testing.T) {
	for _, c := range []struct {
		p                                    Place
		posts, threads, inServer, tournament bool
	}{
		{Server, true, true, true, true},
		{ServerWithoutBot, false, false, true, false},
		{BotDM, true, false, false, false},
		{PrivateChannel, false, false, false, false},
	} {
		if c.p.BotPosts() != c.posts || c.p.Threads() != c.threads || c.p.InServer() != c.inServer ||
			c.p.Allows(BotMember) != c.tournament || !c.p.Allows(Anywhere) || c.p.Allows(BotPosts) != c.posts {
			t.Errorf("%s: posts %v threads %v in server %v bot member %v", c.p, c.p.BotPosts(), c.p.Threads(), c.p.InServer(), c.p.Allows(BotMember))
		}
	}
}

func TestReplyTokenRules(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	r := Reply{Token: "tok", Issued: t0}
	r.Answered("reply")
	if !r.CanEdit("reply", t0.Add(time.Minute)) || r.CanEdit("other", t0.Add(time.Minute)) {
		t.Fatal("a token edits exactly the messages sent with it")
	}
	if r.Alive(t0.Add(TokenLife)) || r.CanEdit("reply", t0.Add(TokenLife-time.Second)) {
		t.Fatal("a token is used up to its last half minute, never past its life")
	}
	for i := 0; i < FollowupLimit; i++ {
		if !r.CanFollowUp(t0) {
			t.Fatalf("follow-up %d refused", i+1)
		}
		r.FollowedUp("f" + string(rune('a'+i)))
	}
	if r.CanFollowUp(t0) {
		t.Fatalf("a %dth follow-up allowed", FollowupLimit+1)
	}
	if !r.CanEdit("fc", t0) || !r.CanEdit("reply", t0) {
		t.Fatal("a follow-up and the reply stay editable by their token")
	}
	if (Reply{}).Alive(t0) {
		t.Fatal("no token is not alive")
	}
}

func TestRepliesKeepEachMessageEditableByItsToken(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a := Reply{Token: "a", Issued: t0, Original: "board-a"}
	b := Reply{Token: "b", Issued: t0.Add(10 * time.Minute), Original: "board-b"}
	rs := Replies{}.Add(a, t0).Add(b, t0.Add(10*time.Minute))
	now := t0.Add(11 * time.Minute)
	if r, ok := rs.ForEdit("board-a", now); !ok || r.Token != "a" {
		t.Fatalf("the older board is editable by its own token while it lives: %+v %v", r, ok)
	}
	if r, ok := rs.ForFollowUp(now); !ok || r.Token != "b" {
		t.Fatalf("follow-ups go through the newest token: %+v", r)
	}
	later := t0.Add(16 * time.Minute)
	if _, ok := rs.ForEdit("board-a", later); ok {
		t.Fatal("a dead token still edits")
	}
	if rs.Add(Reply{Token: "c", Issued: later}, later).Update("a", func(*Reply) {}) {
		t.Fatal("a dead token is still remembered")
	}
	if !rs.Update("b", func(r *Reply) { r.FollowedUp("x") }) || rs[0].Followups != 1 {
		t.Fatalf("update: %+v", rs)
	}
}
