package discord

// This file tells when a gateway shard can take no interaction, so the
// time of a connection lost while the bot runs (or not yet made as it
// starts) is given back on the clocks (bot/downtime), not charged.

import (
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Outages is what hears of a shard away and back: *downtime.Service is
// one.
type Outages interface {
	// Away: source could take no interaction since `since`, for the
	// servers covers says (nil: every server and direct messages).
	Away(source string, since time.Time, covers func(guildID string) bool)
	Back(source string, at time.Time)
}

// Liveness follows each shard's gateway: away from its last sign of
// life (an event, or a heartbeat's acknowledgement) when it drops, back
// with its next READY or RESUMED.
type Liveness struct {
	to  Outages
	now func() time.Time

	mu   sync.Mutex
	last map[int]time.Time // each shard's last event
}

// NewLiveness reports to `to` on the clock now.
func NewLiveness(to Outages, now func() time.Time) *Liveness {
	return &Liveness{to: to, now: now, last: map[int]time.Time{}}
}

// Source names a shard's gateway as an outage's source.
func Source(shard int) string { return "gateway/" + strconv.Itoa(shard) }

// Expect counts the shards a process is about to connect away until
// their first READY: a start charges no clock for the time it takes to
// connect them, one after another.
func (l *Liveness) Expect(shards []int, count int) {
	for _, shard := range shards {
		l.to.Away(Source(shard), l.now(), ShardCovers(shard, count))
	}
}

// Follow follows a session's shard: away when it drops, back when it is
// ready again.
func (l *Liveness) Follow(session *discordgo.Session) {
	shard, count := session.ShardID, session.ShardCount
	covers := ShardCovers(shard, count)
	session.AddHandler(func(*discordgo.Session, *discordgo.Event) {
		l.mu.Lock()
		l.last[shard] = l.now()
		l.mu.Unlock()
	})
	session.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
		// discordgo finds a dead connection by missing acknowledgements:
		// the last one heard, or the last event if later, is when it was
		// last known to work.
		s.RLock()
		since := s.LastHeartbeatAck
		s.RUnlock()
		l.mu.Lock()
		if last := l.last[shard]; last.After(since) {
			since = last
		}
		l.mu.Unlock()
		if since.IsZero() || since.After(l.now()) {
			since = l.now()
		}
		l.to.Away(Source(shard), since, covers)
	})
	back := func() { l.to.Back(Source(shard), l.now()) }
	session.AddHandler(func(*discordgo.Session, *discordgo.Ready) { back() })
	session.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { back() })
}

// ShardCovers says which servers a shard of count receives (Discord's
// formula: shard_id = (guild_id >> 22) % num_shards; direct messages on
// shard 0, https://discord.com/developers/docs/events/gateway#sharding);
// nil when one shard has them all.
func ShardCovers(shard, count int) func(guildID string) bool {
	if count <= 1 {
		return nil
	}
	return func(guildID string) bool {
		id, err := strconv.ParseUint(guildID, 10, 64)
		if err != nil || guildID == "" {
			return shard == 0
		}
		return int((id>>22)%uint64(count)) == shard
	}
}
