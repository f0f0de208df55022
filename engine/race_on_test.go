//go:build race

package engine

// The race detector slows searches tenfold; heavy tests shrink under it.
const raceEnabled = true
