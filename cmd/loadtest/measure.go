package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// This file reads what a run measures off the bot processes: CPU time and
// resident memory from /proc, store transaction times from /metrics.

// cpuTime is a process's user and system time so far (/proc).
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's closing parenthesis: utime and
	// stime are the 12th and 13th of them, in clock ticks (100 a second).
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}

// resident is a process's resident memory as /proc gives it: in all, and
// split into anonymous (Go's heap and stacks, C's malloc: SQLite's page
// cache) and file-backed (the binary, SQLite's file and WAL-index
// mappings). A soak that grows tells by the split which kind grows.
type resident struct{ all, anon, file int64 }

func (r resident) plus(q resident) resident {
	return resident{r.all + q.all, r.anon + q.anon, r.file + q.file}
}

func residentOf(pid int) (resident, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return resident{}, err
	}
	var r resident
	found := false
	for _, l := range strings.Split(string(data), "\n") {
		name, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			r.all, found = kb<<10, true
		case "RssAnon":
			r.anon = kb << 10
		case "RssFile":
			r.file = kb << 10
		}
	}
	if !found {
		return resident{}, errors.New("no VmRSS")
	}
	return r, nil
}

// rss is a process's resident memory in bytes.
func rss(pid int) (int64, error) {
	r, err := residentOf(pid)
	return r.all, err
}

// goMemory is what Go's runtime holds of a process's memory, from its
// /metrics: the heap's spans in use and all it has from the system (heap,
// stacks and its own structures). What the process holds beyond sys is
// C's (SQLite) and the mappings of files.
func goMemory(addr string) (heapInuse, sys float64, err error) {
	families, err := scrape(addr)
	if err != nil {
		return 0, 0, err
	}
	return gauge(families, "go_memstats_heap_inuse_bytes"), gauge(families, "go_memstats_sys_bytes"), nil
}

func gauge(families map[string]*dto.MetricFamily, name string) float64 {
	f := families[name]
	if f == nil || len(f.GetMetric()) == 0 {
		return 0
	}
	return f.GetMetric()[0].GetGauge().GetValue()
}

// storeTx reads a process's store transaction times from its /metrics:
// how many, the mean, and the bucket that holds the 99th percentile.
func storeTx(addr string) (string, error) {
	families, err := scrape(addr)
	if err != nil {
		return "", err
	}
	return histogram(families, "othello_store_transaction_seconds"), nil
}

// ownAcks reads a process's own acknowledgement times (from receiving an
// interaction to its first response going out) from its /metrics: the
// bot's share of what the fake measures, the players' and the fake's own
// delays on a shared machine left out.
func ownAcks(addr string) (string, error) {
	families, err := scrape(addr)
	if err != nil {
		return "", err
	}
	return histogram(families, "othello_interaction_ack_seconds"), nil
}

// histogram says how many, the mean, and the bucket that holds the 99th
// percentile of a histogram over the process's life.
func histogram(families map[string]*dto.MetricFamily, name string) string {
	f := families[name]
	if f == nil || len(f.GetMetric()) == 0 || f.GetMetric()[0].GetHistogram().GetSampleCount() == 0 {
		return "none"
	}
	h := f.GetMetric()[0].GetHistogram()
	count := h.GetSampleCount()
	p99 := "above the last bucket"
	for _, bk := range h.GetBucket() {
		if float64(bk.GetCumulativeCount()) >= 0.99*float64(count) {
			p99 = "≤ " + time.Duration(bk.GetUpperBound()*float64(time.Second)).String()
			break
		}
	}
	mean := time.Duration(h.GetSampleSum() / float64(count) * float64(time.Second))
	return fmt.Sprintf("%d, mean %s, p99 %s", count, mean.Round(10*time.Microsecond), p99)
}

func quantiles(d []time.Duration) []any {
	if len(d) == 0 {
		return []any{"-", "-", "-"}
	}
	slices.Sort(d)
	r := func(x time.Duration) time.Duration { return x.Round(100 * time.Microsecond) }
	return []any{r(d[len(d)/2]), r(d[(len(d)*99+99)/100-1]), r(d[len(d)-1])}
}

func dbKind(database string) string {
	if postgres(database) {
		return "PostgreSQL"
	}
	return "SQLite"
}

