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
	"crypto/ed25519"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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

// APIVersion is the REST and gateway version Discord calls current (v10;
// v9 is deprecated): a request on another is a violation.
const APIVersion = "10"

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
	// Avatar is the user's avatar hash ("" for none: /users/@me says null).
	Avatar string
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
	EditedAt    time.Time // the last edit's, for the message object's edited_timestamp
}

// Ping is who a created message notified.
type Ping struct {
	MessageID string
	Users     []string
	Roles     []string
	Everyone  bool
}

// AckMessage is the interaction callback type CHANNEL_MESSAGE_WITH_SOURCE
// (4): a new message answers the interaction (Discord's "Receiving and
// Responding", interaction callback types); a component's refusal is one,
// only the presser seeing it.
const AckMessage = 4

// Interaction is one interaction the fake dispatched.
type Interaction struct {
	ID, Token string
	Kind      int // 2 command, 3 component, 4 autocomplete, 5 modal
	User      User
	ChannelID string
	sentAt    time.Time
	// AckType and AckAfter are written under the server's lock when the
	// bot answers: read them once Wait has returned nil, or else through
	// Server.AckKind and Server.AckTime.
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

	http *httptest.Server
	// resumeHTTP is the gateway server READY names as resume_gateway_url.
	resumeHTTP *httptest.Server
	upgrader   websocket.Upgrader

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
	intents      int64 // of the last identify
	files        map[string]Attachment
	pings        []Ping
	stats        Stats
	noMentions   []string // messages sent without allowed_mentions
	reaches      map[string]reach
	channelCalls map[string]int
	rates        rateState
	oauth        oauthState
	roles        roleState
	activities   activityState

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
	// unreachableUntil: the gateway takes no connection until then.
	unreachableUntil time.Time
	connected        chan struct{}
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
	mux.HandleFunc("GET /attachments/", s.serveAttachment)
	mux.HandleFunc("GET /oauth2/authorize", s.serveAuthorize)
	mux.HandleFunc("POST /api/v10/oauth2/token", s.serveToken)
	mux.HandleFunc("GET /api/v10/users/@me", s.serveMe)
	mux.HandleFunc("GET /api/v10/users/@me/guilds", s.serveMyGuilds)
	s.http = httptest.NewUnstartedServer(mux)
	s.http.Start()
	s.resumeHTTP = httptest.NewServer(http.HandlerFunc(s.serveResumeGateway))
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
	s.resumeHTTP.Close()
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
