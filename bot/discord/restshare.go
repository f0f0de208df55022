package discord

// This file is Discord's global rate limit shared by every process of the
// bot: Discord counts its 50 requests a second per bot, not per process
// (developers/topics/rate-limits, "Global Rate Limit"), so each process
// takes 1/N of it, N the processes that renew a lease in the database they
// share.

import (
	"context"
	"log/slog"
	"time"
)

// ShareStore is where the processes sharing the bot's REST budget meet:
// the database's leases, on its one clock.
type ShareStore interface {
	HoldLease(ctx context.Context, name, holder string, ttl time.Duration, now time.Time) (bool, error)
	CountLeases(ctx context.Context, prefix string, now time.Time) (int, error)
	ReleaseLease(ctx context.Context, name, holder string) error
	Now(ctx context.Context) (time.Time, error)
	Instance() string
}

// The lease each process renews while it sends REST calls: shareEvery
// apart, lasting shareTTL, so a process that dies stops counting within
// shareTTL and the others take its part back.
const (
	sharePrefix = "discord.rest/"
	shareEvery  = 2 * time.Second
	shareTTL    = 3 * shareEvery
)

// ShareWith paces this process at 1/N of the bot's global limit, N the
// live processes sharing st, until ctx ends (then its lease is given up,
// so the others take its part at once). It returns after the first count,
// so the calls that follow already keep to it.
func (r *Transport) ShareWith(ctx context.Context, st ShareStore, log *slog.Logger) {
	name := sharePrefix + st.Instance()
	failing := false // said once while the database stays away
	count := func() {
		now, err := st.Now(ctx)
		if err == nil {
			_, err = st.HoldLease(ctx, name, st.Instance(), shareTTL, now)
		}
		n := 0
		if err == nil {
			n, err = st.CountLeases(ctx, sharePrefix, now)
		}
		if err != nil {
			if ctx.Err() == nil && !failing {
				log.Warn("sharing Discord's global rate limit: keeping the last share", "err", err)
			}
			failing = true
			return
		}
		failing = false
		if r.pace.processes(n) {
			log.Info("sharing Discord's global rate limit", "processes", n)
		}
	}
	count()
	go func() {
		t := time.NewTicker(shareEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				release, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				if err := st.ReleaseLease(release, name, st.Instance()); err != nil {
					log.Warn("giving up this process's share of Discord's rate limit", "err", err)
				}
				return
			case <-t.C:
				count()
			}
		}
	}()
}