// profileCPU fetches each process's CPU profile over the steady run, when
// -profile names a directory for them.
func profileCPU(o options, workers []*worker, progress io.Writer) *sync.WaitGroup {
	var wg sync.WaitGroup
	if o.profile == "" {
		return &wg
	}
	secs := max(1, int(o.duration.Seconds()))
	for k, w := range workers {
		wg.Go(func() {
			fetchProfile(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", w.pprof, secs),
				filepath.Join(o.profile, fmt.Sprintf("cpu-%d.pprof", k)), progress)
		})
	}
	return &wg
}

// profileHeap fetches each process's heap profile, named heap-K.pprof
// or, with a prefix, PREFIX-heap-K.pprof: the first step's profile is the
// base the last one is compared with (go tool pprof -base) to find what a
// soak's memory grows by.
func profileHeap(o options, workers []*worker, prefix string, progress io.Writer) {
	if o.profile == "" {
		return
	}
	if prefix != "" {
		prefix += "-"
	}
	for k, w := range workers {
		fetchProfile("http://"+w.pprof+"/debug/pprof/heap?gc=1", filepath.Join(o.profile, fmt.Sprintf("%sheap-%d.pprof", prefix, k)), progress)
	}
}

func fetchProfile(url, path string, progress io.Writer) {
	err := func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", url, resp.Status)
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, resp.Body); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}()
	if err != nil {
		fmt.Fprintf(progress, "loadtest: profile not written: %v\n", err)
		return
	}
	fmt.Fprintf(progress, "loadtest: wrote %s\n", path)
}

// sample is what a run reads off the bot processes (summed) and the
// database at one moment; two of them make the per-move figures.
type sample struct {
	cpu     time.Duration // the processes' user and system time
	engine  float64       // seconds the engine's searches spent
	mallocs float64       // heap objects allocated
	alloced float64       // heap bytes allocated
	tables  float64       // bytes of the engine's tables (made once a searcher first searches)
	writes  float64       // store writes (the transactions the store counts)
	written int64         // bytes sent to disk: the processes' (SQLite), PostgreSQL's WAL
	xacts   int64         // PostgreSQL's transactions in the database (a statement on its own is one)
	machine time.Duration // every process's CPU (/proc/stat)
	self    time.Duration // this tool's own (the fake Discord and the players)
	errs    []string
}

func takeSample(ctx context.Context, workers []*worker, database string) sample {
	var s sample
	for _, w := range workers {
		pid := w.cmd.Process.Pid
		c, err := cpuTime(pid)
		s.note(err)
		s.cpu += c
		families, err := scrape(w.metrics)
		s.note(err)
		s.engine += counter(families, "othello_engine_cpu_seconds_total")
		s.mallocs += counter(families, "go_memstats_mallocs_total")
		s.alloced += counter(families, "go_memstats_alloc_bytes_total")
		if t := families["othello_engine_table_bytes"]; t != nil && len(t.GetMetric()) > 0 {
			s.tables += t.GetMetric()[0].GetGauge().GetValue()
		}
		if f := families["othello_store_transaction_seconds"]; f != nil && len(f.GetMetric()) > 0 {
			s.writes += float64(f.GetMetric()[0].GetHistogram().GetSampleCount())
		}
		if !postgres(database) {
			n, err := writeBytes(pid)
			s.note(err)
			s.written += n
		}
	}
	var err error
	s.machine, err = machineTime()
	s.note(err)
	s.self, err = cpuTime(os.Getpid())
	s.note(err)
	if postgres(database) {
		var err error
		s.written, s.xacts, err = walBytes(ctx, database)
		s.note(err)
	}
	return s
}

func (s *sample) note(err error) {
	if err != nil {
		s.errs = append(s.errs, err.Error())
	}
}

