//go:build race

package discord

// raceDetector: memory figures mean nothing under -race (its shadow
// memory grows with every goroutine and buffer).
const raceDetector = true
