// Package discordtest is a local fake of Discord for end-to-end tests: the
// REST API and the gateway the bot talks to, answering as Discord
// documents. It checks every message against Discord's limits and answers
// an over-limit body with 400, refuses an interaction acknowledged after 3
// seconds (10062 Unknown interaction), refuses posting where the bot lacks
// permissions (50013), and works out who each created message pings under
// its allowed_mentions. Tests drive it as users would: slash commands,
// buttons, select menus and autocomplete arrive over the gateway as
// INTERACTION_CREATE; the gateway can ask for a reconnect (op 7) or drop
// the connection, and the bot must resume.
package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"

	"github.com/gorilla/websocket"
)

// Permission bits, as Discord numbers them.
const (
	ViewChannel  int64 = 1 << 10
	SendMessages int64 = 1 << 11
	EmbedLinks   int64 = 1 << 14
	AttachFiles  int64 = 1 << 15
	// AllText is what a bot with the usual invite has in a text channel.
	AllText = ViewChannel | SendMessages | EmbedLinks | AttachFiles | 1<<16 | SendMessagesInThreads
)

// AckLimit is how long Discord waits for an interaction's first response.
const AckLimit = 3 * time.Second

// TokenLife is how long an interaction token may be used.
const TokenLife = 15 * time.Minute

// User is a member of the fake server.
type User struct {
	ID, Name, Nick string
	Bot            bool
	// Locale is the user's Discord language, sent as the interaction's
	// locale ("en-US" when empty).
	Locale string
	// Permissions are the member's own permissions in the server (every
	// one when empty), and Roles their roles' ids.
	Permissions string
	Roles       []string
	// UserInstall says the user installed the app to their account: its
	// global commands for user installs are theirs everywhere.
	UserInstall bool
}

// Message is a message as the fake keeps it.
type Message struct {
	ID        string
	ChannelID string
	Content   string
	Embeds    []map[string]any
	// Components are the message's action rows, as sent.
	Components []map[string]any
	Files      []string
	// Ephemeral messages are seen only by VisibleTo.
	Ephemeral bool
	VisibleTo string
	Deleted   bool
	// Interaction is the token of the interaction this message answers.
	Interaction string
	Edits       int
}

// Ping is who a created message notified.
type Ping struct {
	MessageID string
	Users     []string
	Roles     []string
	Everyone  bool
}

// Interaction is one interaction the fake dispatched.
type Interaction struct {
	ID, Token   string
	Kind        int // 2 command, 3 component, 4 autocomplete
	User        User
	ChannelID   string
	sentAt      time.Time
	AckType     int
	AckAfter    time.Duration
	Original    string // id of the message the interaction's reply is
	resolved    bool
	lastCall    time.Time
	Choices     []map[string]any
	MessageID   string // the message a component was on
	deferredPub bool
	posting     chan struct{} // closed once an HTTP post's answer is taken
	owners      map[string]any
	followups   int
	// loading: deferred, and the response not yet edited or deleted.
	loading bool
}

// Stats are the largest sizes seen in accepted messages.
type Stats struct {
	MaxContent, MaxFooter, MaxEmbedTotal, MaxDescription int
	WorstAck                                             time.Duration
	Messages                                             int
}

// Server is the fake Discord.
type Server struct {
	AppID, GuildID, Token string

	http     *httptest.Server
	upgrader websocket.Upgrader

	mu           sync.Mutex
	guildLocales map[string]string // guild id -> its Discord language
	nextID       atomic.Int64
	backdate     time.Duration // see SetBackdate
	perms        map[string]int64
	guildPerms   int64
	events       []*Event
	threads      map[string]*Thread
	endpoint     string // interactions go here over HTTP when set
	signingKey   ed25519.PrivateKey
	messages     map[string]*Message
	order        []string
	interactions map[string]*Interaction // by token
	commands     map[string][]map[string]any
	violations   []string
	pings        []Ping
	stats        Stats
	noMentions   []string // messages sent without allowed_mentions
	reaches      map[string]reach
	channelCalls map[string]int

	// gateway: one session per shard. ShardCount is what IDENTIFY must
	// say (RequiredShards, from /gateway/bot); each guild's events go to
	// shard (guild_id >> 22) % count, as Discord routes them.
	connMu         sync.Mutex // serializes writes
	shards         map[int]*shardSession
	shardCount     int // as the bot identified; 0 before any IDENTIFY
	RequiredShards int
	channelGuild   map[string]string
	identifies     int
	resumes        int
	connected      chan struct{}
}

// shardSession is one shard's gateway session: its connection (nil while
// disconnected) and every event, kept for resuming.
type shardSession struct {
	conn      *websocket.Conn
	seq       int64
	events    [][]byte
	sessionID string
}

// New starts a fake Discord for the bot with the given token.
func New(token string) *Server {
	s := &Server{AppID: "1000000000000000001", GuildID: "2000000000000000001", Token: token,
		perms: map[string]int64{}, messages: map[string]*Message{},
		interactions: map[string]*Interaction{}, commands: map[string][]map[string]any{},
		shards: map[int]*shardSession{}, channelGuild: map[string]string{}, RequiredShards: 1,
		reaches: map[string]reach{}, channelCalls: map[string]int{},
		connected: make(chan struct{}, 64)}
	mux := http.NewServeMux()
	mux.HandleFunc("/gateway", s.serveGateway)
	mux.HandleFunc("/gateway/", s.serveGateway)
	mux.HandleFunc("/api/", s.serveREST)
	s.http = httptest.NewUnstartedServer(mux)
	s.http.Start()
	return s
}

