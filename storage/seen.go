package storage

// This file is the note of each interaction's id, so that a replayed
// request is refused. PostgreSQL's processes share the database: each
// note is an insert of its own, and the database says who saw an id
// first. SQLite is one process's database (the timers and the group
// commit are its alone), so that process knows every id it took since it
// started: the note rides with its next commit — the interaction's own
// first write when it makes one, so none of an interaction's effects is
// ever on disk without its note — or, when no write comes within
// noteDelay, a commit of the notes alone. A move then costs one sync to
// disk, not two. An id from before a restart is found in the table.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// noteDelay is how long a SQLite note waits for a write to ride with.
const noteDelay = 100 * time.Millisecond

// clockSkew bounds how far Discord's clock may be ahead of this
// machine's: an interaction Discord made later than that after the last
// note a process before this one wrote cannot have reached that process
// (or reached it and changed nothing: a note rides with the first write).
const clockSkew = time.Minute

// snowflakeTime is when Discord made an id (its first 42 bits are
// milliseconds since 2015: Discord's "Snowflakes" reference).
func snowflakeTime(id string) (time.Time, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(n>>22) + discordEpoch), true
}

// discordEpoch is Discord's epoch, 2015-01-01, in Unix ms.
const discordEpoch = 1420070400000

// latestNote is when the latest interaction noted in the table arrived;
// the zero time if none is.
func latestNote(ctx context.Context, q querier) (time.Time, error) {
	var at sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(seen_at) FROM seen_interactions`).Scan(&at); err != nil {
		return time.Time{}, fmt.Errorf("reading the interactions noted: %w", err)
	}
	if !at.Valid {
		return time.Time{}, nil
	}
	return time.UnixMilli(at.Int64), nil
}

// seenNote is an interaction's id not yet written.
type seenNote struct {
	id string
	at int64 // Unix ms
}

// FirstSeen records that an interaction id arrived at and says whether it
// is the first time any process sharing the database saw it.
func (s *Store) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	if s.dialect == sqliteDB {
		return s.firstSeenHere(ctx, id, at)
	}
	res, err := s.wdb.ExecContext(ctx, `INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, id, millis(at))
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		return false, fmt.Errorf("recording interaction %s: %w", id, err)
	}
	return n == 1, nil
}

// firstSeenHere is FirstSeen for the one process of a SQLite database.
func (s *Store) firstSeenHere(ctx context.Context, id string, at time.Time) (bool, error) {
	g := &s.group
	g.mu.Lock()
	_, dup := g.seen[id]
	g.mu.Unlock()
	if dup {
		return false, nil
	}
	if made, ok := snowflakeTime(id); !ok || made.Before(s.seenUntil.Add(clockSkew)) || made.After(time.Now().Add(clockSkew)) {
		// Perhaps seen before this process started (or an id that says
		// it is from the future, which Discord never makes): the table
		// says.
		var one int
		err := s.db.QueryRowContext(ctx, `SELECT 1 FROM seen_interactions WHERE id = ?`, id).Scan(&one)
		if err == nil {
			return false, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("reading interaction %s: %w", id, err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, dup := g.seen[id]; dup { // a copy that arrived at the same time
		return false, nil
	}
	if g.seen == nil {
		g.seen = map[string]int64{}
	}
	g.seen[id] = millis(at)
	g.notes = append(g.notes, seenNote{id: id, at: millis(at)})
	s.notesDueLocked()
	return true, nil
}

// notesDueLocked makes sure the notes waiting are written: by the writer
// running now, or, if none starts within the delay, by one of their own.
func (s *Store) notesDueLocked() {
	g := &s.group
	if g.writing || g.noteTimer != nil || g.closing || len(g.notes) == 0 {
		return
	}
	delay := s.noteDelay
	if delay == 0 {
		delay = noteDelay
	}
	g.noteTimer = time.AfterFunc(delay, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.noteTimer = nil
		s.startWriterLocked()
	})
}

// startWriterLocked starts the writer if there is something to write and
// it is not running.
func (s *Store) startWriterLocked() {
	g := &s.group
	if g.writing || len(g.queue)+len(g.unmarked)+len(g.notes) == 0 {
		return
	}
	g.writing = true
	g.running.Add(1)
	go s.writeGroups(context.Background(), false)
}

// flushNotes has the notes waiting written now (as the store closes).
func (s *Store) flushNotes() {
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closing = true
	if g.noteTimer != nil {
		g.noteTimer.Stop()
		g.noteTimer = nil
	}
	s.startWriterLocked()
}

// writeNotes inserts notes in tx.
func writeNotes(ctx context.Context, tx *dbTx, notes []seenNote) error {
	for _, n := range notes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, n.id, n.at); err != nil {
			return fmt.Errorf("noting interaction %s: %w", n.id, err)
		}
	}
	return nil
}

// notesBack queues notes whose transaction failed to ride with the next.
func (s *Store) notesBack(notes []seenNote) {
	if len(notes) == 0 {
		return
	}
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	g.notes = append(notes, g.notes...)
	s.notesDueLocked()
}

// ForgetSeen drops the interaction ids seen before a time; their requests'
// timestamps are refused as stale by then.
func (s *Store) ForgetSeen(ctx context.Context, before time.Time) error {
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM seen_interactions WHERE seen_at < ?`, millis(before)); err != nil {
		return fmt.Errorf("forgetting old interactions: %w", err)
	}
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, at := range g.seen {
		if at < millis(before) {
			delete(g.seen, id)
		}
	}
	return nil
}
