package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"othello-bot/record"
)

// ChallengesAndGames is a store of both: accepting a challenge creates
// its game.
type ChallengesAndGames interface {
	Challenges
	Games
}

// RunChallenges runs the challenge store's contract against stores open
// makes, a new empty one for each part.
func RunChallenges(t *testing.T, open func(t *testing.T) ChallengesAndGames) {
	ctx := context.Background()
	challenge := func(from, to record.Player, channel string, expires time.Duration) *record.Challenge {
		return &record.Challenge{GuildID: "g1", ChannelID: channel, Challenger: from, Opponent: to, Size: 8, Rated: true,
			Color: record.ChooseBlack, CreatedAt: T0, ExpiresAt: T0.Add(expires)}
	}

	t.Run("pending", func(t *testing.T) {
		s := open(t)
		if _, err := s.Challenge(ctx, 4242); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("an unknown challenge: %v, want record.ErrNotFound", err)
		}
		c := challenge(Ann, Ben, "lobby", time.Hour)
		if err := s.CreateChallenge(ctx, c); err != nil || c.ID == 0 {
			t.Fatalf("created #%d: %v", c.ID, err)
		}
		if err := s.CreateChallenge(ctx, challenge(Ann, Cat, "lobby", time.Hour)); !errors.Is(err, record.ErrChallengePending) {
			t.Errorf("a second pending challenge from ann here: %v, want record.ErrChallengePending", err)
		}
		if err := s.CreateChallenge(ctx, challenge(Ann, Cat, "elsewhere", 10*time.Minute)); err != nil {
			t.Errorf("ann's challenge in another channel: %v", err)
		}
		if err := s.SetChallengeMessage(ctx, c.ID, "msg-1"); err != nil {
			t.Fatal(err)
		}
		got, err := s.Challenge(ctx, c.ID)
		if err != nil || got.MessageID != "msg-1" || got.Status != record.ChallengePending || got.Challenger != Ann ||
			got.Opponent != Ben || !got.ExpiresAt.Equal(T0.Add(time.Hour)) {
			t.Errorf("the challenge: %+v %v", got, err)
		}
		pending, err := s.PendingChallenges(ctx)
		if err != nil || len(pending) != 2 || pending[0].ChannelID != "elsewhere" {
			t.Errorf("pending, soonest to expire first: %+v %v", pending, err)
		}
	})

	t.Run("closed once", func(t *testing.T) {
		s := open(t)
		c := challenge(Ann, Ben, "lobby", time.Hour)
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.CloseChallenge(ctx, c.ID, record.ChallengeDeclined); !ok || err != nil {
			t.Errorf("declined: %v %v", ok, err)
		}
		if ok, _ := s.CloseChallenge(ctx, c.ID, record.ChallengeExpired); ok {
			t.Error("closed twice")
		}
		if got, _ := s.Challenge(ctx, c.ID); got.Status != record.ChallengeDeclined {
			t.Errorf("status %q, want declined", got.Status)
		}
		if pending, _ := s.PendingChallenges(ctx); len(pending) != 0 {
			t.Errorf("still pending: %+v", pending)
		}
		// Closed, it no longer stops a new one.
		if err := s.CreateChallenge(ctx, challenge(Ann, Ben, "lobby", time.Hour)); err != nil {
			t.Errorf("a new challenge after the last was declined: %v", err)
		}
	})

	t.Run("accepted into a game", func(t *testing.T) {
		s := open(t)
		c := challenge(Ann, Ben, "lobby", time.Hour)
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		g := NewGame(t, "thread-1", record.Human(Ann), record.Human(Ben), 8)
		g.ParentID = "lobby"
		if err := s.AcceptChallenge(ctx, c.ID, g); err != nil || g.ID == 0 {
			t.Fatalf("accepted into game #%d: %v", g.ID, err)
		}
		if err := s.AcceptChallenge(ctx, c.ID, NewGame(t, "thread-2", record.Human(Ann), record.Human(Ben), 8)); !errors.Is(err, record.ErrNotPending) {
			t.Errorf("accepted twice: %v, want record.ErrNotPending", err)
		}
		if _, err := s.ActiveGame(ctx, "thread-2"); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("a refused acceptance left a game: %v", err)
		}
		got, _ := s.Challenge(ctx, c.ID)
		if got.Status != record.ChallengeAccepted || got.GameID != g.ID {
			t.Errorf("the accepted challenge: %+v", got)
		}
		home, err := s.LatestHome(ctx, "thread-1")
		if err != nil || home.GameID != g.ID || home.ParentID != "lobby" {
			t.Errorf("the game's home: %+v %v", home, err)
		}
		// A busy channel refuses the game and keeps the challenge pending.
		busy := challenge(Cat, Ben, "lobby2", time.Hour)
		if err := s.CreateChallenge(ctx, busy); err != nil {
			t.Fatal(err)
		}
		if err := s.AcceptChallenge(ctx, busy.ID, NewGame(t, "thread-1", record.Human(Cat), record.Human(Ben), 8)); !errors.Is(err, record.ErrChannelBusy) {
			t.Errorf("accepted into a busy channel: %v, want record.ErrChannelBusy", err)
		}
		if got, _ := s.Challenge(ctx, busy.ID); got.Status != record.ChallengePending {
			t.Errorf("a challenge refused for a busy channel is %q, want still pending", got.Status)
		}
	})

	t.Run("recent", func(t *testing.T) {
		s := open(t)
		var ids []int64
		for i, ch := range []string{"a", "b", "c"} {
			c := challenge(Ann, Ben, ch, time.Hour)
			c.CreatedAt = T0.Add(time.Duration(i) * time.Minute)
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		recent, err := s.RecentChallenges(ctx, Ann.ID, 2)
		if err != nil || len(recent) != 2 || recent[0].ID != ids[2] || recent[1].ID != ids[1] {
			t.Errorf("ann's last two, newest first: %+v %v", recent, err)
		}
		if none, _ := s.RecentChallenges(ctx, Cat.ID, 5); len(none) != 0 {
			t.Errorf("cat's: %+v", none)
		}
	})
}

