// Package connlimit bounds the connections a server holds: so many from
// one address, so many in all. A connection over either is closed as soon
// as it is accepted, before the server reads a byte of it, so a client
// that opens connections and sends nothing (or a byte now and then)
// cannot hold the server's sockets, goroutines or request slots away from
// everyone else.
package connlimit

import (
	"net"
	"sync"
)

// Listener is a net.Listener with caps on the connections it lets through.
type Listener struct {
	net.Listener
	perAddr, total int

	mu     sync.Mutex
	open   map[string]int
	all    int
	closed int // connections refused, for tests and logs
}

// Wrap caps ln at perAddr connections from one IP address and total in
// all (0: no cap of that kind).
func Wrap(ln net.Listener, perAddr, total int) *Listener {
	return &Listener{Listener: ln, perAddr: perAddr, total: total, open: map[string]int{}}
}

// Accept returns the next connection within the caps; those over a cap
// are closed unread.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := hostOf(c.RemoteAddr())
		l.mu.Lock()
		over := l.perAddr > 0 && l.open[host] >= l.perAddr || l.total > 0 && l.all >= l.total
		if over {
			l.closed++
		} else {
			l.open[host]++
			l.all++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			continue
		}
		return &conn{Conn: c, l: l, host: host}, nil
	}
}

// Refused is how many connections were closed for a cap.
func (l *Listener) Refused() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

func (l *Listener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all--
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

func hostOf(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// conn gives its place back when closed (once).
type conn struct {
	net.Conn
	l    *Listener
	host string
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}
