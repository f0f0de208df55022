// Package datafile reads the small data files the packages embed (named
// openings, XOT openings, built-in puzzles): lines of fields separated by
// spaces, '#' starting a comment, blank lines skipped.
package datafile

import "strings"

// Line is one line with fields, and its number in the file (1-based).
type Line struct {
	N      int
	Fields []string
}

// Lines returns the lines of text that have fields.
func Lines(text string) []Line {
	var out []Line
	for n, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, Line{N: n + 1, Fields: f})
		}
	}
	return out
}
