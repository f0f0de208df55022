package downtime

// A running bot can lose its way in without a restart: the database goes
// away, a gateway connection drops. Time in such a span is given back as
// an absence is (see GiveBack): each source says since when it could take
// no move (its last sign of life) and when it is back; while any is away
// no flag falls, and its span is given back before the next flag or move
// is charged (Settle).

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// Database is the source name of the store (see Watch).
const Database = "database"

// outage is one source's span: away since, back at (zero while away), and
// the servers whose games it kept from their players (nil: all).
type outage struct {
	since, back time.Time
	covers      func(guildID string) bool
}

// outages are the sources away or given back next; Settle takes them.
type outages struct {
	mu      sync.Mutex
	by      map[string]outage
	any     atomic.Bool // something in by: the fast path of Settle
	settles sync.Mutex  // one give-back at a time; moves wait for it
	asked   time.Time   // when Settle last asked the store (see answersNow)
}

// Away notes that source could take no move since `since` (on the core's
// clock), for the games of the servers covers says (nil: every game). A source already
// away keeps its first since.
func (s *Service) Away(source string, since time.Time, covers func(guildID string) bool) {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	if s.out.by == nil {
		s.out.by = map[string]outage{}
	}
	if o, ok := s.out.by[source]; ok && o.back.IsZero() {
		return
	} else if ok && o.since.Before(since) {
		since = o.since // away again before its span was given back
	}
	s.out.by[source] = outage{since: since, covers: covers}
	s.out.any.Store(true)
}

// Back notes that source takes moves again since at; its span is given
// back at the next Settle.
func (s *Service) Back(source string, at time.Time) {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	if o, ok := s.out.by[source]; ok && o.back.IsZero() {
		o.back = at
		s.out.by[source] = o
	}
}

// Settle gives back the spans of the sources that are back, once each,
// and reports whether a flag may fall now: false while a source is away
// (or its span could not be given back yet). The game flow calls it
// before it charges a clock; it costs nothing when all is well.
func (s *Service) Settle(ctx context.Context) bool {
	if s == nil || !s.out.any.Load() {
		return true
	}
	s.out.settles.Lock()
	defer s.out.settles.Unlock()
	s.out.mu.Lock()
	by := maps.Clone(s.out.by)
	s.out.mu.Unlock()
	ok := true
	for source, o := range by {
		if o.back.IsZero() && source == Database && s.answersNow(ctx) {
			// Back before the watcher saw it: a move that comes first is
			// not charged the outage.
			o.back = s.core.Now()
			s.Back(source, o.back)
		}
		if o.back.IsZero() {
			ok = false
			continue
		}
		if err := s.giveBack(ctx, o.since, o.back, o.back.Sub(o.since), o.covers); err != nil {
			s.core.Logger(ctx).Warn("giving back an outage", "source", source, "err", err)
			ok = false
			continue
		}
		s.core.Logger(ctx).Info("the bot could take no move: time given back", "source", source,
			"since", o.since, "away", o.back.Sub(o.since))
		s.out.mu.Lock()
		if cur := s.out.by[source]; cur.since.Equal(o.since) && cur.back.Equal(o.back) {
			delete(s.out.by, source)
		}
		s.out.any.Store(len(s.out.by) > 0)
		s.out.mu.Unlock()
	}
	return ok
}

// ping asks the store whether it answers within `within`.
func (s *Service) ping(ctx context.Context, within time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	return s.store.Ping(ctx)
}

// answersNow says whether the store answers now, asking at most every
// quarter second (the flags held meanwhile would each ask); the caller
// holds out.settles.
func (s *Service) answersNow(ctx context.Context) bool {
	if now := time.Now(); now.Sub(s.out.asked) >= time.Second/4 {
		s.out.asked = now
		return s.ping(ctx, time.Second) == nil
	}
	return false
}

// Watch asks the store every `every` whether it answers, until ctx ends:
// one that does not (within `every` twice) is away since the last answer,
// and back with the next. After each look it settles and tells (see
// Tell), so a span is given back even when no move or flag comes.
func (s *Service) Watch(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	w := watch{last: s.core.Now()}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.look(ctx, &w, every)
	}
}

// watch is what Watch remembers between looks: the last answer, and
// whether the store was away at the last look.
type watch struct {
	last time.Time
	down bool
}

// look is one of Watch's looks at the store.
func (s *Service) look(ctx context.Context, w *watch, every time.Duration) {
	asked := s.core.Now()
	err := s.ping(ctx, 2*every)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		if !w.down {
			s.core.Logger(ctx).Warn("the database does not answer: no flag falls until it does", "err", err)
		}
		w.down = true
		s.Away(Database, w.last, nil)
		return
	}
	w.down = false
	s.Back(Database, s.core.Now())
	w.last = asked
	if s.Settle(ctx) {
		s.Tell(ctx)
	}
}
