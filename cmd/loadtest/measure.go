package main

import (
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

// rss is a process's resident memory in bytes (/proc).
func rss(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS")
}

// storeTx reads a process's store transaction times from its /metrics:
// how many, the mean, and the bucket that holds the 99th percentile.
func storeTx(addr string) (string, error) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return "", fmt.Errorf("reading /metrics: %w", err)
	}
	f := families["othello_store_transaction_seconds"]
	if f == nil || len(f.GetMetric()) == 0 || f.GetMetric()[0].GetHistogram().GetSampleCount() == 0 {
		return "none", nil
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
	return fmt.Sprintf("%d, mean %s, p99 %s", count, mean.Round(10*time.Microsecond), p99), nil
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

// profileHeap fetches each process's heap profile as the run ends.
func profileHeap(o options, workers []*worker, progress io.Writer) {
	if o.profile == "" {
		return
	}
	for k, w := range workers {
		fetchProfile("http://"+w.pprof+"/debug/pprof/heap?gc=1", filepath.Join(o.profile, fmt.Sprintf("heap-%d.pprof", k)), progress)
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