// URL is the base to give the bot as its Discord API (discordAPI).
func (s *Server) URL() string { return s.http.URL + "/" }

// Close stops the server.
func (s *Server) Close() {
	s.connMu.Lock()
	for _, sh := range s.shards {
		if sh.conn != nil {
			sh.conn.Close()
		}
	}
	s.connMu.Unlock()
	s.http.Close()
}

// AddGuildChannel makes a text channel of another server (guild).
func (s *Server) AddGuildChannel(guild, id string, perms int64) {
	s.mu.Lock()
	s.perms[id] = perms
	s.channelGuild[id] = guild
	s.mu.Unlock()
}

// guildOf is the server a channel is in.
func (s *Server) guildOf(channel string) string {
	if g, ok := s.channelGuild[channel]; ok {
		return g
	}
	if t, ok := s.threads[channel]; ok {
		return s.guildOf(t.Parent)
	}
	return s.GuildID
}

// ShardOf is the shard a guild's events go to, with count shards.
func ShardOf(guild string, count int) int {
	id, _ := strconv.ParseUint(guild, 10, 64)
	if count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// Shards returns the shard ids connected now.
func (s *Server) Shards() []int {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	var out []int
	for id, sh := range s.shards {
		if sh.conn != nil {
			out = append(out, id)
		}
	}
	sort.Ints(out)
	return out
}

// AddChannel makes a text channel where the bot has perms.
func (s *Server) AddChannel(id string, perms int64) {
	s.mu.Lock()
	s.perms[id] = perms
	s.mu.Unlock()
}

// id makes a snowflake as Discord does: the milliseconds since Discord's
// epoch (2015) in the top 42 bits, so an id tells when it was made, and a
// 12-bit counter in the low bits.
func (s *Server) id() string { return s.idAt(time.Now()) }

// idAt is a snowflake made at t.
func (s *Server) idAt(t time.Time) string {
	const discordEpoch = 1420070400000
	return strconv.FormatInt((t.UnixMilli()-discordEpoch)<<22|s.nextID.Add(1)&0xfff, 10)
}

// idTime is the moment a snowflake was made.
func idTime(id string) time.Time {
	const discordEpoch = 1420070400000
	n, _ := strconv.ParseInt(id, 10, 64)
	return time.UnixMilli(n>>22 + discordEpoch)
}

// SetBackdate makes the interactions sent from now on carry an id (the
// time Discord received them) d older than their delivery to the bot.
func (s *Server) SetBackdate(d time.Duration) {
	s.mu.Lock()
	s.backdate = d
	s.mu.Unlock()
}

// --- gateway ---

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
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
				Token string `json:"token"`
				Shard []int  `json:"shard"`
			}
			json.Unmarshal(p.D, &id)
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
			s.dispatchTo(shard, "READY", map[string]any{"v": 9, "session_id": sh, "resume_gateway_url": s.wsURL(),
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

func (s *Server) member(u User) map[string]any {
	return map[string]any{"user": map[string]any{"id": u.ID, "username": u.Name, "global_name": u.Name, "bot": u.Bot},
		"nick": nilIfEmpty(u.Nick), "permissions": cmpOr(u.Permissions, "2199023255551"), "roles": roleList(u.Roles)}
}

func roleList(ids []string) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, id)
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Server) newInteraction(kind int, u User, channel string, data map[string]any, message *Message) *Interaction {
	s.mu.Lock()
	// Discord stamps the interaction when it receives it; backdate makes
	// that moment earlier than the delivery, as a slow path to the bot does.
	ia := &Interaction{ID: s.idAt(time.Now().Add(-s.backdate)), Kind: kind, User: u, ChannelID: channel}
	ia.Token = "tok-" + ia.ID
	perms := s.perms[channel] | s.guildPerms
	s.interactions[ia.Token] = ia
	guild := s.guildOf(channel)
	payload := map[string]any{"id": ia.ID, "application_id": s.AppID, "type": kind, "data": data, "guild_id": guild,
		"channel_id": channel, "member": s.member(u), "token": ia.Token, "version": 1,
		"app_permissions": strconv.FormatInt(perms, 10), "locale": cmpOr(u.Locale, "en-US"), "guild_locale": cmpOr(s.guildLocales[guild], "en-US"),
		"channel": s.channelObject(channel)}
	ia.owners = s.owners(u, channel, message)
	payload["authorizing_integration_owners"] = ia.owners
	s.placePayload(payload, u, channel)
	if message != nil {
		ia.MessageID = message.ID
		payload["message"] = map[string]any{"id": message.ID, "channel_id": channel, "content": message.Content,
			"author": map[string]any{"id": s.AppID, "username": "othello", "bot": true}}
	}
	ia.sentAt = time.Now()
	endpoint := s.endpoint
	s.mu.Unlock()
	if endpoint != "" {
		s.mu.Lock()
		ia.posting = make(chan struct{})
		s.mu.Unlock()
		go func() {
			defer close(ia.posting)
			s.post(ia, payload)
		}()
		return ia
	}
	s.dispatch(guild, "INTERACTION_CREATE", payload)
	return ia
}

// Command sends a slash command. Options are name to value; a User value
// is sent as a user option with its member resolved.
func (s *Server) Command(u User, channel, name string, options map[string]any) *Interaction {
	return s.command(2, u, channel, name, "", options, "")
}