// perMove writes what a human move cost, from two samples.
func perMove(b io.Writer, o options, before, after sample, moves int64, played time.Duration) {
	for _, e := range append(before.errs, after.errs...) {
		fmt.Fprintf(b, "not measured: %s\n", e)
	}
	if moves <= 0 {
		return
	}
	n := float64(moves)
	cpu := after.cpu - before.cpu
	engine := time.Duration((after.engine - before.engine) * float64(time.Second))
	answered := "each answered by the bot at level 1"
	if o.opponent == "human" {
		answered = "between members, no reply"
	}
	fmt.Fprintf(b, "CPU per human move %s (bot processes, %s; engine searches %s of it); CPU use %.0f%% of one core\n",
		(cpu / time.Duration(moves)).Round(10*time.Microsecond), answered,
		(engine / time.Duration(moves)).Round(time.Microsecond), 100*cpu.Seconds()/played.Seconds())
	// The engine's share is thinking and the puzzle search of finished
	// games in the background (every 20 s): what a move costs is the rest.
	fmt.Fprintf(b, "CPU per human move without the engine's searches %s\n", ((cpu - engine) / time.Duration(moves)).Round(10*time.Microsecond))
	// What the rest of the machine spent: the database server, when it
	// runs here and nothing else does.
	rest := (after.machine - before.machine) - cpu - (after.self - before.self)
	fmt.Fprintf(b, "CPU per human move outside the bot and this tool %s (the database server, on an otherwise idle machine)\n",
		(max(0, rest) / time.Duration(moves)).Round(10*time.Microsecond))
	where := "the processes' writes to disk"
	if postgres(o.database) {
		where = "PostgreSQL's WAL"
	}
	// A searcher's tables (30 MiB) made in the run are one allocation a
	// run, not a move's: left out, as from the memory per game.
	fmt.Fprintf(b, "per human move: %.2f store writes, %.1f KiB written (%s), %.0f allocations (%.1f KiB, the engine's tables made in the run left out)\n",
		(after.writes-before.writes)/n, float64(after.written-before.written)/1024/n, where,
		(after.mallocs-before.mallocs)/n, max(0, (after.alloced-before.alloced)-(after.tables-before.tables))/1024/n)
	if postgres(o.database) {
		fmt.Fprintf(b, "per human move: %.2f PostgreSQL transactions (its count for the database; a statement on its own is one, so about the round trips)\n",
			float64(after.xacts-before.xacts)/n)
	}
	if engine > 0 {
		// Level 1 does not search: this is the puzzle search, whose tables'
		// making and collection, and use of the cache, weigh on the
		// moves' own figures too.
		fmt.Fprintf(b, "note: the engine searched during the run (the puzzle search of finished games); comparing builds, compare runs alike in this\n")
	}
}

// scrape reads a process's /metrics.
func scrape(addr string) (map[string]*dto.MetricFamily, error) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading /metrics: %w", err)
	}
	return families, nil
}

func counter(families map[string]*dto.MetricFamily, name string) float64 {
	f := families[name]
	if f == nil || len(f.GetMetric()) == 0 {
		return 0
	}
	m := f.GetMetric()[0]
	if c := m.GetCounter(); c != nil {
		return c.GetValue()
	}
	return m.GetUntyped().GetValue()
}

// writeBytes is what a process has caused to be written to disk so far
// (/proc's write_bytes: its files' pages, the database and its WAL).
func writeBytes(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "write_bytes:"); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, errors.New("no write_bytes in /proc io")
}

// walBytes is how much WAL the PostgreSQL server has written so far, and
// how many transactions its database has seen: with the store's reads on
// their own and its writes one statement each, about the round trips to
// the server (each backend reports its count within a second or so).
func walBytes(ctx context.Context, database string) (wal, xacts int64, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, database)
	if err != nil {
		return 0, 0, fmt.Errorf("reading the WAL written: %w", err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT (SELECT wal_bytes::bigint FROM pg_stat_wal),
		(SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database())`).Scan(&wal, &xacts); err != nil {
		return 0, 0, fmt.Errorf("reading the WAL written: %w", err)
	}
	return wal, xacts, nil
}

// liveHeap is a process's live heap: its collector run first (through
// the profiler's heap endpoint, which collects before it answers), then
// the heap's size read from /metrics; and of it, the engine's tables
// (made when a search first needs a searcher, then kept: not the games').
func liveHeap(w *worker) (heap, engine float64, err error) {
	resp, err := http.Get("http://" + w.pprof + "/debug/pprof/heap?gc=1")
	if err != nil {
		return 0, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	families, err := scrape(w.metrics)
	if err != nil {
		return 0, 0, err
	}
	if f := families["go_memstats_heap_alloc_bytes"]; f == nil || len(f.GetMetric()) == 0 {
		return 0, 0, errors.New("no go_memstats_heap_alloc_bytes")
	}
	return gauge(families, "go_memstats_heap_alloc_bytes"), gauge(families, "othello_engine_table_bytes"), nil
}

// machineTime is the CPU time every process on the machine has spent
// (/proc/stat's first line, all but idle and waiting for I/O).
func machineTime() (time.Duration, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, errors.New("unreadable /proc/stat")
	}
	var ticks int64
	for k, v := range f[1:8] { // user nice system idle iowait irq softirq
		if k == 3 || k == 4 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
