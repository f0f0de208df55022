package bot_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

// finishClock is the real store, noting when each game's end is asked
// for and when it is committed.
type finishClock struct {
	*storage.Store
	mu       sync.Mutex
	finished map[int64]time.Time
	entered  map[int64]time.Time
}

func (f *finishClock) FinishGame(ctx context.Context, g *record.Game, r record.Result, rate *record.RatingUpdate) error {
	f.mu.Lock()
	if f.entered == nil {
		f.entered = map[int64]time.Time{}
	}
	f.entered[g.ID] = time.Now()
	f.mu.Unlock()
	err := f.Store.FinishGame(ctx, g, r, rate)
	if err == nil {
		f.mu.Lock()
		f.finished[g.ID] = time.Now()
		f.mu.Unlock()
	}
	return err
}

// BenchmarkFlagLatency: live games on one process, in a real SQLite
// file, whose flags fall at one instant (200 or 1,000, as a tournament
// round's games that started together) or within two seconds of each
// other; each iteration arms their timers as a tick does (the games were
// stored, as by another process or before a restart) and waits for every
// game to end. It reports how long after its flag each game's end was
// committed: the 50th and 99th percentile and the worst, in milliseconds,
// and the 99th percentile of when the store was asked to end it.
func BenchmarkFlagLatency(b *testing.B) {
	for _, c := range []struct {
		name   string
		games  int
		spread time.Duration
	}{{"200-at-once", 200, 0}, {"1000-at-once", 1000, 0}, {"200-over-2s", 200, 10 * time.Millisecond}} {
		b.Run(c.name, func(b *testing.B) { flagLatency(b, c.games, c.spread) })
	}
}

func flagLatency(b *testing.B, games int, spread time.Duration) {
	ctx := context.Background()
	store, cfg := benchStore(b)
	cfg.ExactTimers = true
	fc := &finishClock{Store: store, finished: map[int64]time.Time{}}
	svc := bot.New(bot.StoresOf(fc), engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, nopNotifier{}, cfg, quiet)
	defer svc.Shutdown()
	control, _ := timecontrol.Parse("1+0")
	var lat, reached []time.Duration
	for n := 0; b.Loop(); n++ {
		deadlines := map[int64]time.Time{}
		first := time.Now().Add(time.Second + time.Duration(games)*time.Millisecond) // after they are all stored
		for i := range games {
			start, _ := game.NewPosition(8)
			due := first.Add(time.Duration(i) * spread)
			g := &record.Game{GuildID: "g", ChannelID: fmt.Sprintf("c%d-%d", n, i), State: game.NewGame(start),
				Black:     record.Human(record.Player{ID: fmt.Sprintf("a%d", i), Name: "a"}),
				White:     record.Human(record.Player{ID: fmt.Sprintf("b%d", i), Name: "b"}),
				CreatedAt: due, UpdatedAt: due, TurnStartedAt: due.Add(-control.AbortWindow()), Control: control,
				Left: [2]time.Duration{control.Base, control.Base}, Deadline: due, RemindAt: due}
			if err := store.CreateGame(ctx, g); err != nil {
				b.Fatal(err)
			}
			deadlines[g.ID] = due
		}
		svc.Tick(ctx) // arms the timers due before the next tick
		end := time.Now().Add(30 * time.Second)
		for {
			fc.mu.Lock()
			done := 0
			for id := range deadlines {
				if _, ok := fc.finished[id]; ok {
					done++
				}
			}
			fc.mu.Unlock()
			if done == games {
				break
			}
			if time.Now().After(end) {
				b.Fatalf("%d of %d games ended", done, games)
			}
			time.Sleep(50 * time.Millisecond)
		}
		fc.mu.Lock()
		for id, due := range deadlines {
			lat = append(lat, fc.finished[id].Sub(due))
			reached = append(reached, fc.entered[id].Sub(due))
		}
		fc.mu.Unlock()
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	// How much of it came before the store was asked (loading the game).
	slices.Sort(reached)
	b.ReportMetric(ms(reached[len(reached)*99/100]), "asked-p99-ms")
}
