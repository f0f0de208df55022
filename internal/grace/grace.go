// Package grace gives work in flight a grace period after a shutdown
// signal: a move being played when SIGTERM comes is finished and stored,
// within a bounded time, rather than cut off.
package grace

import (
	"context"
	"time"
)

// Detach returns a context for work in flight that a shutdown signal on
// parent does not cancel at once: it ends grace after parent does (or when
// cancel is called), so a move being played when SIGTERM comes is
// finished and stored rather than cut off, within a bounded time.
func Detach(parent context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	go func() {
		select {
		case <-parent.Done():
		case <-ctx.Done():
			return
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
