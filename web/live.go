package web

// This file is the live part. One loop asks the database for the versions
// of the games pages watch (one query however many pages are open); the
// database bumps a game's version with every change, so no clock is
// compared and no change is missed whatever the writers' clocks say. A
// changed game is loaded once and written once per language, and the
// same bytes go to every page watching it.

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"othello-bot/catalog"
	"othello-bot/record"
)

// hub knows who watches which game.
type hub struct {
	src Source
	log *slog.Logger

	mu     sync.Mutex
	rooms  map[string]*room // by public id
	total  int
	byAddr map[string]int
}

// room is one game's watchers and the game as last loaded.
type room struct {
	watchers map[chan struct{}]bool

	mu       sync.Mutex
	game     *record.Game
	payloads map[catalog.Lang][]byte // the game's event after its time (tail), per language, at game.Version
}

func newHub(src Source, log *slog.Logger) *hub {
	return &hub{src: src, log: log, rooms: map[string]*room{}, byAddr: map[string]int{}}
}

// errTooMany says which cap a new watcher hit.
type errTooMany struct{ status int }

func (e errTooMany) Error() string { return http.StatusText(e.status) }

// watch registers a watcher of a game from an address, within the caps;
// its channel holds at most one pending "changed": a slow page never holds
// the hub up, it just gets the newest game when it is ready.
func (h *hub) watch(g *record.Game, addr string, maxTotal, maxPerAddr int) (*room, chan struct{}, func(), error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.total >= maxTotal:
		return nil, nil, nil, errTooMany{http.StatusServiceUnavailable}
	case h.byAddr[addr] >= maxPerAddr:
		return nil, nil, nil, errTooMany{http.StatusTooManyRequests}
	}
	id := g.PublicID
	rm := h.rooms[id]
	if rm == nil {
		rm = &room{watchers: map[chan struct{}]bool{}}
		h.rooms[id] = rm
	}
	rm.update(g)
	c := make(chan struct{}, 1)
	rm.watchers[c] = true
	h.total++
	h.byAddr[addr]++
	return rm, c, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(rm.watchers, c)
		if len(rm.watchers) == 0 {
			delete(h.rooms, id)
		}
		h.total--
		if h.byAddr[addr]--; h.byAddr[addr] <= 0 {
			delete(h.byAddr, addr)
		}
	}, nil
}

// update keeps g if it is newer than what the room holds.
func (rm *room) update(g *record.Game) bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.game != nil && rm.game.Version >= g.Version {
		return false
	}
	rm.game, rm.payloads = g, map[catalog.Lang][]byte{}
	return true
}

// payload is the room's game as an event's tail in t's language, written
// once per version and language and sent as it is to every page, after
// the few bytes of each send's own time (stamp).
func (rm *room) payload(t *catalog.Printer) ([]byte, int64, error) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	g := rm.game
	if p, ok := rm.payloads[t.Lang()]; ok {
		return p, g.Version, nil
	}
	d, err := dataOf(t, g)
	if err != nil {
		return nil, 0, err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, 0, err
	}
	// Data's SentAt is left out (zero) and first: the JSON's other fields
	// follow the time stamp puts before them.
	tail := append([]byte{','}, data[1:]...)
	tail = append(tail, "\n\n"...)
	rm.payloads[t.Lang()] = tail
	return tail, g.Version, nil
}

// stamp is the head of a game event sent at now, up to the time it was
// sent; the room's cached tail completes it.
func stamp(now time.Time) []byte {
	return strconv.AppendInt([]byte("event: game\ndata: {\"sentAt\":"), now.UnixMilli(), 10)
}

// run polls the watched games' versions until ctx ends.
func (h *hub) run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.poll(ctx)
	}
}

func (h *hub) poll(ctx context.Context) {
	h.mu.Lock()
	known := make(map[string]int64, len(h.rooms))
	ids := make([]string, 0, len(h.rooms))
	for id, rm := range h.rooms {
		rm.mu.Lock()
		known[id] = rm.game.Version
		rm.mu.Unlock()
		ids = append(ids, id)
	}
	h.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	versions, err := h.src.GameVersions(ctx, ids)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("web: looking for changed games", "err", err)
		}
		return
	}
	for _, v := range versions {
		if v.Version > known[v.PublicID] {
			h.refresh(ctx, v.PublicID)
		}
	}
}

// refresh loads a changed game, once for all of its watchers, and tells
// them.
func (h *hub) refresh(ctx context.Context, publicID string) {
	h.mu.Lock()
	_, watched := h.rooms[publicID]
	h.mu.Unlock()
	if !watched {
		return
	}
	g, err := h.src.GameByPublicID(ctx, publicID)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("web: loading a changed game", "id", publicID, "err", err)
		}
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if rm := h.rooms[publicID]; rm != nil && rm.update(g) {
		for c := range rm.watchers {
			select {
			case c <- struct{}{}:
			default: // it has one pending already
			}
		}
	}
}

// events streams a game to its page: the game at once, then again each
// time it changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	g, ok := s.load(w, r)
	if !ok {
		return
	}
	t := readerWords(r)
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		addr = r.RemoteAddr
	}
	rm, changed, stop, err := s.hub.watch(g, addr, s.MaxWatchers, s.MaxWatchersPerAddress)
	if tooMany, ok := err.(errTooMany); ok {
		s.log.Warn("web: a live page refused", "addr", addr, "status", tooMany.status)
		w.Header().Set("Retry-After", "30")
		http.Error(w, t.T("web.too_many"), tooMany.status)
		return
	}
	defer stop()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(parts ...[]byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(s.WriteTimeout)); err != nil {
			s.log.Debug("web: no write deadline", "err", err)
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	sent := int64(-1)
	sendGame := func() bool {
		p, version, err := rm.payload(t)
		if err != nil {
			s.log.Error("web: a game does not replay", "id", g.PublicID, "err", err)
			return false
		}
		if version <= sent {
			return true
		}
		sent = version
		return send(stamp(s.Now()), p)
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
			if !send([]byte(": still here\n\n")) {
				return
			}
		}
	}
}

// defaultMaxWatchers leaves most of the process's file descriptors to the
// bot itself (its database, Discord, the pages being loaded): live pages
// may hold a quarter of them.
func defaultMaxWatchers() int {
	n := openFileLimit() / 4
	return max(64, min(n, 20000))
}
