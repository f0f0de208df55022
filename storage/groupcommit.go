package storage

// This file is SQLite's group commit: writers that arrive while a
// transaction is being written wait their turn in order, and are then
// written together in one transaction (each in a savepoint of its own when
// there are several, so one that fails changes nothing and fails alone), with one sync to
// disk for all. SQLite has one writer: without this, 200 flags falling
// at one instant are 200 transactions, each a sync, and database/sql
// hands the one write connection to a random waiter, so the unluckiest
// wait without bound. PostgreSQL commits concurrent transactions itself.

import (
	"context"
	"database/sql"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// maxGroup bounds the writes one transaction takes.
const maxGroup = 256

// groupWrite is one writer's work, and where its outcome goes.
type groupWrite struct {
	ctx  context.Context
	fn   func(tx *dbTx) error
	logs int64 // a game whose results line follows the commit; 0 if none
	done chan groupDone
}

type groupDone struct {
	err    error // the write's own, or the commit's
	logErr error // the results line's, if the write wanted one
}

// groupCommit queues writes in arrival order; the first writer to find
// none being written writes the first batch itself (with its own write)
// and starts a writer that writes the rest of the queue, batch after
// batch, until it is empty. Each writer waits for its own batch only.
type groupCommit struct {
	mu      sync.Mutex
	queue   []*groupWrite
	writing bool
	// unmarked are games whose results lines are in the log but not yet
	// noted so in the database: the next batch's transaction notes them,
	// or the writer before it stops. A stop before that costs nothing:
	// the catch-up at start finds their lines in the log.
	unmarked []int64
	running  sync.WaitGroup
	// seen are the interaction ids this process took (seen.go), notes
	// those not yet written: the next batch's transaction writes them, or
	// a writer of their own after noteTimer.
	seen      map[string]int64
	notes     []seenNote
	noteTimer *time.Timer
	closing   bool
}

// inGroupTx runs fn in a transaction shared with the writes queued with
// it (see the file's comment) and reports its outcome once that
// transaction commits; with logs set, the game's results line is written
// after the commit, and its error is the second result.
func (s *Store) inGroupTx(ctx context.Context, logs int64, fn func(tx *dbTx) error) (error, error) {
	start := time.Now()
	w := &groupWrite{ctx: ctx, fn: fn, logs: logs, done: make(chan groupDone, 1)}
	g := &s.group
	g.mu.Lock()
	g.queue = append(g.queue, w)
	lead := !g.writing
	if lead {
		g.writing = true
		g.running.Add(1)
	}
	g.mu.Unlock()
	if lead {
		// No writer running: this one writes its own batch, without handing
		// it to another goroutine and waiting to be woken (most writes,
		// unless they crowd), and leaves what queued meanwhile to one.
		s.writeGroups(context.Background(), true)
	}
	d := <-w.done
	s.observe(start, d.err)
	return d.err, d.logErr
}

// guarded is a write whose panic becomes its error, undone as a failed
// write is (runTx guards each transaction, a batch each savepoint): a
// write runs on whichever goroutine leads the group commit, and a panic
// must neither stop the process nor leave the one write connection inside
// a transaction nobody ends.
func (s *Store) guarded(fn func(tx *dbTx) error) func(tx *dbTx) error {
	return func(tx *dbTx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("a database write panicked", "panic", r, "stack", string(debug.Stack()))
				err = fmt.Errorf("a database write panicked: %v", r)
			}
		}()
		return fn(tx)
	}
}

