package discord

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// After READY a session's connections go to its resume_gateway_url (port
// 443 for wss when it names none), their opening request naming that
// server; before it, where discordgo asked.
func TestResumeGoesWhereReadySays(t *testing.T) {
	g := NewGateway(nil)
	if addr, host := g.target("gateway.discord.gg:443", "443"); addr != "gateway.discord.gg:443" || host != "" {
		t.Fatalf("before READY: %s %q", addr, host)
	}
	g.Event(nil, &discordgo.Event{Type: "RESUMED", RawData: []byte(`{"resume_gateway_url":"wss://elsewhere"}`)})
	g.Event(nil, &discordgo.Event{Type: "READY", RawData: []byte(`{"v":10,"resume_gateway_url":"wss://gateway-us-east1-b.discord.gg"}`)})
	addr, host := g.target("gateway.discord.gg:443", "443")
	if addr != "gateway-us-east1-b.discord.gg:443" || host != "gateway-us-east1-b.discord.gg" || g.ResumeURL() != "wss://gateway-us-east1-b.discord.gg" {
		t.Fatalf("after READY: %s %q %s", addr, host, g.ResumeURL())
	}
	req := "GET /?v=10&encoding=json HTTP/1.1\r\nHost: gateway.discord.gg\r\nUpgrade: websocket\r\n\r\n"
	out, ok := withHost([]byte(req), host)
	if want := "GET /?v=10&encoding=json HTTP/1.1\r\nHost: gateway-us-east1-b.discord.gg\r\nUpgrade: websocket\r\n\r\n"; !ok || string(out) != want {
		t.Fatalf("the opening request %q", out)
	}
	if _, ok := withHost([]byte{0x81, 0x85, 1, 2, 3, 4}, host); ok {
		t.Fatal("a websocket frame taken for the opening request")
	}
}
