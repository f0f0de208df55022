package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// A busy channel under Discord's rate limits: 30 members each send
// /challenge in one channel at once and each opponent accepts as soon as
// the challenge shows. Every game opens in its thread, and the bot never
// makes a request over a limit (no 429, the per-route buckets and the
// global 50 a second alike). How long each took is BenchmarkChallengeBurst's.
func TestDiscordChallengeBurst(t *testing.T) {
	srv, r, latency := challengeBurst(t)
	if limited := srv.RateLimited(); len(limited) > 0 {
		t.Errorf("%d requests over a rate limit:\n%s", len(limited), strings.Join(limited, "\n"))
	}
	if len(latency) != burstSize {
		t.Errorf("%d of %d games opened", len(latency), burstSize)
	}
	checkClean(t, srv, r)
}

// BenchmarkChallengeBurst reports, for the burst above, Accept → board in
// its thread: p50 and p99 in milliseconds, and floor-ms, the wait that
// Discord's thread limit alone imposes on the last games (the fake:
// discordtest.ThreadStarts a channel at a time).
//
//	go test ./cmd/othello-bot -run '^$' -bench ChallengeBurst -benchtime 3x
func BenchmarkChallengeBurst(b *testing.B) {
	var all []time.Duration
	for b.Loop() {
		_, r, latency := challengeBurst(b)
		r.stop()
		all = append(all, latency...)
	}
	slices.Sort(all)
	lim := discordtest.ThreadStarts
	floor := time.Duration((burstSize+lim.Limit-1)/lim.Limit-1) * lim.Per
	b.ReportMetric(float64(all[len(all)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(all[(len(all)*99+99)/100-1].Milliseconds()), "p99-ms")
	b.ReportMetric(float64(floor.Milliseconds()), "floor-ms")
}

const burstSize = 30

// challengeBurst runs the burst and returns each game's Accept → board.
func challengeBurst(t testing.TB) (*discordtest.Server, *botRun, []time.Duration) {
	const n = burstSize
	srv := newFake(t)
	srv.AddChannel(lobby, discordtest.AllText|discordtest.CreatePublicThreads)
	r := startBot(t, srv, testBotConfig(srv, t.TempDir()))
	user := func(i int) discordtest.User {
		return discordtest.User{ID: fmt.Sprintf("71%017d", i), Name: fmt.Sprintf("player%02d", i)}
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		latency  []time.Duration
		failures []string
	)
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			challenger, opponent := user(2*i), user(2*i+1)
			fail := func(format string, args ...any) {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("%s: ", challenger.Name)+fmt.Sprintf(format, args...))
				mu.Unlock()
			}
			ia := srv.Command(challenger, lobby, "challenge", map[string]any{"opponent": opponent, "size": 8, "rated": false})
			// The opponent accepts the moment the challenge shows.
			var challenge *discordtest.Message
			for deadline := time.Now().Add(60 * time.Second); challenge == nil; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					fail("the challenge never showed")
					return
				}
				for _, m := range srv.Messages(lobby, opponent.ID) {
					if _, ok := m.Button("Accept"); ok && strings.Contains(m.Content, "<@"+opponent.ID+">") {
						challenge = m
					}
				}
			}
			if err := srv.Wait(ia, 30*time.Second); err != nil {
				fail("%v", err)
				return
			}
			accept, _ := challenge.Button("Accept")
			clicked := time.Now()
			acc := srv.Click(opponent, challenge, accept)
			name := " · " + challenger.Name + " vs " + opponent.Name
			name2 := " · " + opponent.Name + " vs " + challenger.Name
			for deadline := clicked.Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					fail("no board within a minute of the Accept")
					return
				}
				i := slices.IndexFunc(srv.Threads(), func(th discordtest.Thread) bool {
					return strings.HasSuffix(th.Name, name) || strings.HasSuffix(th.Name, name2)
				})
				if i >= 0 && liveGame(srv, srv.Threads()[i].ID) != nil {
					break
				}
			}
			took := time.Since(clicked)
			if err := srv.Wait(acc, 30*time.Second); err != nil {
				fail("%v", err)
			}
			mu.Lock()
			latency = append(latency, took)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d of %d games failed:\n%s\nlog:\n%s", len(failures), n, strings.Join(failures, "\n"), r.logs)
	}
	t.Logf("%d challenges accepted in one channel in %v; peak %d requests in one second",
		n, time.Since(start).Round(time.Millisecond), srv.PeakPerSecond())
	return srv, r, latency
}
