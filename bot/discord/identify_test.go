package discord

import (
	"net/http"
	"net/http/httptest"
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
	c, _, err := GatewayDialer().Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
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
