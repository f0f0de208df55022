package puzzle

import (
	"fmt"
	"testing"
	"time"

	"othello-bot/record"
)

func TestPreviousMonth(t *testing.T) {
	for _, c := range []struct{ now, from, to string }{
		{"2026-12-01T00:00:00Z", "2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"},
		{"2026-11-30T23:59:59Z", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z"},
		{"2027-01-15T08:00:00Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"},
		{"2027-03-01T08:00:00+09:00", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z"}, // still February in UTC
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		from, to := PreviousMonth(now)
		if got := from.Format(time.RFC3339) + " " + to.Format(time.RFC3339); got != c.from+" "+c.to {
			t.Errorf("PreviousMonth(%s) = %s, want %s %s", c.now, got, c.from, c.to)
		}
	}
	if m := Month(time.Date(2027, 1, 1, 3, 0, 0, 0, time.FixedZone("JST", 9*3600))); m != "2026-12" {
		t.Errorf("Month of 03:00 JST on January 1st = %s", m)
	}
}

func TestLeaders(t *testing.T) {
	c := func(guild, player string, n int) record.SolvedCount {
		return record.SolvedCount{GuildID: guild, PlayerID: player, Count: n}
	}
	got := Leaders([]record.SolvedCount{
		c("g1", "bob", 3), c("g1", "alice", 5), c("g1", "carol", 5),
		c("g2", "dave", 1),
		c("g3", "erin", 0), // tried, solved none: no leader
		c("g1", "zed", 4),
	})
	want := map[string][]string{"g1": {"alice", "carol"}, "g2": {"dave"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Leaders = %v, want %v", got, want)
	}
}
