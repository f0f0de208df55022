package pageplay_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/record"
	"othello-bot/web"
)

// BenchmarkClickToBoards: 50 games between people played at once on one
// process, on their pages (the real web server, the bot's game flow, a
// SQLite file): for each click — a move posted by the player's page — how
// long until both players' pages have the new board on their event
// streams. Each iteration plays 20 moves in every game; it reports the
// 50th and 99th percentile in milliseconds.
//
//	go test ./bot/pageplay -run '^$' -bench ClickToBoards -benchtime 3x
func BenchmarkClickToBoards(b *testing.B) {
	const games, moves = 50, 20
	f := newFixture(b)
	sessions, err := web.NewSessions(nil)
	if err != nil {
		b.Fatal(err)
	}
	pages := web.New(f.store, quiet)
	pages.MaxWatchersPerAddress = 4 * games
	pages.EnablePlay(sessions, f.app.PagePlay)
	srv := httptest.NewServer(pages)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()                          // first: the pages' event streams end, then the server
	go pages.Run(ctx, 250*time.Millisecond) // as othello-bot serves them
	var (
		mu  sync.Mutex
		lat []time.Duration
	)
	for n := 0; b.Loop(); n++ {
		var wg sync.WaitGroup
		for i := range games {
			g := f.game(b, fmt.Sprintf("c%d-%d", n, i), "5+3")
			wg.Go(func() {
				took, err := playOnPages(ctx, srv.URL, sessions, g, moves)
				if err != nil {
					b.Error(err)
				}
				mu.Lock()
				lat = append(lat, took...)
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no clicks measured")
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// page is one player's page: logged in, following the game.
type page struct {
	client *http.Client
	plies  chan int // the plies each event shows
}

func openPage(ctx context.Context, base string, sessions *web.Sessions, g *record.Game, p record.Player) (*page, error) {
	jar, _ := cookiejar.New(nil)
	pg := &page{client: &http.Client{Jar: jar}, plies: make(chan int, 64)}
	resp, err := pg.client.Get(base + sessions.LoginPath(g.PublicID, p))
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+web.PagePath(g.PublicID)+"/events", nil)
	events, err := pg.client.Do(req)
	if err != nil {
		return nil, err
	}
	if events.StatusCode != http.StatusOK {
		events.Body.Close()
		return nil, fmt.Errorf("game %d's events: %s", g.ID, events.Status)
	}
	go func() {
		defer events.Body.Close()
		sc := bufio.NewScanner(events.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var d web.Data
				if json.Unmarshal([]byte(data), &d) == nil {
					pg.plies <- len(d.Plies)
				}
			}
		}
	}()
	return pg, nil
}

// seen waits until the page shows at least n plies.
func (pg *page) seen(n int, within time.Duration) error {
	deadline := time.After(within)
	for {
		select {
		case got := <-pg.plies:
			if got >= n {
				return nil
			}
		case <-deadline:
			return fmt.Errorf("no board with %d plies within %v", n, within)
		}
	}
}

// playOnPages plays a game's first moves by its players' pages, each the
// first legal square, timing each click until both pages show it.
func playOnPages(ctx context.Context, base string, sessions *web.Sessions, g *record.Game, moves int) ([]time.Duration, error) {
	ctx, closePages := context.WithCancel(ctx)
	defer closePages()
	pages := map[string]*page{}
	for _, p := range []record.Player{ann, ben} {
		pg, err := openPage(ctx, base, sessions, g, p)
		if err != nil {
			return nil, err
		}
		pages[p.ID] = pg
	}
	for _, pg := range pages {
		if err := pg.seen(0, 5*time.Second); err != nil {
			return nil, err
		}
	}
	var took []time.Duration
	for ply := 0; ply < moves && !g.State.Over(); ply++ {
		mover := g.ToMove().Player
		square := g.Position().LegalMoves()[0]
		body := fmt.Sprintf(`{"kind": "move", "square": %q, "ply": %d}`, square, len(g.Plies()))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+web.PagePath(g.PublicID)+"/act", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		clicked := time.Now()
		resp, err := pages[mover.ID].client.Do(req)
		if err != nil {
			return took, err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return took, fmt.Errorf("game %d ply %d: %s", g.ID, ply, resp.Status)
		}
		if _, err := g.State.Play(square); err != nil {
			return took, err
		}
		for _, pg := range pages {
			if err := pg.seen(len(g.Plies()), 10*time.Second); err != nil {
				return took, fmt.Errorf("game %d: %w", g.ID, err)
			}
		}
		took = append(took, time.Since(clicked))
	}
	return took, nil
}
