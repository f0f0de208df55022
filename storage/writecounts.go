package storage

// This file holds the counters of games' writes that the preload
// (seenwithgame.go) and SQLite's kept rows (rowcache.go) are checked
// against. A SQLite database is one process's, but that process may open
// it more than once (a tool beside the bot, a test reading what the bot
// wrote): every store of one file in a process shares one set of
// counters, so a row one store keeps is ended by a write any of them
// makes, not only its own.

import (
	"path/filepath"
	"sync"
	"sync/atomic"
)

type writeCounts struct {
	// stripes counts the writes of games by stripe of their ids.
	stripes [writeStripes]atomic.Uint64
	all     atomic.Uint64 // their sum (rowcache.go)
	renames atomic.Uint64 // transactions that wrote a player's name
	users   int           // stores holding these counters (sharedCounts.mu)
}

// sharedCounts is the counters of each SQLite file open in this process,
// by its absolute path.
var sharedCounts = struct {
	mu    sync.Mutex
	files map[string]*writeCounts
}{files: map[string]*writeCounts{}}

// countsKey names a database file as every store of it in this process
// does: a relative path and a link to the file count as the file.
func countsKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// openCounts is the counters of the SQLite file at path, shared with
// every other store of it open in this process.
func openCounts(path string) (*writeCounts, string) {
	key := countsKey(path)
	sharedCounts.mu.Lock()
	defer sharedCounts.mu.Unlock()
	c := sharedCounts.files[key]
	if c == nil {
		c = &writeCounts{}
		sharedCounts.files[key] = c
	}
	c.users++
	return c, key
}

// closeCounts lets go of the counters kept under key by openCounts.
func closeCounts(key string) {
	sharedCounts.mu.Lock()
	defer sharedCounts.mu.Unlock()
	c := sharedCounts.files[key]
	if c == nil {
		return
	}
	if c.users--; c.users == 0 {
		delete(sharedCounts.files, key)
	}
}
