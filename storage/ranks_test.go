package storage

import (
	"context"
	"testing"

	"othello-bot/ranks"
)

// A server's band width, its roles and who holds them are kept.
func TestRankStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		if step, err := s.RoleStep(ctx, "g"); err != nil || step != 0 {
			t.Fatalf("before: %d %v", step, err)
		}
		s.SetRoleStep(ctx, "g", 200, t0)
		if step, _ := s.RoleStep(ctx, "g"); step != 200 {
			t.Fatalf("step %d", step)
		}
		b14 := ranks.Role{Speed: "blitz", Step: 200, Band: 1400, RoleID: "r1"}
		b16 := ranks.Role{Speed: "blitz", Step: 200, Band: 1600, RoleID: "r2"}
		for _, r := range []ranks.Role{b14, b16} {
			if err := s.SaveRankRole(ctx, "g", r); err != nil {
				t.Fatal(err)
			}
		}
		if list, _ := s.RankRoles(ctx, "g"); len(list) != 2 || list[0] != b14 {
			t.Fatalf("roles: %+v", list)
		}
		s.SetRankHeld(ctx, "g", alice.ID, "r1", true)
		s.SetRankHeld(ctx, "g", alice.ID, "r1", true) // twice: once
		s.SetRankHeld(ctx, "g", bob.ID, "r2", true)
		if held, _ := s.HeldRanks(ctx, "g", alice.ID); len(held) != 1 || held[0] != b14 {
			t.Fatalf("alice holds %+v", held)
		}
		if who, _ := s.RankHolders(ctx, "g", "r1"); len(who) != 1 || who[0] != alice.ID {
			t.Fatalf("r1's holders: %v", who)
		}
		s.SetRankHeld(ctx, "g", alice.ID, "r1", false)
		if held, _ := s.HeldRanks(ctx, "g", alice.ID); len(held) != 0 {
			t.Fatalf("alice still holds %+v", held)
		}
		if held, _ := s.HeldRanks(ctx, "other", bob.ID); len(held) != 0 {
			t.Fatalf("another server's roles: %+v", held)
		}
	})
}
