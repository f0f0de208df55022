package storage

// This file holds what a SQLite store keeps of its file in memory and
// checks against its own writes: the counters of games' writes that the
// kept rows (rowcache.go) and the preload (seenwithgame.go) are checked
// against, and the languages kept (langcache.go). A SQLite database is
// one process's, but that process may open it more than once (a tool
// beside the bot, a test reading what the bot wrote): every store of one
// file in a process shares them, so what one store keeps is ended by a
// write any of them makes, not only its own.

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
}

// fileKept is what the stores of one SQLite file share.
type fileKept struct {
	writes writeCounts
	langs  *langCache
	users  int // stores holding it (sharedFiles.mu)
}

// sharedFiles is what is kept of each SQLite file open in this process,
// by its absolute path.
var sharedFiles = struct {
	mu    sync.Mutex
	files map[string]*fileKept
}{files: map[string]*fileKept{}}

// fileKey names a database file as every store of it in this process
// does: a relative path and a link to the file count as the file.
func fileKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// openKept is what is kept of the SQLite file at path, shared with every
// other store of it open in this process, and the key to let go of it by.
func openKept(path string) (*fileKept, string) {
	key := fileKey(path)
	sharedFiles.mu.Lock()
	defer sharedFiles.mu.Unlock()
	f := sharedFiles.files[key]
	if f == nil {
		f = &fileKept{langs: newLangCache()}
		sharedFiles.files[key] = f
	}
	f.users++
	return f, key
}

// closeKept lets go of what openKept gave under key.
func closeKept(key string) {
	sharedFiles.mu.Lock()
	defer sharedFiles.mu.Unlock()
	f := sharedFiles.files[key]
	if f == nil {
		return
	}
	if f.users--; f.users == 0 {
		delete(sharedFiles.files, key)
	}
}
