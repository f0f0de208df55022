//go:build unix

package web

import "syscall"

// openFileLimit is the process's soft limit on open files.
func openFileLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur > 1<<30 {
		return 1024
	}
	return int(l.Cur)
}
