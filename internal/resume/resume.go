// Package resume is the progress file of the long jobs (training data, the
// opening book, puzzles, XOT openings): each finished piece of work is
// appended as it is done, so a killed run, started again, reads back what
// it did and goes on from there.
package resume

import (
	"fmt"
	"os"
	"path/filepath"
)

// Open makes dir if needed, reads what earlier runs wrote to the file
// name in it with read (which must accept a file that does not exist yet,
// and a last line cut short by a kill), and opens the file for appending.
func Open[T any](dir, name string, read func(path string) (T, error)) (T, *os.File, error) {
	var zero T
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return zero, nil, fmt.Errorf("making the progress directory: %w", err)
	}
	path := filepath.Join(dir, name)
	done, err := read(path)
	if err != nil {
		return zero, nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return zero, nil, fmt.Errorf("opening the progress file: %w", err)
	}
	return done, f, nil
}