// writeGroups writes the queue in batches until it is empty; a leader (a
// writer writing its own batch) writes one batch and starts a writer for
// the rest. The batches outlive any one writer's context: each is checked
// before its own part runs.
func (s *Store) writeGroups(ctx context.Context, leader bool) {
	g := &s.group
	defer g.running.Done()
	for first := true; ; first = false {
		if leader && !first {
			g.mu.Lock()
			if len(g.queue)+len(g.unmarked)+len(g.notes) > 0 {
				g.running.Add(1)
				go s.writeGroups(ctx, false)
			} else {
				g.writing = false
			}
			g.mu.Unlock()
			return
		}
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		batch := g.queue[:n:n]
		g.queue = g.queue[n:]
		unmarked, notes := g.unmarked, g.notes
		g.unmarked, g.notes = nil, nil
		if g.noteTimer != nil { // the notes ride with this batch
			g.noteTimer.Stop()
			g.noteTimer = nil
		}
		if n == 0 && len(unmarked) == 0 && len(notes) == 0 {
			g.writing = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		if n == 0 {
			if len(unmarked) > 0 {
				if err := s.markLoggedAll(ctx, s.wdb, unmarked); err != nil {
					s.logger.Warn("noting results as logged (the catch-up at start will)", "err", err)
				}
			}
			if len(notes) > 0 {
				if err := s.runTx(ctx, false, func(tx *dbTx) error { return writeNotes(ctx, tx, notes) }); err != nil {
					s.logger.Warn("noting interactions (tried again with the next write)", "err", err)
					g.mu.Lock()
					g.notes = append(notes, g.notes...)
					if len(g.queue)+len(g.unmarked) == 0 {
						// Nothing else to write: after the delay, not at once.
						g.writing = false
						s.notesDueLocked()
						g.mu.Unlock()
						return
					}
					g.mu.Unlock()
				}
			}
			continue
		}
		s.writeGroup(ctx, batch, unmarked, notes)
	}
}

// writeGroup writes one batch in one transaction, with the notes of
// results logged before it and of interactions taken, and tells each
// writer.
func (s *Store) writeGroup(ctx context.Context, batch []*groupWrite, unmarked []int64, notes []seenNote) {
	errs := make([]error, len(batch))
	var commitErr error
	if len(batch) == 1 && len(unmarked) == 0 {
		// A batch of one (most, unless the writes crowd): its transaction
		// undoes it on failure, no savepoint needed — two statements fewer
		// a move.
		if errs[0] = batch[0].ctx.Err(); errs[0] == nil {
			errs[0] = s.runTx(ctx, false, func(tx *dbTx) error {
				if err := writeNotes(ctx, tx, notes); err != nil {
					return err
				}
				return batch[0].fn(tx)
			})
		}
		if errs[0] != nil {
			s.notesBack(notes) // undone with the write: the next commit takes them
		}
	} else {
		commitErr = s.writeBatch(ctx, batch, unmarked, notes, errs)
		if commitErr != nil {
			s.notesBack(notes)
		}
	}
	var logged []int64
	for i, w := range batch {
		if commitErr != nil && errs[i] == nil {
			errs[i] = commitErr
		}
		if errs[i] == nil && w.logs != 0 {
			logged = append(logged, w.logs)
		}
	}
	var logErr error
	if len(logged) > 0 && s.results != nil {
		logErr = s.logResults(ctx, logged)
	}
	for i, w := range batch {
		d := groupDone{err: errs[i]}
		if errs[i] == nil && w.logs != 0 {
			d.logErr = logErr
		}
		w.done <- d
	}
	if len(logged) > 0 && s.results != nil && logErr == nil {
		// The lines are in the file; their flush to disk overlaps the
		// next batch, and only flushed lines are noted logged (a line
		// lost with the machine before that is written again by the
		// catch-up at start, one that outlived the process is not).
		s.group.running.Add(1)
		go func() {
			defer s.group.running.Done()
			if err := s.results.sync(); err != nil {
				s.logger.Warn("flushing the results log (the catch-up at start will check it)", "err", err)
				return
			}
			g := &s.group
			g.mu.Lock()
			defer g.mu.Unlock()
			g.unmarked = append(g.unmarked, logged...)
			if !g.writing { // nothing queued: a writer of its own notes them
				g.writing = true
				g.running.Add(1)
				go s.writeGroups(ctx, false)
			}
		}()
	}
}

// writeBatch writes several writes in one transaction, each in a savepoint
// of its own so one refused leaves the others, with the notes of results
// logged before them; each write's own error goes to errs.
func (s *Store) writeBatch(ctx context.Context, batch []*groupWrite, unmarked []int64, notes []seenNote, errs []error) error {
	return s.runTx(ctx, false, func(tx *dbTx) error {
		if err := writeNotes(ctx, tx, notes); err != nil {
			return err
		}
		if len(unmarked) > 0 {
			if err := s.markLoggedAll(ctx, tx, unmarked); err != nil {
				return err
			}
		}
		for i, w := range batch {
			if err := w.ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			errs[i] = savepoint(ctx, tx, s.guarded(w.fn)) // one that panics fails alone
		}
		return nil
	})
}

// savepoint runs fn inside a savepoint of tx, undoing only its part when
// it fails.
func savepoint(ctx context.Context, tx *dbTx, fn func(tx *dbTx) error) error {
	if _, err := tx.Tx.ExecContext(ctx, `SAVEPOINT w`); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	if err := fn(tx); err != nil {
		if _, rerr := tx.Tx.ExecContext(ctx, `ROLLBACK TO w`); rerr != nil {
			return fmt.Errorf("%w (and undoing it: %v)", err, rerr)
		}
		tx.Tx.ExecContext(ctx, `RELEASE w`)
		return err
	}
	if _, err := tx.Tx.ExecContext(ctx, `RELEASE w`); err != nil {
		return fmt.Errorf("releasing a savepoint: %w", err)
	}
	return nil
}

// logResults writes the lines of games just finished, in one write, not
// yet flushed to disk; flushing and noting them logged are the caller's.
func (s *Store) logResults(ctx context.Context, ids []int64) error {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.writeResults(ctx, ids, false)
}

// markLoggedAll notes games' results as logged, in one write through w
// (the write connection, or a transaction).
func (s *Store) markLoggedAll(ctx context.Context, w interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}, ids []int64) error {
	args := make([]any, 0, len(ids)+1)
	args = append(args, millis(time.Now()))
	in := ""
	for i, id := range ids {
		if i > 0 {
			in += ", "
		}
		in += "?"
		args = append(args, id)
	}
	if _, err := w.ExecContext(ctx, `UPDATE results SET logged_at = ? WHERE game_id IN (`+in+`)`, args...); err != nil {
		return fmt.Errorf("noting %d results as logged: %w", len(ids), err)
	}
	return nil
}