// Subcommand sends a subcommand (/tournament create): Discord nests its
// options inside one option of type 1 named after it.
func (s *Server) Subcommand(u User, channel, name, sub string, options map[string]any) *Interaction {
	return s.command(2, u, channel, name, sub, options, "")
}

// Autocomplete sends the typing of option focused in a command.
func (s *Server) Autocomplete(u User, channel, name string, options map[string]any, focused string) *Interaction {
	return s.command(4, u, channel, name, "", options, focused)
}

func (s *Server) command(kind int, u User, channel, name, sub string, options map[string]any, focused string) *Interaction {
	var opts []any
	resolved := map[string]any{"users": map[string]any{}, "members": map[string]any{}}
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		o := map[string]any{"name": k}
		switch v := options[k].(type) {
		case User:
			o["type"], o["value"] = 6, v.ID
			resolved["users"].(map[string]any)[v.ID] = map[string]any{"id": v.ID, "username": v.Name, "global_name": v.Name, "bot": v.Bot}
			m := map[string]any{"nick": nilIfEmpty(v.Nick), "roles": []any{}}
			resolved["members"].(map[string]any)[v.ID] = m
		case int:
			o["type"], o["value"] = 4, v
		case bool:
			o["type"], o["value"] = 5, v
		default:
			o["type"], o["value"] = 3, fmt.Sprint(v)
		}
		if k == focused {
			o["focused"] = true
		}
		opts = append(opts, o)
	}
	if sub != "" {
		opts = []any{map[string]any{"name": sub, "type": 1, "options": opts}}
	}
	data := map[string]any{"id": "4000000000000000001", "name": name, "type": 1, "options": opts, "resolved": resolved}
	s.mu.Lock()
	available := s.commandAvailable(u, channel, name)
	s.mu.Unlock()
	if !available {
		// Discord would not have offered the command there.
		s.violation("/%s is not offered to %s in channel %s as the commands are registered", name, u.Name, channel)
	}
	return s.newInteraction(kind, u, channel, data, nil)
}

// Click presses a button on a message.
func (s *Server) Click(u User, m *Message, customID string) *Interaction {
	return s.newInteraction(3, u, m.ChannelID, map[string]any{"custom_id": customID, "component_type": 2}, m)
}

// Select picks a value from a select menu on a message.
func (s *Server) Select(u User, m *Message, customID, value string) *Interaction {
	return s.newInteraction(3, u, m.ChannelID, map[string]any{"custom_id": customID, "component_type": 3,
		"values": []any{value}}, m)
}

// Wait waits until the bot has finished answering the interaction: it
// acknowledged it and, if it deferred, completed the reply, and then
// nothing more came for a moment.
func (ia *Interaction) wait(s *Server, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		done := ia.AckType != 0 && (ia.resolved || ia.AckType == 4 || ia.AckType == 7 || ia.AckType == 8) &&
			time.Since(ia.lastCall) > 150*time.Millisecond
		s.mu.Unlock()
		if done {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("interaction %s (%d) not answered within %s", ia.Token, ia.Kind, timeout)
}

// Wait waits for the bot's whole answer to an interaction.
func (s *Server) Wait(ia *Interaction, timeout time.Duration) error { return ia.wait(s, timeout) }

// --- what tests look at ---

// Messages returns the channel's messages, oldest first, as a user sees
// them (ephemeral ones only for whom they are meant; "" sees all).
func (s *Server) Messages(channel, viewer string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.ChannelID != channel || m.Deleted || m.Ephemeral && viewer != "" && m.VisibleTo != viewer {
			continue
		}
		c := *m
		out = append(out, &c)
	}
	return out
}

// Message returns a message by id.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.messages[id]; ok {
		c := *m
		return &c
	}
	return nil
}

// Reply returns the message that answers an interaction (its original
// response, or else its last followup).
func (s *Server) Reply(ia *Interaction) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var last *Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.Interaction == ia.Token && !m.Deleted {
			c := *m
			last = &c
			if id == ia.Original {
				return last
			}
		}
	}
	return last
}

// Followups returns the messages an interaction created after its first
// response.
func (s *Server) Followups(ia *Interaction) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.Interaction == ia.Token && id != ia.Original && !m.Deleted {
			c := *m
			out = append(out, &c)
		}
	}
	return out
}

// Violations lists every request the fake refused or found wrong.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(append([]string{}, s.violations...), s.noMentions...)
}

// Pings lists who each created message notified.
func (s *Server) Pings() []Ping {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Ping{}, s.pings...)
}

// Stats returns the largest sizes seen.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// AckTime is how long the bot took to acknowledge an interaction.
func (s *Server) AckTime(ia *Interaction) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ia.AckAfter
}

// Commands returns the commands registered in a scope ("" is global).
func (s *Server) Commands(guild string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands[guild]
}

