package discordtest

// This file is the fake gateway: identify, resume, heartbeats, shards, and
// the events it dispatches.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// serveResumeGateway is the gateway at resume_gateway_url: a server of its
// own, as Discord's are (gateway-us-east1-b.discord.gg, say), which checks
// that the opening request names it.
func (s *Server) serveResumeGateway(w http.ResponseWriter, r *http.Request) {
	if r.Host != strings.TrimPrefix(s.resumeHTTP.URL, "http://") {
		s.violation("gateway: a connection to resume_gateway_url names another server (Host %s)", r.Host)
	}
	s.gateway(w, r, true)
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) { s.gateway(w, r, false) }

// gateway serves one gateway connection; resumeServer says it reached the
// READY's resume_gateway_url. Discord documents that a resume goes there
// ("Resuming"); what it does with one sent to the first address it does
// not say: the fake (assumed) answers it INVALID_SESSION, so the events
// sent meanwhile are lost, as a bot resuming in the wrong place risks.
func (s *Server) gateway(w http.ResponseWriter, r *http.Request, resumeServer bool) {
	if v := r.URL.Query().Get("v"); v != APIVersion {
		s.violation("the gateway was opened with v=%s, which Discord deprecates: v%s is current", v, APIVersion)
	}
	s.mu.Lock()
	unreachable := time.Now().Before(s.unreachableUntil)
	s.mu.Unlock()
	if unreachable {
		// The network between the bot and Discord is gone (assumed: the
		// handshake fails, as with an unreachable host).
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
		return
	}
	c, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	s.send(c, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 41250}})
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			s.violation("gateway: a payload that is not JSON")
			continue
		}
		switch p.Op {
		case 1:
			s.send(c, map[string]any{"op": 11})
		case 2:
			var id struct {
				Token      string         `json:"token"`
				Shard      []int          `json:"shard"`
				Properties map[string]any `json:"properties"`
				Intents    int64          `json:"intents"`
			}
			json.Unmarshal(p.D, &id)
			s.mu.Lock()
			s.intents = id.Intents
			s.mu.Unlock()
			if id.Intents&PrivilegedIntents != 0 {
				// Privileged intents need the app's approval in the
				// Developer Portal (verified apps: Discord's review).
				closeWith(c, 4014, "Disallowed intent(s).")
				return
			}
			// Identify's connection properties are os, browser and device
			// (the $-prefixed names are from before API v10's docs).
			for _, k := range []string{"os", "browser", "device"} {
				if v, _ := id.Properties[k].(string); v == "" {
					s.violation("gateway: identify without the connection property %q (sent %v)", k, id.Properties)
				}
			}
			if id.Token != "Bot "+s.Token && id.Token != s.Token {
				closeWith(c, 4004, "Authentication failed.")
				return
			}
			shard, count := 0, 1
			if len(id.Shard) == 2 {
				shard, count = id.Shard[0], id.Shard[1]
			}
			s.mu.Lock()
			required, known := s.RequiredShards, s.shardCount
			s.mu.Unlock()
			switch {
			case count < 1 || shard < 0 || shard >= count || known != 0 && known != count:
				closeWith(c, 4010, "Invalid shard.")
				return
			case count < required:
				closeWith(c, 4011, "Sharding required.")
				return
			}
			s.mu.Lock()
			s.identifies++
			s.shardCount = count
			var guilds []any
			for _, g := range s.guilds() {
				if ShardOf(g, count) == shard {
					guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
				}
			}
			s.mu.Unlock()
			sh := s.attach(shard, c, true)
			s.dispatchTo(shard, "READY", map[string]any{"v": 10, "session_id": sh, "resume_gateway_url": "ws" + strings.TrimPrefix(s.resumeHTTP.URL, "http"),
				"user":        map[string]any{"id": s.AppID, "username": "othello", "discriminator": "0", "bot": true},
				"application": map[string]any{"id": s.AppID, "flags": 0},
				"shard":       []int{shard, count},
				"guilds":      guilds})
			s.connected <- struct{}{}
			defer s.detach(shard, c)
		case 6:
			var res struct {
				SessionID string `json:"session_id"`
				Seq       int64  `json:"seq"`
			}
			json.Unmarshal(p.D, &res)
			if !resumeServer {
				s.violation("gateway: a resume sent to the first gateway address, not to READY's resume_gateway_url")
				s.send(c, map[string]any{"op": 9, "d": false})
				continue
			}
			s.connMu.Lock()
			shard := -1
			for id, sh := range s.shards {
				if sh.sessionID == res.SessionID {
					shard = id
				}
			}
			s.connMu.Unlock()
			if shard < 0 {
				s.send(c, map[string]any{"op": 9, "d": false})
				continue
			}
			s.mu.Lock()
			s.resumes++
			s.mu.Unlock()
			s.attach(shard, c, false)
			s.connMu.Lock()
			sh := s.shards[shard]
			missed := [][]byte{}
			for i := res.Seq; i < int64(len(sh.events)); i++ {
				missed = append(missed, sh.events[i])
			}
			s.connMu.Unlock()
			s.dispatchTo(shard, "RESUMED", map[string]any{})
			for _, e := range missed {
				s.write(c, e)
			}
			s.connected <- struct{}{}
			defer s.detach(shard, c)
		}
	}
}

