package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/record"
)

// Writes that come together commit together, yet each as if alone: 60
// games ended at once, each also by a second writer from the same old
// read, end once each (the second refused with record.ErrStale, the
// others in its batch unharmed), and each has one line in the results
// log, noted as logged by the time the store closes.
func TestWritesTogetherEachAsIfAlone(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, dir := openIn(t, database)
		const n = 60
		var games []*record.Game
		for i := range n {
			games = append(games, newGame(t, s, fmt.Sprintf("c%d", i), record.Human(alice), record.Human(bob), 8))
		}
		var wg sync.WaitGroup
		errs := make([]error, 2*n)
		for i, g := range games {
			for k := range 2 {
				copy := *g
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[2*i+k] = s.FinishGame(ctx, &copy, record.Result{FinishedAt: t0.Add(time.Minute), Reason: record.EndResign, Winner: 1}, nil)
				}()
			}
		}
		wg.Wait()
		for i := range n {
			a, b := errs[2*i], errs[2*i+1]
			stale := func(err error) bool { return errors.Is(err, record.ErrStale) || errors.Is(err, record.ErrNotActive) }
			if (a == nil) == (b == nil) || a != nil && !stale(a) || b != nil && !stale(b) {
				t.Fatalf("game %d ended by both or neither: %v, %v", games[i].ID, a, b)
			}
		}
		log, err := os.ReadFile(filepath.Join(dir, "results.log"))
		if err != nil || strings.Count(string(log), "\n") != n {
			t.Fatalf("%d lines in the results log (%v), want %d", strings.Count(string(log), "\n"), err, n)
		}
		s.group.running.Wait() // as Close does
		var unlogged int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE logged_at IS NULL`).Scan(&unlogged); err != nil || unlogged != 0 {
			t.Fatalf("%d results not noted as logged (%v)", unlogged, err)
		}
	})
}

// A write that fails undoes all it did, alone in its transaction (the
// usual case, without a savepoint) or in a batch with others.
func TestFailedWriteLeavesNothing(t *testing.T) {
	eachBackend(t, func(t *testing.T, database string) {
		ctx := context.Background()
		s, _ := openIn(t, database)
		refused := errors.New("refused halfway")
		write := func(key string, fail bool) error {
			err, _ := s.inGroupTx(ctx, 0, func(tx *dbTx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, 'x')`, "test:"+key); err != nil {
					return err
				}
				if fail {
					return refused
				}
				return nil
			})
			return err
		}
		if err := write("alone", true); !errors.Is(err, refused) {
			t.Fatalf("a failing write alone: %v", err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 40)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = write(fmt.Sprintf("k%d", i), i%2 == 1)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if (i%2 == 1) != errors.Is(err, refused) || i%2 == 0 && err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
		}
		var keys []string
		rows, err := s.db.QueryContext(ctx, `SELECT substr(key, 6) FROM settings WHERE key LIKE 'test:%' ORDER BY key`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k)
		}
		if len(keys) != 20 || slices.Contains(keys, "alone") {
			t.Fatalf("rows left: %v, want the 20 even writes' alone", keys)
		}
		for _, k := range keys {
			if n, _ := strconv.Atoi(k[1:]); n%2 == 1 {
				t.Fatalf("failed write %s left its row", k)
			}
		}
	})
}

// A write that panics fails alone and leaves nothing, and the writes after
// it are written: the panic is not the process's end, nor the write
// connection's (SQLite's one), nor a pooled connection's (PostgreSQL).
func TestPanickingWriteFailsAlone(t *testing.T) {
	eachBackend(t, testPanickingWriteFailsAlone)
}

func testPanickingWriteFailsAlone(t *testing.T, database string) {
	ctx := context.Background()
	s, _ := openIn(t, database)
	write := func(key string, panics bool) error {
		return s.inTx(ctx, func(tx *dbTx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, 'x')`, "test:"+key); err != nil {
				return err
			}
			if panics {
				var m map[string]int
				m["boom"]++ // a nil map: a real runtime panic
			}
			return nil
		})
	}
	if err := write("alone", true); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("a panicking write alone: %v", err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write(fmt.Sprintf("k%02d", i), i%4 == 3)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if (i%4 == 3) != (err != nil) {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if err := write("after", false); err != nil {
		t.Fatalf("a write after the panics: %v", err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM settings WHERE key LIKE 'test:%'`).Scan(&n); err != nil || n != 16 {
		t.Fatalf("%d rows (%v), want the 15 good writes of the batch and the one after", n, err)
	}
}
