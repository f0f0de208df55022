package bot

import (
	"strings"
	"time"
)

// Meter hears what the service measures for operators (the metrics
// adapter implements it): each request handled, by entry point and
// outcome, and how late each flag fell.
type Meter interface {
	// Handled: entry is a command path ("move", "tournament create"), a
	// component's action ("rematch:") or "autocomplete"; outcome is ok,
	// failed, busy, panic or restarting.
	Handled(entry, outcome string, took time.Duration)
	// FlagFell: a live game ended on time, late after its deadline.
	FlagFell(late time.Duration)
}

type noMeter struct{}

func (noMeter) Handled(string, string, time.Duration) {}
func (noMeter) FlagFell(time.Duration)                {}

// SetMeter makes m hear the service's measures; set it before Start.
func (s *Service) SetMeter(m Meter) { s.meter = m }

// entry names a request's entry point for a Meter.
func (r Request) entry() string {
	switch r.Kind {
	case Command:
		return r.Path()
	case Autocomplete:
		return "autocomplete"
	}
	action, _, _ := strings.Cut(r.CustomID, ":")
	return action + ":"
}
