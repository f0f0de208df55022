package storage

import (
	"context"
	"testing"
)

// Following toggles; followers are listed per server.
func TestFollowStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		if on, err := s.ToggleFollow(ctx, "g", alice.ID, bob, t0); err != nil || !on {
			t.Fatalf("follow: %v %v", on, err)
		}
		if list, _ := s.Following(ctx, "g", alice.ID); len(list) != 1 || list[0] != bob {
			t.Fatalf("alice follows %+v", list)
		}
		if f, _ := s.Followers(ctx, "g", bob.ID); len(f) != 1 || f[0] != alice.ID {
			t.Fatalf("bob's followers %v", f)
		}
		if f, _ := s.Followers(ctx, "other", bob.ID); len(f) != 0 {
			t.Fatalf("another server's followers %v", f)
		}
		if on, _ := s.ToggleFollow(ctx, "g", alice.ID, bob, t0); on {
			t.Fatal("a second toggle still follows")
		}
		if f, _ := s.Followers(ctx, "g", bob.ID); len(f) != 0 {
			t.Fatalf("after unfollowing: %v", f)
		}
	})
}
