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
// the challenge shows. Discord lets only so many threads start off one
// channel at a time (the fake: discordtest.ThreadStarts), which alone
// holds the last games' threads back by whole windows; every game's
// board is in its thread within half a second of when its thread could
// open (p99), and the bot never makes a request over a limit (no 429,
// the per-route buckets and the global 50 a second alike).
func TestDiscordChallengeBurst(t *testing.T) {
	const n = 30
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
	slices.Sort(latency)
	p50, p99 := latency[len(latency)/2], latency[(len(latency)*99+99)/100-1]
	t.Logf("%d challenges accepted in one channel: Accept → board p50 %v, p99 %v, max %v; all done in %v; peak %d requests in one second",
		n, p50.Round(time.Millisecond), p99.Round(time.Millisecond), latency[len(latency)-1].Round(time.Millisecond),
		time.Since(start).Round(time.Millisecond), srv.PeakPerSecond())
	if limited := srv.RateLimited(); len(limited) > 0 {
		t.Errorf("%d requests over a rate limit:\n%s", len(limited), strings.Join(limited, "\n"))
	}
	lim := discordtest.ThreadStarts
	floor := time.Duration((n+lim.Limit-1)/lim.Limit-1) * lim.Per
	if p99 > floor+500*time.Millisecond {
		t.Errorf("Accept → board p99 %v, over %v (the threads' own wait) + 500 ms", p99, floor)
	}
	checkClean(t, srv, r)
}
