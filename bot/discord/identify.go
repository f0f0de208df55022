package discord

// This file is the gateway's identify as Discord documents it today: its
// connection properties named os, browser and device. discordgo v0.29
// still names them $os, $browser and $device, so the connection the
// gateway session dials renames them in the one frame that carries them.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Dialer is the websocket dialer for g's session, through the proxy g's
// proxy names for each address (nil: none; http.ProxyFromEnvironment is
// what Go's own clients use), to the session's resume_gateway_url once its
// READY named one (resume.go). The dialer does the proxy's CONNECT and the
// TLS handshake itself: gorilla/websocket, given a TLS dial of its own,
// would TLS-dial the proxy instead of tunnelling through it.
func (g *Gateway) Dialer() *websocket.Dialer {
	d := *websocket.DefaultDialer
	d.Proxy = nil // the dials below go through it
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		addr, host := g.target(addr, "80")
		c, err := dialVia(ctx, g.proxy, "http", network, addr)
		if err != nil {
			return nil, err
		}
		return &identifyConn{Conn: c, host: host}, nil
	}
	d.NetDialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		addr, host := g.target(addr, "443")
		name, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		raw, err := dialVia(ctx, g.proxy, "https", network, addr)
		if err != nil {
			return nil, err
		}
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if d.TLSClientConfig != nil {
			cfg = d.TLSClientConfig.Clone()
		}
		if cfg.ServerName == "" || host != "" {
			cfg.ServerName = name
		}
		c := tls.Client(raw, cfg)
		if err := c.HandshakeContext(ctx); err != nil {
			raw.Close()
			return nil, fmt.Errorf("TLS with the gateway %s: %w", addr, err)
		}
		return &identifyConn{Conn: c, host: host}, nil
	}
	return &d
}

// dialVia connects to addr, through the proxy proxy names for it (an
// HTTP CONNECT tunnel) or directly.
func dialVia(ctx context.Context, proxy func(*http.Request) (*url.URL, error), scheme, network, addr string) (net.Conn, error) {
	var plain net.Dialer
	var via *url.URL
	if proxy != nil {
		var err error
		if via, err = proxy(&http.Request{URL: &url.URL{Scheme: scheme, Host: addr}}); err != nil {
			return nil, fmt.Errorf("choosing a proxy for %s: %w", addr, err)
		}
	}
	if via == nil {
		return plain.DialContext(ctx, network, addr)
	}
	port := via.Port()
	if port == "" {
		port = "80"
		if via.Scheme == "https" {
			port = "443"
		}
	}
	c, err := plain.DialContext(ctx, network, net.JoinHostPort(via.Hostname(), port))
	if err != nil {
		return nil, fmt.Errorf("connecting to the proxy %s: %w", via.Redacted(), err)
	}
	if via.Scheme == "https" {
		tc := tls.Client(c, &tls.Config{ServerName: via.Hostname(), MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("TLS with the proxy %s: %w", via.Redacted(), err)
		}
		c = tc
	}
	if deadline, ok := ctx.Deadline(); ok {
		c.SetDeadline(deadline)
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if u := via.User; u != nil {
		pass, _ := u.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+pass)))
	}
	br := bufio.NewReader(c)
	err = req.Write(c)
	var resp *http.Response
	if err == nil {
		resp, err = http.ReadResponse(br, req)
	}
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("it answered %s", resp.Status)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the proxy %s would not connect to %s: %w", via.Redacted(), addr, err)
	}
	c.SetDeadline(time.Time{})
	if br.Buffered() > 0 { // the server spoke first: keep what was read
		return &bufferedConn{Conn: c, r: br}, nil
	}
	return c, nil
}

// bufferedConn is a connection whose first bytes a reader already holds.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// identifyConn renames the identify's properties in the frames written
// through it, until it has done so once.
type identifyConn struct {
	net.Conn
	// host, when set, replaces the Host of the websocket's opening
	// request: a resume dialled to resume_gateway_url names that server.
	host string
	mu   sync.Mutex
	done bool
	sent bool // the opening request went
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
	done, first := c.done, !c.sent
	c.sent = true
	c.mu.Unlock()
	if first && c.host != "" {
		if out, ok := withHost(b, c.host); ok {
			if _, err := c.Conn.Write(out); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
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
