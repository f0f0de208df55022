package storage

import (
	"context"
	"testing"

	"othello-bot/record"
)

// A player's and a server's languages read back in one statement, on each
// backend: nothing stored reads as "", either id may be empty.
func TestLanguages(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		if l, err := s.Languages(ctx, alice.ID, "guild1"); err != nil || l != (record.Languages{}) {
			t.Fatalf("nothing stored: %+v %v", l, err)
		}
		if err := s.SetUserLanguage(ctx, alice, "ja", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLocale(ctx, "guild1", "en-GB", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGuildLanguage(ctx, "guild1", "en", t0); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			player, guild string
			want          record.Languages
		}{
			{alice.ID, "guild1", record.Languages{User: "ja", Guild: "en", GuildLocale: "en-GB"}},
			{alice.ID, "", record.Languages{User: "ja"}},
			{"", "guild1", record.Languages{Guild: "en", GuildLocale: "en-GB"}},
			{bob.ID, "guild2", record.Languages{}},
		} {
			if l, err := s.Languages(ctx, c.player, c.guild); err != nil || l != c.want {
				t.Errorf("player %q in %q: %+v %v, want %+v", c.player, c.guild, l, err, c.want)
			}
		}
	})
}
