package discord

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The identify discordgo writes reaches the gateway with its connection
// properties named as Discord documents them (os, browser, device), the
// frame still whole; other frames pass as they were written.
func TestIdentifyPropertiesRenamed(t *testing.T) {
	got := make(chan string, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		for range 3 {
			_, data, err := c.ReadMessage()
			if err != nil {
				t.Error(err)
				return
			}
			got <- string(data)
		}
	}))
	defer srv.Close()
	c, _, err := NewGateway(nil).Dialer().Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	heartbeat := map[string]any{"op": 1, "d": 42}
	id := discordgo.Identify{Token: "Bot token", Intents: discordgo.IntentsGuilds,
		Properties: discordgo.IdentifyProperties{OS: "linux", Browser: "othello-bot", Device: "othello-bot"}}
	for _, m := range []any{heartbeat, map[string]any{"op": 2, "d": id}, map[string]any{"op": 1, "d": "$os"}} {
		if err := c.WriteJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	if hb := <-got; hb != `{"d":42,"op":1}`+"\n" {
		t.Errorf("heartbeat: %q", hb)
	}
	identify := <-got
	for _, want := range []string{`"os":"linux"`, `"browser":"othello-bot"`, `"device":"othello-bot"`, `"token":"Bot token"`} {
		if !strings.Contains(identify, want) {
			t.Errorf("identify lacks %s: %s", want, identify)
		}
	}
	if strings.Contains(identify, `"$`) {
		t.Errorf("identify kept a $ name: %s", identify)
	}
	if other := <-got; !strings.Contains(other, `"$os"`) {
		t.Errorf("a later frame was changed: %s", other)
	}
}

// Through an HTTP proxy the gateway's wss:// is a CONNECT tunnel with TLS
// to the gateway inside it (the dialer used to TLS-dial the proxy), and
// the identify is still renamed inside the TLS.
func TestGatewayThroughAProxy(t *testing.T) {
	got := make(chan string, 1)
	gateway := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_, data, _ := c.ReadMessage()
		got <- string(data)
	}))
	defer gateway.Close()
	tunnels := make(chan string, 4)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		tunnels <- r.Host
		up, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
		down, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		// The server may have read the start of the TLS hello already:
		// it is in buf, and goes first.
		go func() { io.Copy(up, buf); up.Close() }()
		io.Copy(down, up)
		down.Close()
	}))
	defer proxy.Close()
	via, _ := url.Parse(proxy.URL)
	d := NewGateway(http.ProxyURL(via)).Dialer()
	d.TLSClientConfig = &tls.Config{RootCAs: x509.NewCertPool()}
	d.TLSClientConfig.RootCAs.AddCert(gateway.Certificate())
	c, _, err := d.Dial("wss"+strings.TrimPrefix(gateway.URL, "https"), nil)
	if err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	defer c.Close()
	id := discordgo.Identify{Token: "Bot token", Properties: discordgo.IdentifyProperties{OS: "linux"}}
	if err := c.WriteJSON(map[string]any{"op": 2, "d": id}); err != nil {
		t.Fatal(err)
	}
	if identify := <-got; !strings.Contains(identify, `"os":"linux"`) {
		t.Errorf("identify through the tunnel: %s", identify)
	}
	if len(tunnels) != 1 || <-tunnels != strings.TrimPrefix(gateway.URL, "https://") {
		t.Errorf("not one tunnel to the gateway")
	}
}
