package schedule

import (
	"context"
	"time"
)

// LeaseStore is a database that keeps leases on its own clock:
// storage.Store is one.
type LeaseStore interface {
	// Now is the clock every process sharing the database agrees on.
	Now(ctx context.Context) (time.Time, error)
	// HoldLease takes or renews the lease called name for holder until
	// now+ttl: true while holder renews it in time, and for another
	// holder only once it has run out.
	HoldLease(ctx context.Context, name, holder string, ttl time.Duration, now time.Time) (bool, error)
}

// DatabaseLease is a Lease kept in a shared database, named Name, held by
// Holder (this process) for TTL at a time: a holder that stops renewing
// is replaced within TTL.
type DatabaseLease struct {
	Store  LeaseStore
	Name   string
	Holder string
	TTL    time.Duration
}

// Hold takes or renews the lease on the database's clock, so hosts whose
// clocks differ agree on when it runs out.
func (l DatabaseLease) Hold(ctx context.Context) (bool, error) {
	now, err := l.Store.Now(ctx)
	if err != nil {
		return false, err
	}
	return l.Store.HoldLease(ctx, l.Name, l.Holder, l.TTL, now)
}
