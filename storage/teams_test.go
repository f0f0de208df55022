package storage

import (
	"context"
	"testing"
	"time"

	"othello-bot/timecontrol"
	"othello-bot/tournament"
)

// A team battle's teams on each backend: the host's accepted at creation
// under its name; another server invited once, accepted once (from a
// channel, under a name of its own), a server never invited accepting
// nothing; entrants keep the team they joined for; a plain tournament has
// no teams.
func TestTeamBattleStored(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		control, _ := timecontrol.Parse("3+2")
		tour := &tournament.Tournament{GuildID: "guild1", ChannelID: "hall", Name: "Battle", Format: tournament.Arena,
			Duration: time.Hour, Size: 8, Control: control, CreatedAt: t0, TeamTop: 3, HostTeam: "Hosts"}
		if err := s.CreateTournament(ctx, tour, alice); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Tournament(ctx, tour.ID); got.TeamTop != 3 {
			t.Fatalf("team top %d", got.TeamTop)
		}
		if ok, err := s.InviteTeam(ctx, tour.ID, "guild2", t0.Add(time.Minute)); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if ok, _ := s.InviteTeam(ctx, tour.ID, "guild2", t0.Add(2*time.Minute)); ok {
			t.Fatal("invited twice")
		}
		if ok, _ := s.InviteTeam(ctx, tour.ID, "guild1", t0); ok {
			t.Fatal("the host invited")
		}
		if ok, _ := s.AcceptTeam(ctx, tour.ID, "guild3", "c3", "Never asked", t0); ok {
			t.Fatal("a server never invited accepted")
		}
		teams, err := s.Teams(ctx, tour.ID)
		if err != nil || len(teams) != 2 || teams[0].GuildID != "guild1" || !teams[0].Accepted() || teams[0].Name != "Hosts" ||
			teams[0].ChannelID != "hall" || teams[1].Accepted() {
			t.Fatalf("teams %+v %v", teams, err)
		}
		if ok, err := s.AcceptTeam(ctx, tour.ID, "guild2", "lobby2", "Visitors", t0.Add(3*time.Minute)); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if ok, _ := s.AcceptTeam(ctx, tour.ID, "guild2", "other", "Again", t0.Add(4*time.Minute)); ok {
			t.Fatal("accepted twice")
		}
		teams, _ = s.Teams(ctx, tour.ID)
		if v := teams[1]; !v.Accepted() || v.ChannelID != "lobby2" || v.Name != "Visitors" || !v.AcceptedAt.Equal(t0.Add(3*time.Minute)) {
			t.Fatalf("the visitors %+v", v)
		}
		if err := s.JoinTournament(ctx, tour.ID, alice, "guild1", 1500, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.JoinTournament(ctx, tour.ID, bob, "guild2", 1500, t0); err != nil {
			t.Fatal(err)
		}
		es, _ := s.Entrants(ctx, tour.ID)
		if len(es) != 2 || es[0].Team != "guild1" || es[1].Team != "guild2" {
			t.Fatalf("entrants %+v", es)
		}
		plain := &tournament.Tournament{GuildID: "guild1", ChannelID: "hall", Name: "Plain", Format: tournament.Swiss, Rounds: 3,
			Size: 8, Control: control, CreatedAt: t0}
		if err := s.CreateTournament(ctx, plain, alice); err != nil {
			t.Fatal(err)
		}
		if teams, _ := s.Teams(ctx, plain.ID); len(teams) != 0 {
			t.Fatalf("a plain tournament's teams: %+v", teams)
		}
	})
}
