package local_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkStatsBesideAnalysis is another player's /stats typed while an
// /analyze of a whole 8x8 game works (#44: slow work must never hold up
// other commands). It reports the line's answer time (p50, p99, max), how
// many were asked, and how long the analysis ran.
//
//	go test ./bot/local -run '^$' -bench StatsBesideAnalysis -benchtime 3x
func BenchmarkStatsBesideAnalysis(b *testing.B) {
	var lat []time.Duration
	var ran time.Duration
	ctx := context.Background()
	for b.Loop() {
		e := open(b, b.TempDir())
		e.say("bob #b: /start level:1 color:black size:4") // bob has stats to show
		for g, err := e.store.ActiveGame(ctx, "b"); err == nil; g, err = e.store.ActiveGame(ctx, "b") {
			e.say("bob #b: select " + g.Position().LegalMoves()[0].String())
		}
		e.say("/start level:1 color:black size:8")
		e.playToEnd()
		e.say("/analyze game:2")
		done := make(chan struct{})
		start := time.Now()
		go func() { e.adapter.Service().WaitAnalyses(); close(done) }()
		for waiting := true; waiting; {
			select {
			case <-done:
				waiting = false
			case <-time.After(20 * time.Millisecond):
				t0 := time.Now()
				if out := e.say("bob: /stats"); !strings.Contains(out, "Stats · bob") {
					b.Fatalf("/stats: %s", out)
				}
				lat = append(lat, time.Since(t0))
			}
		}
		ran += time.Since(start)
	}
	reportLatency(b, lat)
	b.ReportMetric(ran.Seconds()/float64(b.N), "analysis-s")
}

// reportLatency reports the p50, p99 and max of lat in milliseconds, and
// how many there were.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		b.Fatal("nothing measured")
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[(len(lat)*99+99)/100-1]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(len(lat))/float64(b.N), "asked")
}
