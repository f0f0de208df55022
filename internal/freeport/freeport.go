// Package freeport hands out loopback addresses for servers a process
// starts and cannot hand a listener to (a bot process, a database server).
//
// An address found by listening on port 0 and closing again is free only
// for a moment: it lies in the kernel's range for outgoing connections'
// own ports, of which the tests, the fake Discord and the bots open
// thousands, and the next server started may be handed the same one before
// the first listens (both seen: "bind: address already in use", and a
// bot's address answered by another bot). So ports come from below that
// range, each handed out once in this process.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

var (
	mu        sync.Mutex
	given     = map[int]bool{}
	low, high = 10000, outgoingStart()
)

// outgoingStart is where the kernel's range for outgoing connections'
// ports begins (/proc/sys/net/ipv4/ip_local_port_range; 32768 if
// unreadable).
func outgoingStart() int {
	if data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(data)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return n
			}
		}
	}
	return 32768
}

// Addr is "127.0.0.1:port" for a port not handed out before and free now.
func Addr() (string, error) {
	port, err := Port()
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}

// Port is a loopback port not handed out before and free now.
func Port() (int, error) {
	mu.Lock()
	defer mu.Unlock()
	if high-low < 1000 { // the whole range is for outgoing ports
		return anyPort()
	}
	for range 500 {
		port := low + rand.IntN(high-low)
		if given[port] {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // taken by something else
		}
		ln.Close()
		given[port] = true
		return port, nil
	}
	return 0, fmt.Errorf("no free port found in %d-%d", low, high-1)
}

// Range is where ports are handed out from, [from, to).
func Range() (from, to int) { return low, high }

func anyPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
