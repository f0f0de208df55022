package storage

// This file keeps players' and servers' language choices in memory: every
// interaction reads them (a read that cost 6-7% of a move), and they change
// only by SetUserLanguage, SetGuildLanguage and SetGuildLocale. On SQLite
// those are this process's writes — a SQLite database is one process's —
// and the stores of one file in it share one cache (filekept.go). On
// PostgreSQL other processes write them too, and tell the others as they
// commit (langlisten.go); there the choices are kept only while this
// process is listening.

import (
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
)

const (
	langCachePlayers = 16384
	langCacheGuilds  = 4096
)

type guildLangs struct{ language, locale string }

type langCache struct {
	users  *lru.Cache[string, string]
	guilds *lru.Cache[string, guildLangs]
	// changes counts the writes of choices: a read that began before one
	// keeps what it read to itself (it may be the value the write
	// replaced). mu makes a put's check and its keeping one step.
	changes atomic.Uint64
	mu      sync.Mutex
	// off is set while nothing may be kept: on PostgreSQL, while this
	// process does not hear the other processes' changes.
	off atomic.Bool
	// afterRead, for tests, runs between a read and its keeping.
	afterRead func()
}

func newLangCache() *langCache {
	users, err := lru.New[string, string](langCachePlayers)
	if err != nil {
		panic(err)
	}
	guilds, err := lru.New[string, guildLangs](langCacheGuilds)
	if err != nil {
		panic(err)
	}
	return &langCache{users: users, guilds: guilds}
}

// get is a player's and a server's choices if both are kept (an empty id
// needs none).
func (c *langCache) get(playerID, guildID string) (user string, guild guildLangs, ok bool) {
	if c == nil || c.off.Load() {
		return "", guildLangs{}, false
	}
	if playerID != "" {
		if user, ok = c.users.Get(playerID); !ok {
			return "", guildLangs{}, false
		}
	}
	if guildID != "" {
		if guild, ok = c.guilds.Get(guildID); !ok {
			return "", guildLangs{}, false
		}
	}
	return user, guild, true
}

// put keeps what a read that began at change number since found.
func (c *langCache) put(since uint64, playerID, user, guildID string, guild guildLangs) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.changes.Load() != since || c.off.Load() {
		return
	}
	if playerID != "" {
		c.users.Add(playerID, user)
	}
	if guildID != "" {
		c.guilds.Add(guildID, guild)
	}
}

// since is the change number a read begins at.
func (c *langCache) since() uint64 {
	if c == nil {
		return 0
	}
	return c.changes.Load()
}

// changed forgets a player's or a server's choices after a write of them
// (whether or not it committed: a failed one only costs a read).
func (c *langCache) changed(playerID, guildID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.changes.Add(1)
	if playerID != "" {
		c.users.Remove(playerID)
	}
	if guildID != "" {
		c.guilds.Remove(guildID)
	}
}

// keep turns keeping on or off, forgetting everything kept either way:
// what was read before it may be what a change nobody heard replaced, and
// a read that began before it keeps nothing.
func (c *langCache) keep(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.changes.Add(1)
	c.users.Purge()
	c.guilds.Purge()
	c.off.Store(!on)
}