func (s *Server) violation(format string, args ...any) {
	s.mu.Lock()
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// --- REST ---

type apiError struct {
	status int
	code   int
	msg    string
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if i := strings.Index(path, "/api/v"); i == 0 {
		rest := path[len("/api/v"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			path = rest[j:]
		}
	}
	body, files, err := readBody(r)
	if err != nil {
		s.fail(w, r, apiError{400, 50109, "The request body contains invalid JSON."})
		return
	}
	out, aerr := s.route(r, strings.Split(strings.Trim(path, "/"), "/"), body, files)
	if aerr != nil {
		s.fail(w, r, *aerr)
		return
	}
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, e apiError) {
	s.violation("%s %s: %d %s", r.Method, r.URL.Path, e.status, e.msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(map[string]any{"code": e.code, "message": e.msg})
}

type upload struct {
	name string
	size int
	data []byte
}

// Body is a REST request body as Discord reads it: the JSON (an object, or
// a list under "list"), and the files of a multipart body.
type Body struct {
	JSON      map[string]any
	FileNames []string
	FileData  [][]byte
}

// ReadBody reads a request body as Discord does: JSON, or multipart with
// the JSON in payload_json and each file in files[n].
func ReadBody(r *http.Request) (Body, error) {
	j, files, err := readBody(r)
	b := Body{JSON: j}
	for _, f := range files {
		b.FileNames = append(b.FileNames, f.name)
		b.FileData = append(b.FileData, f.data)
	}
	return b, err
}

// readBody reads a JSON body, or a multipart one (payload_json and
// files[n]).
func readBody(r *http.Request) (map[string]any, []upload, error) {
	if r.Body == nil {
		return nil, nil, nil
	}
	data, err := io.ReadAll(r.Body)
	if err != nil || len(data) == 0 {
		return nil, nil, err
	}
	var files []upload
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(data), params["boundary"])
		data = nil
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			content, _ := io.ReadAll(part)
			if part.FormName() == "payload_json" {
				data = content
				continue
			}
			if !strings.HasPrefix(part.FormName(), "files[") {
				return nil, nil, fmt.Errorf("unknown part %s", part.FormName())
			}
			files = append(files, upload{part.FileName(), len(content), content})
		}
	}
	var body any
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, nil, err
	}
	switch b := body.(type) {
	case map[string]any:
		return b, files, nil
	case []any:
		return map[string]any{"list": b}, files, nil
	}
	return nil, nil, fmt.Errorf("not an object")
}

func (s *Server) route(r *http.Request, p []string, body map[string]any, files []upload) (any, *apiError) {
	bot := r.Header.Get("Authorization") == "Bot "+s.Token
	switch {
	case len(p) == 1 && p[0] == "gateway", len(p) == 2 && p[0] == "gateway" && p[1] == "bot":
		s.mu.Lock()
		shards := s.RequiredShards
		s.mu.Unlock()
		return map[string]any{"url": s.wsURL(), "shards": shards,
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}, nil
	case p[0] == "applications" && r.Method == http.MethodPut && len(p) >= 3:
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		if p[1] != s.AppID {
			return nil, &apiError{403, 50001, "Missing Access"}
		}
		guild := ""
		if len(p) == 5 && p[2] == "guilds" {
			guild = p[3]
		}
		return s.registerCommands(guild, body)
	case p[0] == "guilds" && len(p) >= 3 && p[2] == "scheduled-events":
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		return s.eventRoute(r.Method, p, body)
	case p[0] == "interactions" && len(p) == 4 && p[3] == "callback" && r.Method == http.MethodPost:
		return s.callback(p[1], p[2], body, files)
	case p[0] == "webhooks" && len(p) >= 3:
		return s.webhook(r.Method, p, body, files)
	case p[0] == "channels" && bot && len(p) >= 2 && s.countChannelCall(p[1]):
		s.violation("%s %s: the bot is no member of that channel", r.Method, r.URL.Path)
		return nil, &apiError{403, 50001, "Missing Access"}
	case p[0] == "channels" && bot:
		if out, err, ok := s.threadRoute(r.Method, p, body); ok {
			return out, err
		}
		if len(p) >= 3 && p[2] == "messages" {
			return s.channelMessage(r.Method, p, body, files)
		}
	case p[0] == "channels" && len(p) >= 3 && p[2] == "messages":
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		return s.channelMessage(r.Method, p, body, files)
	}
	return nil, &apiError{404, 0, "404: Not Found"}
}

// countChannelCall counts a request to a channel's endpoints and says
// whether the bot is no member there.
func (s *Server) countChannelCall(channel string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channelCalls[channel]++
	return s.notMember(channel)
}

func (s *Server) registerCommands(guild string, body map[string]any) (any, *apiError) {
	list, _ := body["list"].([]any)
	if len(list) > 100 {
		return nil, &apiError{400, 50035, "Invalid Form Body: at most 100 commands"}
	}
	var out []map[string]any
	for _, c := range list {
		cmd := c.(map[string]any)
		if problems := commandProblems(cmd, guild == ""); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		cmd["id"] = "5" + strconv.Itoa(len(out))
		cmd["application_id"] = s.AppID
		out = append(out, cmd)
	}
	s.mu.Lock()
	s.commands[guild] = out
	s.mu.Unlock()
	if out == nil {
		return []any{}, nil
	}
	return out, nil
}

// commandName is Discord's rule for command and option names, localized
// ones included ("Application Command Naming"): letters and numbers of any
// script, Devanagari and Thai marks, '-', '_' and '\”; lower case where the
// script has case.
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// discordLocales are the locales Discord accepts as localization keys
// ("Locales" in Discord's reference).
var discordLocales = map[string]bool{"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true, "pt-BR": true, "ro": true, "fi": true,
	"sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true, "bg": true, "ru": true, "uk": true, "hi": true, "th": true,
	"zh-CN": true, "ja": true, "zh-TW": true, "ko": true}

