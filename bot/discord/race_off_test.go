//go:build !race

package discord

const raceDetector = false
