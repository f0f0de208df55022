package connlimit

import (
	"net"
	"testing"
	"time"
)

// Over the per-address cap a connection is closed at once; another
// address still gets in; a connection closed gives its place back.
func TestCaps(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Wrap(raw, 2, 3)
	defer l.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	take := func() net.Conn {
		select {
		case c := <-accepted:
			return c
		case <-time.After(2 * time.Second):
			return nil
		}
	}
	a1, a2 := dial("127.0.0.1"), dial("127.0.0.1")
	s1, s2 := take(), take()
	if s1 == nil || s2 == nil {
		t.Fatal("two connections from one address: not both let in")
	}
	dial("127.0.0.1") // the third from that address
	b := dial("127.0.0.2")
	if s := take(); s == nil || s.RemoteAddr().(*net.TCPAddr).IP.String() != "127.0.0.2" {
		t.Fatalf("another address was not let in: %v", s)
	}
	if l.Refused() != 1 {
		t.Fatalf("%d refused, want the third from 127.0.0.1", l.Refused())
	}
	s1.Close()
	dial("127.0.0.1")
	if s := take(); s == nil {
		t.Fatal("a closed connection's place was not given back")
	}
	_, _, _ = a1, a2, b
}
