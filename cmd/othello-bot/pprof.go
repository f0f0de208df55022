package main

// This file serves Go's profiler (net/http/pprof) when pprofAddress is
// set: on its own listener, never on the game pages' or the interactions'
// one, and on loopback unless the address names a host.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"othello-bot/config"
)

// startPprof serves the profiler at the configured address until stop;
// without one it does nothing. It returns the address it listens on.
func startPprof(c config.Config, logger *slog.Logger) (addr string, stop func(), err error) {
	if c.PprofAddress == "" {
		return "", func() {}, nil
	}
	ln, err := net.Listen("tcp", c.PprofListen())
	if err != nil {
		return "", nil, fmt.Errorf("profiler on %q: %w", c.PprofListen(), err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("profiler stopped", "err", err)
		}
	}()
	logger.Info("serving the profiler", "address", ln.Addr().String())
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close() // a CPU profile in progress
		}
		<-done
	}, nil
}
