//go:build !unix

package web

// openFileLimit is a cautious guess where the limit cannot be read.
func openFileLimit() int { return 1024 }
