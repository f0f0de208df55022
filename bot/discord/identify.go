package discord

// This file is the gateway's identify as Discord documents it today: its
// connection properties named os, browser and device. discordgo v0.29
// still names them $os, $browser and $device, so the connection the
// gateway session dials renames them in the one frame that carries them.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync"

	"github.com/gorilla/websocket"
)

// GatewayDialer is the websocket dialer for the gateway sessions.
func GatewayDialer() *websocket.Dialer {
	d := *websocket.DefaultDialer
	var plain net.Dialer
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := plain.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &identifyConn{Conn: c}, nil
	}
	d.NetDialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		td := tls.Dialer{Config: &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}}
		c, err := td.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &identifyConn{Conn: c}, nil
	}
	return &d
}

// identifyConn renames the identify's properties in the frames written
// through it, until it has done so once.
type identifyConn struct {
	net.Conn
	mu   sync.Mutex
	done bool
}

var oldNames = []struct{ from, to []byte }{
	{[]byte(`"$os":`), []byte(`"os":`)},
	{[]byte(`"$browser":`), []byte(`"browser":`)},
	{[]byte(`"$device":`), []byte(`"device":`)},
	{[]byte(`"$referer":`), []byte(`"referer":`)},
	{[]byte(`"$referring_domain":`), []byte(`"referring_domain":`)},
}

func (c *identifyConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if done {
		return c.Conn.Write(b)
	}
	frame, ok := renameInFrame(b)
	if !ok {
		return c.Conn.Write(b)
	}
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
	if _, err := c.Conn.Write(frame); err != nil {
		return 0, err
	}
	return len(b), nil
}

// renameInFrame returns b, one whole masked text frame from a client,
// with the identify's old property names renamed; false if b is not such
// a frame or holds none of them.
func renameInFrame(b []byte) ([]byte, bool) {
	if len(b) < 6 || b[0] != 0x81 || b[1]&0x80 == 0 { // FIN, text; masked
		return nil, false
	}
	n, at := int(b[1]&0x7f), 2
	switch n {
	case 126:
		if len(b) < 8 {
			return nil, false
		}
		n, at = int(binary.BigEndian.Uint16(b[2:4])), 4
	case 127:
		return nil, false // an identify is never that long
	}
	if len(b) != at+4+n {
		return nil, false
	}
	key := b[at : at+4]
	payload := make([]byte, n)
	for i := range payload {
		payload[i] = b[at+4+i] ^ key[i%4]
	}
	if !bytes.Contains(payload, []byte(`"op":2`)) || !bytes.Contains(payload, oldNames[0].from) {
		return nil, false
	}
	for _, r := range oldNames {
		payload = bytes.ReplaceAll(payload, r.from, r.to)
	}
	out := []byte{0x81}
	switch {
	case len(payload) < 126:
		out = append(out, 0x80|byte(len(payload)))
	default:
		out = append(out, 0x80|126, byte(len(payload)>>8), byte(len(payload)))
	}
	out = append(out, key...)
	for i, c := range payload {
		out = append(out, c^key[i%4])
	}
	return out, true
}
