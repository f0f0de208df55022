package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
)

// Interactions posted over HTTP, as Discord does for an Interactions
// Endpoint URL, go through the same service: a game is played through the
// endpoint. Requests with a bad or missing signature, an old timestamp, a
// body changed after signing, or a replayed interaction are refused with
// 401 before anything is parsed, and change nothing.
func TestDiscordInteractionsOverHTTP(t *testing.T) {
	srv := newFake(t)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
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
