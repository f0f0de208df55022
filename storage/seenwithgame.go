package storage

// This file lets an interaction's note of its id on PostgreSQL bring back
// the channel's game in the same round trip. A move's first statement
// was the note alone, and its second the game's read: one statement
// does both now (a data-modifying WITH, one snapshot, one commit), and
// the game rides in the interaction's context to the handler's
// ActiveGame. SQLite notes without a round trip (seen.go) and reads
// without one, so it does as before.
//
// The game preloaded is the row as it was when the interaction arrived:
// what a read a little later gives unless a write came between. A write
// another process makes meanwhile is what any read races with (every
// write checks the version it was read at and is refused as stale); a
// write this process makes discards the preload (writeSeq), so no
// handler here reads a game older than one this process wrote.

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"othello-bot/game"
	"othello-bot/record"
)

// writeStripes spreads the write counters over games so that one game's
// preload or kept row (rowcache.go) is not ended by the writes of the
// others: games ids are sequential, so two games share a counter only
// 65,536 games apart (512 KiB of counters a store).
const writeStripes = 1 << 16

// writeSeq is the counter of writes of games whose id falls on stripe.
func (s *Store) writeSeq(id int64) *atomic.Uint64 {
	return &s.writes.stripes[uint64(id)%writeStripes]
}

// wroteGame counts a write of game id (deferred by each write, so that it
// counts once the write is over: a preload read before that saw the game
// before it and is discarded) and says the game's count after it. The
// count of all writes moves first (rowcache.go's readActive relies on
// it).
func (s *Store) wroteGame(id int64) uint64 {
	s.writes.all.Add(1)
	return s.writeSeq(id).Add(1)
}

// preloadKey holds a store's preload in a context; the store in it keeps
// one store's preload from being taken by another.
type preloadKey struct{ s *Store }

// preload is a channel's active game read with an interaction's note.
type preload struct {
	channelID string
	g         *record.Game
	seq       uint64 // writeSeq(g.ID) before the read
	taken     atomic.Bool
}

// FirstSeenIn is FirstSeen for an interaction in a channel: on PostgreSQL
// it brings back, in the same statement, the game this process last kept
// of that channel, and if that is the channel's active game, with returns
// a context in which the first ActiveGame of the channel takes it instead
// of reading it again. with is nil when nothing was preloaded.
func (s *Store) FirstSeenIn(ctx context.Context, id, channelID string, at time.Time) (first bool, with func(context.Context) context.Context, err error) {
	likely, ok := s.states.keptIn(channelID)
	if s.dialect != postgresDB || channelID == "" || !ok {
		first, err = s.FirstSeen(ctx, id, at)
		return first, nil, err
	}
	kept, isKept := s.states.kept(likely)
	seq := s.writeSeq(likely).Load()
	var moves sql.NullString
	var noted int
	l, err := scanGame(s.wdb.QueryRowContext(ctx,
		`WITH seen AS (INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING 1) `+
			selectColumns(gameColumns+movesAfter+`, (SELECT count(*) FROM seen)`, `g.id = ?`, ""),
		id, millis(at), likely, kept.takebacks, kept.plies, likely), &moves, &noted)
	if err != nil {
		// Games are never deleted: no row is a failure like any other,
		// and the note was not made.
		return false, nil, fmt.Errorf("recording interaction %s: %w", id, err)
	}
	if noted != 1 {
		return false, nil, nil
	}
	if l.g.Status != record.Active || l.g.ChannelID != channelID {
		return true, nil, nil
	}
	g, err := s.withMoves(ctx, l, kept, isKept, likely, moves.String)
	if err != nil {
		// The note is made; the handler's own read says what is wrong.
		s.logger.Warn("preloading a channel's game", "game", likely, "err", err)
		return true, nil, nil
	}
	p := &preload{channelID: channelID, g: g, seq: seq}
	return true, func(ctx context.Context) context.Context {
		return context.WithValue(ctx, preloadKey{s}, p)
	}, nil
}

// preloaded is the game FirstSeenIn brought back for channelID with ctx,
// if there is one, not taken before, and not written by this process since.
func (s *Store) preloaded(ctx context.Context, channelID string) (*record.Game, bool) {
	p, ok := ctx.Value(preloadKey{s}).(*preload)
	if !ok || p.channelID != channelID || !p.taken.CompareAndSwap(false, true) {
		return nil, false
	}
	if s.writeSeq(p.g.ID).Load() != p.seq {
		return nil, false
	}
	return p.g, true
}

// withMoves is l's game with its state: kept, or rebuilt from the moves
// the statement read (movesAfter, after those of kept if isKept and
// likely is l's game), or read by themselves.
func (s *Store) withMoves(ctx context.Context, l *loaded, kept cachedState, isKept bool, likely int64, moves string) (*record.Game, error) {
	if st, ok := s.states.get(l); ok {
		l.g.State = st
		return l.g, nil
	}
	var base []game.Ply // nil: the statement sent all the moves
	if isKept && l.g.ID == likely && l.g.Takebacks == kept.takebacks && l.g.PublicID == kept.publicID {
		base = kept.state.Plies()
	}
	if g := s.replayWith(l, base, moves); g != nil {
		return g, nil
	}
	// Not where the moves lead: read them by themselves, and say why.
	return s.complete(ctx, s.db, l)
}
