package keyed

import (
	"sync"
	"time"
)

// Pace lets something happen at most once per Every for each key (a
// server's role pinged, a player's run started); its zero value with
// Every set is ready. Keys whose pause is over are forgotten as the set
// grows, so it suits keys without bound too (players).
type Pace struct {
	Every time.Duration
	mu    sync.Mutex
	last  map[string]time.Time
}

// forgetAbove is the size past which a Take first forgets the keys whose
// pause is over.
const forgetAbove = 1024

// Take reports whether key may go at now and, if so, counts it.
func (p *Pace) Take(key string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.last[key]; ok && now.Sub(t) < p.Every {
		return false
	}
	if p.last == nil {
		p.last = map[string]time.Time{}
	}
	if len(p.last) > forgetAbove {
		for k, t := range p.last {
			if now.Sub(t) >= p.Every {
				delete(p.last, k)
			}
		}
	}
	p.last[key] = now
	return true
}
