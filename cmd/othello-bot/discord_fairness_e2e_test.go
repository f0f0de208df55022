package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// BenchmarkStatsBesideAnalysis is another member's /stats through the fake
// Discord while an /analyze of a whole 8x8 game works (#44: slow work must
// never hold up other commands). It reports interaction → whole answer
// (p50, p99, max), how many were asked, and how long the analysis ran;
// idle-p50-ms is the same /stats with no analysis running.
//
//	go test ./cmd/othello-bot -run '^$' -bench StatsBesideAnalysis -benchtime 3x
func BenchmarkStatsBesideAnalysis(b *testing.B) {
	var lat, idle []time.Duration
	var ran time.Duration
	for b.Loop() {
		srv := newFake(b)
		r := startBot(b, srv, testBotConfig(srv, b.TempDir()))
		r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 8, "color": "black"}))
		playToTheEnd(b, r, lobby, map[string]discordtest.User{alice.ID: alice})
		stats := func() time.Duration {
			t0 := time.Now()
			if reply := srv.Reply(r.do(srv.Command(bob, lobby, "stats", nil))); reply == nil {
				b.Fatal("/stats gave no reply")
			}
			time.Sleep(20 * time.Millisecond)
			return time.Since(t0) - 20*time.Millisecond
		}
		for range 20 {
			idle = append(idle, stats())
		}
		r.do(srv.Command(alice, lobby, "analyze", map[string]any{"game": 1}))
		start := time.Now()
		for !analysed(srv) {
			if time.Since(start) > 2*time.Minute {
				b.Fatal("the analysis did not arrive")
			}
			lat = append(lat, stats())
		}
		ran += time.Since(start)
		r.stop()
	}
	slices.Sort(lat)
	slices.Sort(idle)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(idle[len(idle)/2]), "idle-p50-ms")
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[(len(lat)*99+99)/100-1]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(len(lat))/float64(b.N), "asked")
	b.ReportMetric(ran.Seconds()/float64(b.N), "analysis-s")
}

// analysed says whether the lobby shows game 1's finished analysis.
func analysed(srv *discordtest.Server) bool {
	for _, m := range srv.Messages(lobby, "") {
		if strings.Contains(m.Text(), "Analysis of game #1") {
			return true
		}
	}
	return false
}
