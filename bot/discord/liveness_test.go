package discord

import (
	"strconv"
	"testing"
	"time"
)

type heardOutages struct {
	away map[string]func(string) bool
	back []string
}

func (h *heardOutages) Away(source string, _ time.Time, covers func(string) bool) {
	h.away[source] = covers
}
func (h *heardOutages) Back(source string, _ time.Time) { h.back = append(h.back, source) }

// Discord's sharding formula, shard_id = (guild_id >> 22) % num_shards,
// with direct messages on shard 0; one shard covers all.
func TestShardCovers(t *testing.T) {
	if ShardCovers(0, 1) != nil {
		t.Fatal("a single shard should cover every server")
	}
	// A guild id whose timestamp part is 7: shard 7 % 4 = 3.
	guild := strconv.FormatUint(7<<22|12345, 10)
	for shard := range 4 {
		if got := ShardCovers(shard, 4)(guild); got != (shard == 3) {
			t.Errorf("shard %d covers guild %s: %v", shard, guild, got)
		}
		if got := ShardCovers(shard, 4)(""); got != (shard == 0) {
			t.Errorf("shard %d covers direct messages: %v", shard, got)
		}
	}
}

// The shards a process is about to connect are away from the start.
func TestLivenessExpect(t *testing.T) {
	h := &heardOutages{away: map[string]func(string) bool{}}
	NewLiveness(h, time.Now).Expect([]int{2, 3}, 4)
	if len(h.away) != 2 || h.away[Source(2)] == nil || h.away[Source(3)] == nil {
		t.Fatalf("away: %v", h.away)
	}
}