func closeWith(c *websocket.Conn, code int, text string) {
	c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	c.Close()
}

// guilds lists the servers the fake knows (s.mu held).
func (s *Server) guilds() []string {
	set := map[string]bool{s.GuildID: true}
	for _, g := range s.channelGuild {
		set[g] = true
	}
	out := make([]string, 0, len(set))
	for g := range set {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

func (s *Server) wsURL() string { return "ws" + strings.TrimPrefix(s.http.URL, "http") + "/gateway" }

// attach makes c the connection of a shard; a new session (IDENTIFY)
// starts its events afresh. It returns the session id.
func (s *Server) attach(shard int, c *websocket.Conn, fresh bool) string {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	sh := s.shards[shard]
	if sh == nil || fresh {
		sh = &shardSession{sessionID: fmt.Sprintf("fake-session-%d-%d", shard, time.Now().UnixNano())}
		if old := s.shards[shard]; old != nil && old.conn != nil && old.conn != c {
			old.conn.Close() // a new IDENTIFY of the shard replaces the old session
		}
		s.shards[shard] = sh
	}
	sh.conn = c
	return sh.sessionID
}

// detach forgets c when its reader ends, unless the shard moved on.
func (s *Server) detach(shard int, c *websocket.Conn) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if sh := s.shards[shard]; sh != nil && sh.conn == c {
		sh.conn = nil
	}
}

func (s *Server) send(c *websocket.Conn, v any) {
	data, _ := json.Marshal(v)
	s.write(c, data)
}

func (s *Server) write(c *websocket.Conn, data []byte) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	c.WriteMessage(websocket.TextMessage, data)
}

// dispatch sends an event of a guild (op 0) to the shard that guild is on,
// or keeps it for the resume when the shard is not connected.
func (s *Server) dispatch(guild, t string, d any) {
	s.mu.Lock()
	count := max(s.shardCount, 1)
	s.mu.Unlock()
	s.dispatchTo(ShardOf(guild, count), t, d)
}

func (s *Server) dispatchTo(shard int, t string, d any) {
	s.connMu.Lock()
	sh := s.shards[shard]
	if sh == nil {
		sh = &shardSession{sessionID: fmt.Sprintf("fake-session-%d-none", shard)}
		s.shards[shard] = sh
	}
	sh.seq++
	data, _ := json.Marshal(map[string]any{"op": 0, "t": t, "s": sh.seq, "d": d})
	sh.events = append(sh.events, data)
	c := sh.conn
	if c != nil {
		c.WriteMessage(websocket.TextMessage, data)
	}
	s.connMu.Unlock()
}

// Connected waits until the bot has identified or resumed (again).
func (s *Server) Connected(timeout time.Duration) bool {
	select {
	case <-s.connected:
		return true
	case <-time.After(timeout):
		return false
	}
}

// Reconnect asks the bot to reconnect (op 7), as Discord does before it
// moves a session; every shard is asked.
func (s *Server) Reconnect() {
	for _, c := range s.conns() {
		s.send(c, map[string]any{"op": 7, "d": nil})
	}
}

func (s *Server) conns() []*websocket.Conn {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	var out []*websocket.Conn
	for _, sh := range s.shards {
		if sh.conn != nil {
			out = append(out, sh.conn)
		}
	}
	return out
}

// DropConnection cuts every gateway connection without a word.
func (s *Server) DropConnection() {
	s.connMu.Lock()
	for _, sh := range s.shards {
		if sh.conn != nil {
			sh.conn.UnderlyingConn().Close()
			sh.conn = nil
		}
	}
	s.connMu.Unlock()
}

// Unreachable cuts every gateway connection and takes no new one for d:
// the bot's network to Discord gone for a while. Interactions sent
// meanwhile wait for the bot's resume, as Discord replays them.
func (s *Server) Unreachable(d time.Duration) {
	s.mu.Lock()
	s.unreachableUntil = time.Now().Add(d)
	s.mu.Unlock()
	s.DropConnection()
}

// Sessions returns how many times the bot identified and resumed.
func (s *Server) Sessions() (identifies, resumes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies, s.resumes
}

// --- interactions the tests send ---

// SetGuildLocale sets a server's Discord language ("guild_locale" in the
// interactions from it; "en-US" until set).
func (s *Server) SetGuildLocale(guild, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.guildLocales == nil {
		s.guildLocales = map[string]string{}
	}
	s.guildLocales[guild] = locale
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// PrivilegedIntents are the intents Discord gives only to apps it approved
// (GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT): the fake approves
// none, as Discord would not for a bot that has not asked.
const PrivilegedIntents int64 = 1<<1 | 1<<8 | 1<<15

// Intents are the gateway intents of the last identify.
func (s *Server) Intents() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.intents
}
