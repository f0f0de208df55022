package main

// This file serves what operators look at beside the bot, each on a
// listener of its own (never the game pages' or the interactions'):
// Prometheus metrics when metricsAddress is set, Go's profiler
// (net/http/pprof) when pprofAddress is, on loopback unless the address
// names a host. The game pages are served by the same helper.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"othello-bot/config"
	"othello-bot/internal/connlimit"
	"othello-bot/metrics"
	"othello-bot/storage"
)

// startAside serves what is configured of both, metrics and the
// profiler, until stop; the metrics are nil without metricsAddress.
func startAside(c config.Config, store *storage.Store, logger *slog.Logger) (*metrics.Metrics, func(), error) {
	_, stopPprof, err := startPprof(c, logger)
	if err != nil {
		return nil, nil, err
	}
	m, _, stopMetrics, err := startMetrics(c, store, logger)
	if err != nil {
		stopPprof()
		return nil, nil, err
	}
	return m, func() { stopMetrics(); stopPprof() }, nil
}

// startPprof serves the profiler at the configured address until stop;
// without one it does nothing. It returns the address it listens on.
func startPprof(c config.Config, logger *slog.Logger) (addr string, stop func(), err error) {
	if c.PprofAddress == "" {
		return "", func() {}, nil
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return serveAside(c.PprofListen(), mux, "the profiler", logger)
}

// startMetrics makes the metrics of a process over store and serves them
// at /metrics on metricsAddress until stop (newApp adds the bot's).
// Without the address the metrics are nil and nothing is served.
func startMetrics(c config.Config, store *storage.Store, logger *slog.Logger) (m *metrics.Metrics, addr string, stop func(), err error) {
	if c.MetricsAddress == "" {
		return nil, "", func() {}, nil
	}
	m = metrics.New()
	m.Store(store, logger)
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	addr, stop, err = serveAside(c.MetricsAddress, mux, "metrics", logger)
	return m, addr, stop, err
}

// The pages' connection caps (connlimit): per address, enough for a
// household or a classroom behind one address watching and playing; in
// all, well within the open files a process has.
const (
	asidePerAddress  = 128
	asideConnections = 4096
)

// A request body (a move, a log-in) is small and sent at once.
const (
	asideBodyTime = 5 * time.Second
	asideMaxBody  = 64 << 10
)

// bodyDeadline gives a request with a body asideBodyTime to send it and
// at most asideMaxBody of it.
func bodyDeadline(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			rc.SetReadDeadline(time.Now().Add(asideBodyTime))
			r.Body = &bodyRead{ReadCloser: http.MaxBytesReader(w, r.Body, asideMaxBody), rc: rc}
		}
		h.ServeHTTP(w, r)
	})
}

// bodyRead lifts its request's read deadline once the body is all in: the
// server keeps reading the connection in the background while the handler
// runs, and a deadline hit there would cancel the request.
type bodyRead struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *bodyRead) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// serveAside serves h on addr until the returned stop, which gives
// requests in flight two seconds and then closes what is left (a live
// page's stream never ends by itself).
func serveAside(listen string, h http.Handler, what string, logger *slog.Logger) (addr string, stop func(), err error) {
	raw, err := net.Listen("tcp", listen)
	if err != nil {
		return "", nil, fmt.Errorf("%s on %q: %w", what, listen, err)
	}
	// No one address holds more than its share of the sockets, and a
	// request's header and body come in time or the connection goes (a
	// live page's stream, which only writes, has no read deadline).
	ln := connlimit.Wrap(raw, asidePerAddress, asideConnections)
	srv := &http.Server{Handler: bodyDeadline(h), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 2 * time.Minute}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error(what+" stopped", "err", err)
		}
	}()
	logger.Info("serving "+what, "address", ln.Addr().String())
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close() // a live page's stream, a CPU profile in progress
		}
		<-done
	}, nil
}
