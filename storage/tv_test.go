package storage

import (
	"context"
	"testing"

	"othello-bot/record"
)

// A server's TV channel and what it shows are kept; a new channel starts
// afresh; a show recorded for a channel since changed is dropped.
func TestTVSettings(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		if got, err := s.TVSettings(ctx); err != nil || len(got) != 0 {
			t.Fatalf("before: %v %v", got, err)
		}
		if err := s.SetTV(ctx, "g1", "tv1", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveTVShow(ctx, "g1", "tv1", "m1", 42, t0); err != nil {
			t.Fatal(err)
		}
		got, err := s.TVSettings(ctx)
		if err != nil || len(got) != 1 || got[0] != (record.TVSetting{GuildID: "g1", ChannelID: "tv1", MessageID: "m1", GameID: 42}) {
			t.Fatalf("after a show: %+v %v", got, err)
		}
		s.SetTV(ctx, "g1", "tv2", t0)
		s.SaveTVShow(ctx, "g1", "tv1", "m9", 7, t0) // for the old channel: dropped
		got, _ = s.TVSettings(ctx)
		if len(got) != 1 || got[0] != (record.TVSetting{GuildID: "g1", ChannelID: "tv2"}) {
			t.Fatalf("after moving: %+v", got)
		}
		s.SetTV(ctx, "g1", "", t0)
		if got, _ := s.TVSettings(ctx); len(got) != 0 {
			t.Fatalf("after off: %+v", got)
		}
	})
}
