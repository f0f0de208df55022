//go:build race

package main

// The race detector slows searches tenfold; heavy tests shrink under it.
const raceEnabled = true
