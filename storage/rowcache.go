package storage

// This file keeps, on SQLite, each channel's active game as a read gives
// it, carried forward by this process's own writes of it: a move's read
// of its game then costs no statement. SQLite's database is one
// process's (seen.go), so every change of a game's row is a write of a
// store of this process, and each one moves the game's write counter on
// (seenwithgame.go; the stores of one file share their counters,
// filekept.go): an entry is good while that counter is where the
// entry left it. A turn's write carries the entry to the row it wrote
// (the row a read would give: record.Game.Turned, with the times and
// clocks as the columns hold them); any other write of the game
// (a takeback, a reminder, the live message, a finish) only ends it, as
// a write refused ends it. A row also carries its players' names, and a
// rename (upsertPlayer) ends every entry. PostgreSQL's processes write
// the same rows: there every read goes to the database.
//
// Why: the read after a commit was a sixth of a SQLite move's CPU — each
// commit leaves the readers' page caches stale ("SQLite's read of the
// game after a write", docs/operators.md).

import (
	"context"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"othello-bot/record"
)

type rowCache struct {
	channels *lru.Cache[string, rowEntry]
}

type rowEntry struct {
	g       *record.Game // as a read gives it; never handed out
	seq     uint64       // the game's write counter when kept
	renames uint64       // the store's renames when its names were read
}

func (c *rowCache) init() {
	ch, err := lru.New[string, rowEntry](stateCacheGames)
	if err != nil {
		panic(err) // only for a size under 1
	}
	c.channels = ch
}

// keptActive is a copy of channelID's active game as kept, if it is good.
func (s *Store) keptActive(channelID string) (*record.Game, bool) {
	if s.rows.channels == nil {
		return nil, false
	}
	e, ok := s.rows.channels.Get(channelID)
	if !ok || s.writeSeq(e.g.ID).Load() != e.seq || s.writes.renames.Load() != e.renames {
		return nil, false
	}
	return e.g.Clone(), true
}

// readActive is ActiveGame from the database; on SQLite the game read is
// kept unless a write of a game or a rename came during the read. (A
// write counts all games' writes before its own game's: if none counted
// between the read's start and the game's count taken after it, any
// write the read missed counts the game's after that, and ends the row.)
func (s *Store) readActive(ctx context.Context, channelID string) (*record.Game, error) {
	likely, _ := s.states.keptIn(channelID)
	all, renames := s.writes.all.Load(), s.writes.renames.Load()
	g, err := s.oneGame(ctx, `g.channel_id = ? AND g.status = 'active'`, channelID, likely)
	if err != nil || s.rows.channels == nil {
		return g, err
	}
	if afterRowRead != nil {
		afterRowRead()
	}
	seq := s.writeSeq(g.ID).Load()
	if s.writes.all.Load() == all {
		s.rows.channels.Add(channelID, rowEntry{g: g.Clone(), seq: seq, renames: renames})
	}
	return g, nil
}

// afterRowRead, if set (by a test), runs between a read and its keeping.
var afterRowRead func()

// turnWritten counts a write of g's turn made on version readAt and, if
// it was stored (a turn that did not end the game), carries g's kept row
// to what the write left — only if nothing else wrote the game since the
// entry was kept.
func (s *Store) turnWritten(g *record.Game, readAt int64, stored bool) {
	seq := s.wroteGame(g.ID)
	c := s.rows.channels
	if c == nil {
		return
	}
	old, ok := c.Peek(g.ChannelID)
	if !ok {
		return
	}
	if !stored || g.Status != record.Active || old.g.ID != g.ID || old.g.Version != readAt ||
		old.seq+1 != seq || old.renames != s.writes.renames.Load() {
		c.Remove(g.ChannelID)
		return
	}
	kept := asStored(g)
	// The names as the entry read them: g may come from an older read.
	kept.Black, kept.White = old.g.Black, old.g.White
	c.Add(g.ChannelID, rowEntry{g: kept, seq: seq, renames: old.renames})
}

// asStored is a copy of g as its row gives it back: times to the
// millisecond in UTC, clocks to the millisecond, nothing held in memory
// only.
func asStored(g *record.Game) *record.Game {
	c := g.Clone()
	c.ShownIn = ""
	for _, t := range []*time.Time{&c.CreatedAt, &c.UpdatedAt, &c.TurnStartedAt, &c.Deadline, &c.RemindAt, &c.ReplyExpires} {
		if !t.IsZero() {
			*t = fromMillis(t.UnixMilli())
		}
	}
	for i := range c.Left {
		c.Left[i] = time.Duration(c.Left[i].Milliseconds()) * time.Millisecond
	}
	return c
}