func validName(n string) bool { return commandName.MatchString(n) && strings.ToLower(n) == n }

// localizationProblems checks a name_localizations or
// description_localizations map: known locales, and values as the default
// would be checked (names by the naming rule, descriptions and choice names
// 1-100 characters).
func localizationProblems(where, field string, v any, isName bool, maxLen int) []string {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %s is not an object", where, field)}
	}
	var out []string
	for loc, text := range m {
		t, _ := text.(string)
		switch {
		case !discordLocales[loc]:
			out = append(out, fmt.Sprintf("%s: %s has an unknown locale %q", where, field, loc))
		case isName && !validName(t):
			out = append(out, fmt.Sprintf("%s: %s[%s] %q is not a valid name", where, field, loc, t))
		case !isName && (length(t) < 1 || length(t) > maxLen):
			out = append(out, fmt.Sprintf("%s: %s[%s] has %d characters", where, field, loc, length(t)))
		}
	}
	return out
}

func commandProblems(cmd map[string]any, global bool) []string {
	var out []string
	name, _ := cmd["name"].(string)
	if !validName(name) {
		out = append(out, fmt.Sprintf("command name %q", name))
	}
	if d, _ := cmd["description"].(string); length(d) < 1 || length(d) > 100 {
		out = append(out, fmt.Sprintf("%s: description of %d", name, length(d)))
	}
	out = append(out, localizationProblems(name, "name_localizations", cmd["name_localizations"], true, 32)...)
	out = append(out, localizationProblems(name, "description_localizations", cmd["description_localizations"], false, 100)...)
	// contexts and integration_types are "only for globally-scoped
	// commands": a server's commands are its members', whatever they say.
	if _, ok := cmd["contexts"]; !ok && global {
		out = append(out, name+": no contexts (this bot's contract: set them explicitly)")
	}
	if _, ok := cmd["integration_types"]; !ok && global {
		out = append(out, name+": no integration_types (this bot's contract: set them explicitly)")
	}
	opts, _ := cmd["options"].([]any)
	return append(out, optionProblems(name, opts, true)...)
}

// optionProblems checks one level of options ("Application Command Object"
// in Discord's reference): at most 25; subcommands (type 1) not mixed
// with other options and holding only plain options themselves; required
// options before optional ones; names, descriptions and choices as for
// commands.
func optionProblems(name string, opts []any, top bool) []string {
	var out []string
	if len(opts) > 25 {
		out = append(out, name+": over 25 options")
	}
	subs, optional := 0, false
	for _, o := range opts {
		opt := o.(map[string]any)
		on, _ := opt["name"].(string)
		switch typ := int(num(opt["type"])); {
		case typ == 1 && !top:
			out = append(out, fmt.Sprintf("%s %s: a subcommand inside a subcommand", name, on))
		case typ == 1:
			subs++
			inner, _ := opt["options"].([]any)
			out = append(out, optionProblems(name+" "+on, inner, false)...)
		case typ == 2:
			out = append(out, fmt.Sprintf("%s %s: subcommand groups are not used by this bot", name, on))
		default:
			if req, _ := opt["required"].(bool); req && optional {
				out = append(out, fmt.Sprintf("%s %s: a required option after an optional one", name, on))
			} else if !req {
				optional = true
			}
		}
	}
	if subs > 0 && subs != len(opts) {
		out = append(out, name+": subcommands mixed with other options")
	}
	// A localized option name must differ from every default option name
	// of the command and from the other option names in its locale.
	defaults := map[string]bool{}
	for _, o := range opts {
		on, _ := o.(map[string]any)["name"].(string)
		if defaults[on] {
			out = append(out, fmt.Sprintf("%s: option name %q twice", name, on))
		}
		defaults[on] = true
	}
	perLocale := map[string]map[string]bool{}
	for _, o := range opts {
		opt := o.(map[string]any)
		on, _ := opt["name"].(string)
		where := name + " " + on
		if !validName(on) {
			out = append(out, fmt.Sprintf("%s: option name %q", name, on))
		}
		if d, _ := opt["description"].(string); length(d) < 1 || length(d) > 100 {
			out = append(out, fmt.Sprintf("%s %s: description of %d", name, on, length(d)))
		}
		out = append(out, localizationProblems(where, "name_localizations", opt["name_localizations"], true, 32)...)
		out = append(out, localizationProblems(where, "description_localizations", opt["description_localizations"], false, 100)...)
		if m, ok := opt["name_localizations"].(map[string]any); ok {
			for loc, v := range m {
				ln, _ := v.(string)
				if perLocale[loc] == nil {
					perLocale[loc] = map[string]bool{}
				}
				if (defaults[ln] && ln != on) || perLocale[loc][ln] {
					out = append(out, fmt.Sprintf("%s: localized option name %q (%s) is not distinct", where, ln, loc))
				}
				perLocale[loc][ln] = true
			}
		}
		ch, _ := opt["choices"].([]any)
		if len(ch) > 25 {
			out = append(out, fmt.Sprintf("%s %s: %d choices", name, on, len(ch)))
		}
		for _, c := range ch {
			choice, _ := c.(map[string]any)
			cn, _ := choice["name"].(string)
			if length(cn) < 1 || length(cn) > 100 {
				out = append(out, fmt.Sprintf("%s: choice name of %d characters", where, length(cn)))
			}
			out = append(out, localizationProblems(where+" "+cn, "name_localizations", choice["name_localizations"], false, 100)...)
		}
	}
	return out
}

