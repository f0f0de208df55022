package web

// This file is the live part: one loop notices changed games for all
// watchers at once (one query however many pages are open), and each open
// page gets the game again as a server-sent event when its game changes.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// hub knows who watches which game.
type hub struct {
	src Source
	log *slog.Logger

	mu       sync.Mutex
	watchers map[string]map[chan struct{}]bool // by public id
	versions map[string]int64
}

func newHub(src Source, log *slog.Logger) *hub {
	return &hub{src: src, log: log, watchers: map[string]map[chan struct{}]bool{}, versions: map[string]int64{}}
}

// watch registers a watcher of a game; its channel holds at most one
// pending "changed": a slow page never holds the hub up, it just gets the
// newest game when it is ready.
func (h *hub) watch(id string) (chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	if h.watchers[id] == nil {
		h.watchers[id] = map[chan struct{}]bool{}
	}
	h.watchers[id][c] = true
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.watchers[id], c)
		if len(h.watchers[id]) == 0 {
			delete(h.watchers, id)
			delete(h.versions, id)
		}
		h.mu.Unlock()
	}
}

// run polls for changed games until ctx ends.
func (h *hub) run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	since := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.mu.Lock()
		idle := len(h.watchers) == 0
		h.mu.Unlock()
		now := time.Now()
		if idle {
			since = now
			continue
		}
		// A little overlap: a change stamped just before the last poll
		// but committed after it is not missed.
		changed, err := h.src.ChangedGames(ctx, since.Add(-2*time.Second))
		if err != nil {
			if ctx.Err() == nil {
				h.log.Warn("web: looking for changed games", "err", err)
			}
			continue
		}
		since = now
		h.mu.Lock()
		for _, v := range changed {
			ws := h.watchers[v.PublicID]
			if len(ws) == 0 || h.versions[v.PublicID] >= v.Version {
				continue
			}
			h.versions[v.PublicID] = v.Version
			for c := range ws {
				select {
				case c <- struct{}{}:
				default: // it has one pending already
				}
			}
		}
		h.mu.Unlock()
	}
}

// events streams a game to its page: the game at once, then again each
// time it changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	id, t := g.PublicID, readerWords(r)
	changed, stop := s.hub.watch(id)
	defer stop()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(payload string) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(s.WriteTimeout)); err != nil {
			s.log.Debug("web: no write deadline", "err", err)
		}
		if _, err := fmt.Fprint(w, payload); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	version := int64(-1)
	sendGame := func() bool {
		g, err := s.src.GameByPublicID(r.Context(), id)
		if err != nil {
			return r.Context().Err() == nil // try again on the next change
		}
		if g.Version == version {
			return true
		}
		d, err := dataOf(t, g)
		if err != nil {
			return false
		}
		data, err := json.Marshal(d)
		if err != nil {
			return false
		}
		version = g.Version
		return send("event: game\ndata: " + string(data) + "\n\n")
	}
	if !sendGame() {
		return
	}
	keep := time.NewTicker(s.KeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-changed:
			if !sendGame() {
				return
			}
		case <-keep.C:
			if !send(": still here\n\n") {
				return
			}
		}
	}
}
