package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