func (s *Server) callback(id, token string, body map[string]any, files []upload) (any, *apiError) {
	s.mu.Lock()
	ia, ok := s.interactions[token]
	s.mu.Unlock()
	if !ok || ia.ID != id {
		return nil, &apiError{404, 10062, "Unknown interaction"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ia.lastCall = time.Now()
	if ia.AckType != 0 {
		return nil, &apiError{400, 40060, "Interaction has already been acknowledged."}
	}
	after := time.Since(ia.sentAt)
	if after > AckLimit {
		return nil, &apiError{404, 10062, fmt.Sprintf("Unknown interaction (acknowledged after %s)", after.Round(time.Millisecond))}
	}
	typ := int(num(body["type"]))
	data, _ := body["data"].(map[string]any)
	switch typ {
	case 4, 7:
		if problems := messageProblems(data, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
	case 8:
		choices, _ := data["choices"].([]any)
		if len(choices) > 25 {
			return nil, &apiError{400, 50035, "Invalid Form Body: over 25 choices"}
		}
		for _, c := range choices {
			if n, _ := c.(map[string]any)["name"].(string); length(n) < 1 || length(n) > 100 {
				return nil, &apiError{400, 50035, "Invalid Form Body: choice name length"}
			}
			ia.Choices = append(ia.Choices, c.(map[string]any))
		}
	case 5, 6:
	default:
		return nil, &apiError{400, 50035, fmt.Sprintf("Invalid Form Body: response type %d", typ)}
	}
	if (typ == 6 || typ == 7) && ia.Kind != 3 {
		return nil, &apiError{400, 40043, "Interaction response type not allowed for this interaction"}
	}
	ia.AckType, ia.AckAfter = typ, after
	s.stats.WorstAck = max(s.stats.WorstAck, after)
	switch typ {
	case 4, 5:
		flags := int(num(data["flags"]))
		m := &Message{ID: s.id(), ChannelID: ia.ChannelID, Interaction: token, Ephemeral: flags&64 != 0, VisibleTo: ia.User.ID}
		if typ == 5 {
			m.Content = "othello is thinking…"
			ia.deferredPub = !m.Ephemeral
			ia.loading = true
		} else {
			s.apply(m, data, files, true)
			ia.resolved = true
		}
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		ia.Original = m.ID
	case 6, 7:
		ia.Original = ia.MessageID
		if typ == 7 {
			if m := s.messages[ia.MessageID]; m != nil {
				s.apply(m, data, files, false)
			}
			ia.resolved = true
		}
	case 8:
		ia.resolved = true
	}
	return nil, nil
}

func (s *Server) webhook(method string, p []string, body map[string]any, files []upload) (any, *apiError) {
	if p[1] != s.AppID {
		return nil, &apiError{404, 10015, "Unknown Webhook"}
	}
	s.mu.Lock()
	if ia, ok := s.interactions[p[2]]; ok && ia.posting != nil {
		// Discord has the HTTP answer once the bot has sent it; here the
		// goroutine reading it may lag a webhook call that follows it.
		posting := ia.posting
		s.mu.Unlock()
		select {
		case <-posting:
		case <-time.After(AckLimit):
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	ia, ok := s.interactions[p[2]]
	// A token lives 15 minutes from the interaction's creation, the
	// moment its id tells.
	if !ok || time.Since(idTime(ia.ID)) > TokenLife {
		s.violations = append(s.violations, fmt.Sprintf("%s on webhook of %s: the token is unknown or past its 15 minutes", method, p[2]))
		return nil, &apiError{401, 50027, "Invalid Webhook Token"}
	}
	ia.lastCall = time.Now()
	if ia.AckType == 0 {
		return nil, &apiError{404, 10015, "Unknown Webhook (the interaction was never acknowledged)"}
	}
	switch {
	case len(p) == 3 && method == http.MethodPost: // followup
		if problems := messageProblems(body, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		if ia.loading {
			// Discord edits the loading response instead (deprecated): the
			// message keeps the deferral's visibility, whatever the flags.
			s.violations = append(s.violations, fmt.Sprintf("follow-up on %s while its deferred response was loading: it edits the response", ia.Token))
			m := s.messages[ia.Original]
			s.apply(m, body, files, false)
			ia.loading, ia.resolved = false, true
			return s.render(m), nil
		}
		if ia.userInstallOnly() && ia.followups >= followupLimit {
			s.violations = append(s.violations, fmt.Sprintf("follow-up %d on %s, where a user install allows %d", ia.followups+1, ia.Token, followupLimit))
			return nil, &apiError{400, 40094, "Maximum number of follow up messages reached"}
		}
		ia.followups++
		flags := int(num(body["flags"]))
		m := &Message{ID: s.id(), ChannelID: ia.ChannelID, Interaction: ia.Token, Ephemeral: flags&64 != 0, VisibleTo: ia.User.ID}
		s.apply(m, body, files, true)
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		ia.resolved = true
		return s.render(m), nil
	case len(p) == 5 && p[3] == "messages":
		// The response ("@original") or a message sent with this token.
		id := p[4]
		if id == "@original" {
			id = ia.Original
		}
		m := s.messages[id]
		if m == nil || m.Deleted || m.Interaction != ia.Token && id != ia.Original {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		original := id == ia.Original
		switch method {
		case http.MethodPatch:
			if problems := messageProblems(body, files, true); len(problems) > 0 {
				return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
			}
			s.apply(m, body, files, false)
			if original {
				ia.resolved, ia.loading = true, false
			}
			return s.render(m), nil
		case http.MethodDelete:
			m.Deleted = true
			if original {
				ia.loading = false
			}
			return nil, nil
		}
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

func (s *Server) channelMessage(method string, p []string, body map[string]any, files []upload) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	perms, ok := s.perms[p[1]]
	if !ok {
		return nil, &apiError{404, 10003, "Unknown Channel"}
	}
	send := SendMessages
	if _, thread := s.threads[p[1]]; thread {
		send = SendMessagesInThreads // Send Messages has no effect in a thread
	}
	if perms&ViewChannel == 0 || method == http.MethodPost && perms&send == 0 {
		return nil, &apiError{403, 50013, "Missing Permissions"}
	}
	switch {
	case len(p) == 3 && method == http.MethodPost:
		if problems := messageProblems(body, files, false); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		m := &Message{ID: s.id(), ChannelID: p[1]}
		s.apply(m, body, files, true)
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		return s.render(m), nil
	case len(p) == 4 && method == http.MethodPatch:
		m := s.messages[p[3]]
		if m == nil || m.Deleted || m.ChannelID != p[1] {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		if m.Ephemeral {
			return nil, &apiError{404, 10008, "Unknown Message"}
		}
		if problems := messageProblems(body, files, true); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		s.apply(m, body, files, false)
		return s.render(m), nil
	}
	return nil, &apiError{405, 0, "405: Method Not Allowed"}
}

func (s *Server) render(m *Message) map[string]any {
	return map[string]any{"id": m.ID, "channel_id": m.ChannelID, "content": m.Content, "type": 0,
		"author": map[string]any{"id": s.AppID, "username": "othello", "bot": true}, "timestamp": time.Now().Format(time.RFC3339)}
}

// apply writes a message body into m (fields a PATCH leaves out stay as
// they were) and, for a new message, works out who it pings.
func (s *Server) apply(m *Message, body map[string]any, files []upload, created bool) {
	if _, ok := body["allowed_mentions"]; !ok {
		s.noMentions = append(s.noMentions, fmt.Sprintf("message %s sent without allowed_mentions: %.80q", m.ID, str(body["content"])))
	}
	if v, ok := body["content"]; ok {
		m.Content = str(v)
	}
	if v, ok := body["embeds"]; ok {
		m.Embeds = nil
		list, _ := v.([]any)
		for _, e := range list {
			m.Embeds = append(m.Embeds, e.(map[string]any))
		}
	}
	if v, ok := body["components"]; ok {
		m.Components = nil
		list, _ := v.([]any)
		for _, c := range list {
			m.Components = append(m.Components, c.(map[string]any))
		}
	}
	if _, ok := body["attachments"]; ok || len(files) > 0 {
		m.Files = nil
		for _, f := range files {
			m.Files = append(m.Files, f.name)
		}
	}
	if created || body["content"] != nil || body["embeds"] != nil {
		m.Edits++
	}
	s.measure(m)
	if created {
		s.pings = append(s.pings, pings(m.ID, m.Content, body["allowed_mentions"]))
	}
}

func (s *Server) measure(m *Message) {
	s.stats.Messages++
	s.stats.MaxContent = max(s.stats.MaxContent, length(m.Content))
	for _, e := range m.Embeds {
		s.stats.MaxEmbedTotal = max(s.stats.MaxEmbedTotal, embedTotal(e))
		s.stats.MaxDescription = max(s.stats.MaxDescription, length(str(e["description"])))
		if f, ok := e["footer"].(map[string]any); ok {
			s.stats.MaxFooter = max(s.stats.MaxFooter, length(str(f["text"])))
		}
	}
}

var (
	userMention = regexp.MustCompile(`<@!?(\d+)>`)
	roleMention = regexp.MustCompile(`<@&(\d+)>`)
)

// pings applies Discord's allowed_mentions rules to a new message: without
// the object every mention in the text notifies; with it, only the kinds
// in parse and the listed users and roles.
func pings(id, content string, allowed any) Ping {
	p := Ping{MessageID: id}
	users, roles := userMention.FindAllStringSubmatch(content, -1), roleMention.FindAllStringSubmatch(content, -1)
	everyone := strings.Contains(content, "@everyone") || strings.Contains(content, "@here")
	am, ok := allowed.(map[string]any)
	if !ok {
		for _, u := range users {
			p.Users = append(p.Users, u[1])
		}
		for _, r := range roles {
			p.Roles = append(p.Roles, r[1])
		}
		p.Everyone = everyone
		return p
	}
	parse := map[string]bool{}
	if list, ok := am["parse"].([]any); ok {
		for _, v := range list {
			parse[str(v)] = true
		}
	}
	allowedUsers := strList(am["users"])
	allowedRoles := strList(am["roles"])
	for _, u := range users {
		if parse["users"] || slices.Contains(allowedUsers, u[1]) {
			p.Users = append(p.Users, u[1])
		}
	}
	for _, r := range roles {
		if parse["roles"] || slices.Contains(allowedRoles, r[1]) {
			p.Roles = append(p.Roles, r[1])
		}
	}
	p.Everyone = everyone && parse["everyone"]
	return p
}

// messageProblems checks a message body against Discord's documented
// limits. edit relaxes nothing but allows a body with only some fields.
func messageProblems(body map[string]any, files []upload, edit bool) []string {
	var out []string
	check := func(what string, n, limit int) {
		if n > limit {
			out = append(out, fmt.Sprintf("%s: %d over the limit of %d", what, n, limit))
		}
	}
	check("content", length(str(body["content"])), 2000)
	embeds, _ := body["embeds"].([]any)
	check("embeds", len(embeds), 10)
	total := 0
	for i, e := range embeds {
		em, _ := e.(map[string]any)
		what := fmt.Sprintf("embeds[%d]", i)
		check(what+".title", length(str(em["title"])), 256)
		check(what+".description", length(str(em["description"])), 4096)
		fields, _ := em["fields"].([]any)
		check(what+".fields", len(fields), 25)
		for j, f := range fields {
			fm := f.(map[string]any)
			n, v := str(fm["name"]), str(fm["value"])
			if n == "" || v == "" {
				out = append(out, fmt.Sprintf("%s.fields[%d]: name and value are required", what, j))
			}
			check(fmt.Sprintf("%s.fields[%d].name", what, j), length(n), 256)
			check(fmt.Sprintf("%s.fields[%d].value", what, j), length(v), 1024)
		}
		if f, ok := em["footer"].(map[string]any); ok {
			check(what+".footer.text", length(str(f["text"])), 2048)
		}
		total += embedTotal(em)
	}
	check("embeds total", total, 6000)
	rows, _ := body["components"].([]any)
	check("components", len(rows), 5)
	for i, r := range rows {
		row, _ := r.(map[string]any)
		items, _ := row["components"].([]any)
		if num(row["type"]) != 1 || len(items) == 0 {
			out = append(out, fmt.Sprintf("components[%d]: an action row with components", i))
		}
		check(fmt.Sprintf("components[%d]", i), len(items), 5)
		for _, it := range items {
			c := it.(map[string]any)
			check("custom_id", length(str(c["custom_id"])), 100)
			switch num(c["type"]) {
			case 2:
				check("button label", length(str(c["label"])), 80)
			case 3:
				if len(items) != 1 {
					out = append(out, "a select menu must be alone in its row")
				}
				opts, _ := c["options"].([]any)
				if len(opts) < 1 || len(opts) > 25 {
					out = append(out, fmt.Sprintf("select options: %d (1 to 25)", len(opts)))
				}
				check("placeholder", length(str(c["placeholder"])), 150)
				for _, o := range opts {
					om := o.(map[string]any)
					check("option label", length(str(om["label"])), 100)
					check("option value", length(str(om["value"])), 100)
				}
			}
		}
	}
	for i, f := range files {
		check("files["+strconv.Itoa(i)+"] bytes", f.size, 10<<20)
	}
	// API v10: a file uploaded with an edit must be listed in attachments
	// (by its place among the uploads), or it is not attached.
	if edit && len(files) > 0 {
		listed := map[string]bool{}
		list, _ := body["attachments"].([]any)
		for _, a := range list {
			listed[str(a.(map[string]any)["id"])] = true
		}
		for i, f := range files {
			if !listed[strconv.Itoa(i)] {
				out = append(out, fmt.Sprintf("file %s uploaded with an edit but not listed in attachments", f.name))
			}
		}
	}
	return out
}

func embedTotal(e map[string]any) int {
	n := length(str(e["title"])) + length(str(e["description"]))
	if f, ok := e["footer"].(map[string]any); ok {
		n += length(str(f["text"]))
	}
	if a, ok := e["author"].(map[string]any); ok {
		n += length(str(a["name"]))
	}
	fields, _ := e["fields"].([]any)
	for _, f := range fields {
		fm := f.(map[string]any)
		n += length(str(fm["name"])) + length(str(fm["value"]))
	}
	return n
}

func length(s string) int { return len(utf16.Encode([]rune(s))) }

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

func strList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		out = append(out, str(x))
	}
	return out
}

// Menu returns a message's select menu custom id and option values, if it
// has one.
func (m *Message) Menu() (customID string, values []string, ok bool) {
	for _, row := range m.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			c := it.(map[string]any)
			if num(c["type"]) == 3 {
				for _, o := range c["options"].([]any) {
					values = append(values, str(o.(map[string]any)["value"]))
				}
				return str(c["custom_id"]), values, true
			}
		}
	}
	return "", nil, false
}

// Button returns the custom id of a message's button with that label.
func (m *Message) Button(label string) (string, bool) {
	for _, row := range m.Components {
		items, _ := row["components"].([]any)
		for _, it := range items {
			c := it.(map[string]any)
			if num(c["type"]) == 2 && strings.EqualFold(str(c["label"]), label) {
				return str(c["custom_id"]), true
			}
		}
	}
	return "", false
}

// Text is everything a reader sees of a message, in one string.
func (m *Message) Text() string {
	var b strings.Builder
	b.WriteString(m.Content + "\n")
	for _, e := range m.Embeds {
		b.WriteString(str(e["title"]) + "\n" + str(e["description"]) + "\n")
		fields, _ := e["fields"].([]any)
		for _, f := range fields {
			fm := f.(map[string]any)
			b.WriteString(str(fm["name"]) + ": " + str(fm["value"]) + "\n")
		}
		if f, ok := e["footer"].(map[string]any); ok {
			b.WriteString(str(f["text"]) + "\n")
		}
	}
	return b.String()
}
