// Package keyed is a mutex per key: work on one key (a channel, a server)
// runs one at a time, work on different keys in parallel.
package keyed

import "sync"

// Mutex is a set of mutexes by key; its zero value is ready. Keys are
// never forgotten: it suits a bounded set, such as the channels or
// servers a process serves.
type Mutex struct {
	mu   sync.Mutex
	keys map[string]*sync.Mutex
}

// Lock locks key's mutex and returns what unlocks it.
func (k *Mutex) Lock(key string) func() {
	k.mu.Lock()
	m, ok := k.keys[key]
	if !ok {
		if k.keys == nil {
			k.keys = map[string]*sync.Mutex{}
		}
		m = &sync.Mutex{}
		k.keys[key] = m
	}
	k.mu.Unlock()
	m.Lock()
	return m.Unlock
}
