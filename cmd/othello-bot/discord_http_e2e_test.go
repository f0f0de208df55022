package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/internal/freeport"
)

// Interactions posted over HTTP, as Discord does for an Interactions
// Endpoint URL, go through the same service: a game is played through the
// endpoint. Requests with a bad or missing signature, an old timestamp, a
// body changed after signing, or a replayed interaction are refused with
// 401 before anything is parsed, and change nothing.
func TestDiscordInteractionsOverHTTP(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + addr + "/interactions"
	pub := srv.UseEndpoint(url)
	c := testBotConfig(srv, dir)
	c.InteractionsAddress, c.PublicKey = addr, hex.EncodeToString(pub)
	r := startBot(t, srv, c)
	waitListening(t, addr)

	// PING is answered with PONG.
	_, forger, _ := ed25519.GenerateKey(rand.Reader)
	post := func(body []byte, h http.Header) int {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	ping := []byte(`{"id":"1","application_id":"` + srv.AppID + `","type":1,"token":"x","version":1}`)

	// A game through the endpoint.
	ia := r.do(srv.Command(alice, lobby, "start", map[string]any{"level": 1, "size": 4, "color": "black"}))
	if reply := srv.Reply(ia); reply == nil || !strings.Contains(reply.Text(), "alice started a game") {
		t.Fatalf("start over HTTP: %+v; violations %q; log:\n%s", reply, srv.Violations(), r.logs)
	}
	playToTheEnd(t, r, lobby, map[string]discordtest.User{alice.ID: alice})
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("the fake Discord refused or flagged:\n%s", strings.Join(v, "\n"))
	}

	start := func(id string) []byte {
		b, _ := json.Marshal(map[string]any{"id": id, "application_id": srv.AppID, "type": 2, "token": "tok-" + id, "version": 1,
			"guild_id": srv.GuildID, "channel_id": hall, "member": map[string]any{"user": map[string]any{"id": bob.ID, "username": "bob"}, "permissions": "0"},
			"data": map[string]any{"id": "4000000000000000001", "name": "start", "type": 1}})
		return b
	}
	body := start("9100000000000000001")
	cases := []struct {
		name string
		body []byte
		h    http.Header
	}{
		{"forged signature", body, discordtest.Sign(forger, time.Now(), body)},
		{"no signature", body, http.Header{"Content-Type": {"application/json"}}},
		{"signed ten minutes ago", body, srv.SignAs(time.Now().Add(-10*time.Minute), body)},
		{"body changed after signing", append([]byte(nil), bytes.Replace(body, []byte(`"start"`), []byte(`"board"`), 1)...), srv.SignAs(time.Now(), body)},
	}
	for _, c := range cases {
		if code := post(c.body, c.h); code != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", c.name, code)
		}
	}
	if code := post(ping, srv.SignAs(time.Now(), ping)); code != http.StatusOK {
		t.Errorf("a signed PING: %d", code)
	}
	// A valid request is taken once; the same interaction again is a replay.
	ok := start("9100000000000000002")
	h := srv.SignAs(time.Now(), ok)
	if code := post(ok, h); code != http.StatusOK {
		t.Errorf("a signed command: %d", code)
	}
	if code := post(ok, h); code != http.StatusUnauthorized {
		t.Errorf("the same interaction again: %d, want 401", code)
	}
	time.Sleep(300 * time.Millisecond)
	// Only the one valid /start made a game in the hall.
	if n := strings.Count(r.logs.String(), `msg="game started"`); n != 2 {
		t.Errorf("%d games started, want 2 (the one played and the one valid request); log:\n%s", n, r.logs)
	}
	// After a restart the process remembers nothing in memory, but the
	// database does: the captured request is still a replay.
	r.stop()
	r = startBot(t, srv, c)
	waitListening(t, addr)
	if code := post(ok, h); code != http.StatusUnauthorized {
		t.Errorf("the same interaction after a restart: %d, want 401", code)
	}
	if fresh := start("9100000000000000003"); post(fresh, srv.SignAs(time.Now(), fresh)) != http.StatusOK {
		t.Error("a new interaction after the restart was refused")
	}
}

// waitListening waits until something accepts connections at addr.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the endpoint does not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The endpoint cannot be held shut: 1,000 connections from one address
// that send a request's header and then trickle its body (they used to
// take every request slot: 30 of 30 signed interactions got 503) cost that
// address its connections over the cap and hold no slot, and the
// interactions Discord signs and posts meanwhile are answered within its
// 3 seconds.
func TestDiscordEndpointUnderSlowBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 connections: not in -short")
	}
	srv := newFake(t)
	addr, err := freeport.Addr()
	if err != nil {
		t.Fatal(err)
	}
	pub := srv.UseEndpoint("http://" + addr + "/interactions")
	c := testBotConfig(srv, t.TempDir())
	c.InteractionsAddress, c.PublicKey = addr, hex.EncodeToString(pub)
	r := startBot(t, srv, c)
	waitListening(t, addr)

	// The attacker, from 127.0.0.2 (Discord posts from elsewhere).
	conns := trickle(t, addr, 1000, fmt.Sprintf("POST /interactions HTTP/1.1\r\nHost: x\r\nX-Signature-Ed25519: %s\r\n"+
		"X-Signature-Timestamp: %d\r\nContent-Length: 4096\r\n\r\n", strings.Repeat("ab", ed25519.SignatureSize), time.Now().Unix()))
	time.Sleep(500 * time.Millisecond) // the flood is in
	worst := time.Duration(0)
	for i := range 30 {
		ch := fmt.Sprintf("81%017d", i)
		srv.AddChannel(ch, discordtest.AllText)
		ia := r.do(srv.Command(alice, ch, "board", nil))
		worst = max(worst, srv.AckTime(ia))
		if srv.AckKind(ia) == 0 {
			t.Fatalf("interaction %d was not answered; log:\n%s", i, r.logs)
		}
	}
	t.Logf("30 signed interactions beside %d slow connections: slowest acknowledgement %v", len(conns), worst.Round(time.Millisecond))
	if worst > discordtest.AckLimit {
		t.Fatalf("an acknowledgement took %v", worst)
	}
}

// trickle opens n connections to addr from 127.0.0.2, as an attacker
// would: each sends head (a request's header) and then a byte of its body
// every 300 ms, until the test ends. It returns those the kernel let
// connect (a server over its cap closes them unread).
func trickle(t *testing.T, addr string, n int, head string) []net.Conn {
	t.Helper()
	stop := make(chan struct{})
	var conns []net.Conn
	t.Cleanup(func() {
		close(stop)
		for _, c := range conns {
			c.Close()
		}
	})
	dialer := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: time.Second}
	for range n {
		conn, err := dialer.Dial("tcp", addr)
		if err != nil {
			continue
		}
		conns = append(conns, conn)
		go func() {
			io.WriteString(conn, head)
			for {
				select {
				case <-stop:
					return
				case <-time.After(300 * time.Millisecond):
					if _, err := conn.Write([]byte("x")); err != nil {
						return
					}
				}
			}
		}()
	}
	return conns
}
