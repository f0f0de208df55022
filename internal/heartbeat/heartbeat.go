// Package heartbeat is how a running bot tells an orchestrator it is alive:
// the bot writes the time to a file after each round of its timers that
// reached the database, and a health check (Docker's HEALTHCHECK, a
// Kubernetes exec probe) reads it. A bot whose loop is stuck or whose
// database does not answer stops beating and is reported unhealthy.
package heartbeat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Beat records now in the file at path. The time is written to a new file
// renamed over the old one, so a reader never sees half of it.
func Beat(path string, now time.Time) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("heartbeat %s: %w", path, err)
	}
	_, werr := tmp.WriteString(now.UTC().Format(time.RFC3339Nano) + "\n")
	cerr := tmp.Close()
	if err := firstErr(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("heartbeat %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("heartbeat %s: %w", path, err)
	}
	return nil
}

// Check says why the heartbeat at path is not fresh at now (nil if it is):
// missing, unreadable, or older than maxAge.
func Check(path string, maxAge time.Duration, now time.Time) error {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return fmt.Errorf("no heartbeat at %s: the bot has not started its timers (still starting, or not running)", path)
	}
	if err != nil {
		return fmt.Errorf("reading the heartbeat: %w", err)
	}
	at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("heartbeat %s holds %q, not a time", path, strings.TrimSpace(string(b)))
	}
	if age := now.Sub(at); age > maxAge {
		return fmt.Errorf("last heartbeat %s ago (at %s), more than %s: the bot's loop or its database is stuck",
			age.Round(time.Second), at.Format(time.RFC3339), maxAge)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