// RunPreferences runs the preference store's contract against stores
// open makes, a new empty one for each part.
func RunPreferences(t *testing.T, open func(t *testing.T) Preferences) {
	ctx := context.Background()
	t.Run("board style", func(t *testing.T) {
		s := open(t)
		if st, err := s.BoardStyle(ctx, Ann.ID); err != nil || st != record.StyleAuto {
			t.Errorf("nobody's style: %q %v, want auto", st, err)
		}
		if err := s.SetBoardStyle(ctx, Ann, record.StyleImage, T0); err != nil {
			t.Fatal(err)
		}
		if st, _ := s.BoardStyle(ctx, Ann.ID); st != record.StyleImage {
			t.Errorf("ann's style %q, want image", st)
		}
		if st, _ := s.BoardStyle(ctx, Ben.ID); st != record.StyleAuto {
			t.Errorf("ben's style %q, want auto", st)
		}
	})
	t.Run("languages", func(t *testing.T) {
		s := open(t)
		if l, err := s.Languages(ctx, Ann.ID, "g1"); err != nil || l != (record.Languages{}) {
			t.Errorf("nothing chosen: %+v %v", l, err)
		}
		if err := s.SetUserLanguage(ctx, Ann, "ja", T0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLanguage(ctx, "g1", "en", T0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLocale(ctx, "g1", "ja", T0); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Languages(ctx, Ann.ID, "g1"); l != (record.Languages{User: "ja", Guild: "en", GuildLocale: "ja"}) {
			t.Errorf("ann in g1: %+v", l)
		}
		if l, _ := s.Languages(ctx, Ben.ID, "g2"); l != (record.Languages{}) {
			t.Errorf("ben in g2: %+v", l)
		}
		if err := s.SetUserLanguage(ctx, Ann, "", T0); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Languages(ctx, Ann.ID, ""); l.User != "" {
			t.Errorf("ann's cleared language: %+v", l)
		}
	})
	t.Run("avatars", func(t *testing.T) {
		s := open(t)
		if h, err := s.Avatar(ctx, Ann.ID); err != nil || h != "" {
			t.Errorf("an unknown player's avatar: %q %v", h, err)
		}
		// Logging in before any game keeps it; a new one replaces it, ""
		// (the default avatar) too.
		for _, h := range []string{"a_1f2e3d", "9c8b7a", ""} {
			if err := s.SetAvatar(ctx, Ann, h, T0); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Avatar(ctx, Ann.ID); err != nil || got != h {
				t.Errorf("ann's avatar %q (%v), want %q", got, err, h)
			}
		}
		if h, _ := s.Avatar(ctx, Ben.ID); h != "" {
			t.Errorf("ben's avatar %q", h)
		}
	})
	t.Run("settings", func(t *testing.T) {
		s := open(t)
		if v, err := s.Setting(ctx, "k"); err != nil || v != "" {
			t.Errorf("an unset setting: %q %v", v, err)
		}
		for _, v := range []string{"one", "two", ""} {
			if err := s.SetSetting(ctx, "k", v); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Setting(ctx, "k"); got != v {
				t.Errorf("setting %q, want %q", got, v)
			}
		}
	})
}
