// Package metrics is the bot's Prometheus endpoint: it hears what the
// service and the Discord adapter measure (it is their Meter), reads the
// engine's and the store's state when scraped, and serves them all in
// Prometheus's text format. docs/metrics.md says what each means and what
// to alert on.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"othello-bot/storage"
)

// Metrics holds the bot's metrics in a registry of its own.
type Metrics struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	handling     prometheus.Histogram
	acks         prometheus.Histogram
	rest         *prometheus.CounterVec
	reconnects   prometheus.Counter
	flags        prometheus.Histogram
	storeTx      prometheus.Histogram
	storeErrors  prometheus.Counter
}

// New makes the metrics, with the Go runtime's and the process's.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	// Discord wants an acknowledgement within 3 s: the buckets resolve
	// well below it and around it.
	latency := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}
	m.interactions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "othello_interactions_total",
		Help: "Requests handled, by entry point (command path, component action, autocomplete) and outcome (ok, failed, busy, panic, restarting)."},
		[]string{"entry", "outcome"})
	m.handling = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "othello_interaction_handling_seconds",
		Help: "From a request reaching the service to its answer being ready.", Buckets: latency})
	m.acks = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "othello_interaction_ack_seconds",
		Help: "From an interaction reaching the bot to its first response going out (Discord allows 3 s).", Buckets: latency})
	m.rest = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "othello_discord_requests_total",
		Help: "REST attempts to Discord by route (ids masked) and status (0: no answer); each retry after a 429 is one more."},
		[]string{"route", "status"})
	m.reconnects = prometheus.NewCounter(prometheus.CounterOpts{Name: "othello_gateway_reconnects_total",
		Help: "Gateway connections that dropped and were made again."})
	m.flags = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "othello_flag_lateness_seconds",
		Help:    "From a live game's deadline to its loss on time being stored.",
		Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}})
	m.storeTx = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "othello_store_transaction_seconds",
		Help: "Store transactions, queueing for the writer included.", Buckets: latency})
	m.storeErrors = prometheus.NewCounter(prometheus.CounterOpts{Name: "othello_store_errors_total",
		Help: "Store transactions that failed (a game changed meanwhile is not a failure)."})
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.interactions, m.handling, m.acks, m.rest, m.reconnects, m.flags, m.storeTx, m.storeErrors)
	return m
}

// Handled counts a request and its time (bot.Meter).
func (m *Metrics) Handled(entry, outcome string, took time.Duration) {
	m.interactions.WithLabelValues(entry, outcome).Inc()
	m.handling.Observe(took.Seconds())
}

// FlagFell notes how late a flag fell (bot.Meter).
func (m *Metrics) FlagFell(late time.Duration) { m.flags.Observe(max(0, late.Seconds())) }

// Acknowledged notes an acknowledgement's time (discord.Meter).
func (m *Metrics) Acknowledged(took time.Duration) { m.acks.Observe(took.Seconds()) }

// Requested counts a REST attempt (discord.Meter).
func (m *Metrics) Requested(route string, status int) {
	m.rest.WithLabelValues(route, strconv.Itoa(status)).Inc()
}

// Reconnected counts a gateway reconnection (discord.Meter).
func (m *Metrics) Reconnected() { m.reconnects.Inc() }

// Transaction notes a store transaction (a storage.TxObserver).
func (m *Metrics) Transaction(took time.Duration, failed bool) {
	m.storeTx.Observe(took.Seconds())
	if failed {
		m.storeErrors.Inc()
	}
}

// EngineLoad is what the metrics read of the engine.
type EngineLoad interface {
	Load() (running, queued int)
	CPU() time.Duration
	TableBytes() int64
}

// Engine reports the engine's searches when scraped.
func (m *Metrics) Engine(e EngineLoad) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "othello_engine_searches_running", Help: "Engine searches running now."},
			func() float64 { r, _ := e.Load(); return float64(r) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "othello_engine_searches_queued", Help: "Engine searches waiting for a searcher."},
			func() float64 { _, q := e.Load(); return float64(q) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "othello_engine_cpu_seconds_total",
			Help: "CPU time the engine's searches spent (their threads' own clocks), apart from the rest of the process."},
			func() float64 { return e.CPU().Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "othello_engine_table_bytes",
			Help: "Memory of the engine's searchers' tables (made as searches first need them, then kept, whatever the number of games)."},
			func() float64 { return float64(e.TableBytes()) }))
}

// Store reports the store's pools and counts when scraped, and hears of
// its transactions.
func (m *Metrics) Store(s *storage.Store, log *slog.Logger) {
	s.ObserveTx(m.Transaction)
	for role, pool := range s.Pools() {
		m.reg.MustRegister(collectors.NewDBStatsCollector(pool, role))
	}
	m.reg.MustRegister(&counts{store: s, log: log})
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// counts reads the store's counts once a scrape.
type counts struct {
	store *storage.Store
	log   *slog.Logger
}

var (
	liveGamesDesc   = prometheus.NewDesc("othello_live_games", "Active games on a live clock, across every process.", nil, nil)
	tournamentsDesc = prometheus.NewDesc("othello_tournaments_running", "Tournaments running.", nil, nil)
	puzzlesDesc     = prometheus.NewDesc("othello_daily_puzzles_posted_total", "Daily puzzles posted, ever.", nil, nil)
)

func (c *counts) Describe(ch chan<- *prometheus.Desc) {
	ch <- liveGamesDesc
	ch <- tournamentsDesc
	ch <- puzzlesDesc
}

func (c *counts) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := c.store.Count(ctx)
	if err != nil {
		c.log.Warn("metrics: reading the store's counts", "err", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(liveGamesDesc, prometheus.GaugeValue, float64(n.LiveGames))
	ch <- prometheus.MustNewConstMetric(tournamentsDesc, prometheus.GaugeValue, float64(n.RunningTournaments))
	ch <- prometheus.MustNewConstMetric(puzzlesDesc, prometheus.CounterValue, float64(n.DailyPuzzles))
}
