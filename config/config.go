// Package config reads and checks othello-bot's JSON configuration. Every
// key has a safe default; a wrong or unknown key stops start-up with one
// line naming it.
package config

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"othello-bot/timecontrol"
)

// Config is the bot's settings. The Discord token is not here: it comes from
// the DISCORD_TOKEN environment variable and is never written anywhere.
type Config struct {
	// Heartbeat is the file run writes while alive: run's --heartbeat
	// flag or $OTHELLO_HEARTBEAT, not a key of the file.
	Heartbeat string `json:"-"`
	// ApplicationID is the Discord application's id (needed by run).
	ApplicationID string `json:"applicationId"`
	// GuildIDs lists servers to register the slash commands in (instant);
	// empty registers them globally.
	GuildIDs []string `json:"guildIds"`
	// Database is the SQLite file, or a postgres:// URL for a database
	// that several processes share (its password in PGPASSWORD, never in
	// the URL).
	Database string `json:"database"`
	// Instance names this process among those sharing a PostgreSQL
	// database ("" for the host name and the results log's path).
	Instance string `json:"instance"`
	// ShardCount is how many gateway shards the bot has: a number, or
	// "auto" for Discord's recommendation; Shards are the ones this
	// process runs: "" for all, "0-3", "0,2,4", or "none" for a process
	// that takes interactions over HTTP only.
	ShardCount ShardCount `json:"shardCount"`
	Shards     string     `json:"shards"`
	// ResultsLog is the file that gets one line per finished game.
	ResultsLog string `json:"resultsLog"`
	// Level and DefaultSize apply when /start does not say. Level is on the
	// twenty levels' scale (1-20); 0 takes DefaultLevel, the ten levels'
	// scale of configurations written before (1-10), mapped to the level
	// that plays as it did (engine.FromOldLevel).
	Level        int `json:"level"`
	DefaultLevel int `json:"defaultLevel"`
	DefaultSize  int `json:"defaultSize"`
	// EngineMoveTime is the engine's thinking time per move.
	EngineMoveTime Duration `json:"engineMoveTime"`
	// ChallengeExpiry is how long a challenge waits for an answer.
	ChallengeExpiry Duration `json:"challengeExpiry"`
	// ChallengeCooldown is the least time between two challenges of a user.
	ChallengeCooldown Duration `json:"challengeCooldown"`
	// MoveTimeout is how long a player has for a move in a PvP game;
	// ReminderBefore is how long before it runs out a reminder goes.
	MoveTimeout    Duration `json:"moveTimeout"`
	ReminderBefore Duration `json:"reminderBefore"`
	// TimeControl is the server's default time control of games between
	// members ("3+2", "1d"); "" gives moveTimeout per move.
	TimeControl string `json:"timeControl"`
	// TournamentRoles are roles (by id) whose members may create
	// tournaments, besides those with Manage Events or Manage Server.
	TournamentRoles []string `json:"tournamentRoles"`
	// AbandonAfter ends a game against the bot whose player has not moved
	// for this long, so it never blocks its channel for good.
	AbandonAfter Duration `json:"abandonAfter"`
	// Threads gives each game its own thread where the bot may open one;
	// the thread is archived ArchiveAfter after the game ends.
	Threads      bool     `json:"threads"`
	ArchiveAfter Duration `json:"archiveAfter"`
	// MaxGamesPerPlayer bounds the games one player has running at once.
	MaxGamesPerPlayer int `json:"maxGamesPerPlayer"`
	// WebAddress is where the bot serves game pages ("" for none), like
	// ":8080"; PublicURL is how people reach them, like
	// "https://othello.example.com/", for the links in game messages.
	WebAddress string `json:"webAddress"`
	PublicURL  string `json:"publicURL"`
	// Activity says the application's Discord Activity is turned on in the
	// Developer Portal (mapped to publicURL's /activity): game messages in
	// servers then carry "Watch in Discord", which opens the game's board
	// in it.
	Activity bool `json:"activity"`
	// WebWatchersPerAddress caps the live pages open from one address.
	// Behind a reverse proxy every page comes from the proxy: raise it.
	WebWatchersPerAddress int `json:"webWatchersPerAddress"`
	// InteractionsAddress is where run also takes interactions over HTTP
	// (Discord's Interactions Endpoint URL points at its /interactions);
	// PublicKey is the application's public key that signs them.
	InteractionsAddress string `json:"interactionsAddress"`
	PublicKey           string `json:"publicKey"`
	// MaxEmojiSize is the largest board drawn as emoji; larger ones are
	// pictures.
	MaxEmojiSize int `json:"maxEmojiBoardSize"`
	// ImageDir is where the terminal adapter saves board pictures.
	ImageDir string `json:"imageDir"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `json:"logLevel"`
	// LogFormat is text (slog's key=value lines) or json (one JSON object
	// a line, for log collectors).
	LogFormat string `json:"logFormat"`
	// PprofAddress is where net/http/pprof is served ("" for nowhere); a
	// bare ":port" listens on loopback only.
	PprofAddress string `json:"pprofAddress"`
	// MetricsAddress is where Prometheus metrics are served at /metrics
	// ("" for nowhere).
	MetricsAddress string `json:"metricsAddress"`
	// DiscordAPI is the base URL of Discord's REST API: Discord's own, or a
	// REST proxy in front of it (as large bots use to share rate limits).
	DiscordAPI string `json:"discordAPI"`
	// Proxy is an HTTP proxy every connection to Discord goes through
	// (REST, the gateway, CONNECT for TLS); "" takes HTTPS_PROXY,
	// HTTP_PROXY and NO_PROXY from the environment, as Go does.
	Proxy string `json:"proxy"`
}

// Duration is a time.Duration written as "2s", "10m" or "24h" in JSON.
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New(`want a duration in quotes, like "2s", "10m" or "24h"`)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf(`%q is not a duration (like "2s", "10m" or "24h")`, s)
	}
	*d = Duration(v)
	return nil
}

// ShardCount is a number of shards, or ShardsAuto ("auto" in JSON).
type ShardCount int

// ShardsAuto asks Discord how many shards to run.
const ShardsAuto ShardCount = 0

// maxShards bounds shardCount (Discord's largest bots run a few thousand).
const maxShards = 1 << 14

func (n ShardCount) MarshalJSON() ([]byte, error) {
	if n == ShardsAuto {
		return []byte(`"auto"`), nil
	}
	return json.Marshal(int(n))
}

func (n *ShardCount) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == `"auto"` {
		*n = ShardsAuto
		return nil
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil || v < 1 || v > maxShards {
		return fmt.Errorf(`want a whole number 1..%d or "auto"`, maxShards)
	}
	*n = ShardCount(v)
	return nil
}

// ShardIDs lists the shards this process runs out of count: every one
// for "", none for "none", else the listed ids and ranges.
func (c Config) ShardIDs(count int) ([]int, error) {
	spec := strings.TrimSpace(c.Shards)
	switch spec {
	case "":
		ids := make([]int, count)
		for i := range ids {
			ids[i] = i
		}
		return ids, nil
	case "none":
		return nil, nil
	}
	seen := map[int]bool{}
	var ids []int
	for _, part := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf(`key "shards": %q is not a shard id or range like 0-3`, part)
		}
		for id := a; id <= b; id++ {
			if count > 0 && id >= count {
				return nil, fmt.Errorf(`key "shards": shard %d does not exist with shardCount %d (ids are 0..%d)`, id, count, count-1)
			}
			if id > maxShards {
				return nil, fmt.Errorf(`key "shards": shard %d is out of range`, id)
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	sort.Ints(ids)
	return ids, nil
}

// Default returns the built-in settings.
func Default() Config {
	return Config{
		Database:              "othello-bot.db",
		ShardCount:            1,
		ResultsLog:            "results.log",
		DefaultLevel:          5,
		DefaultSize:           8,
		EngineMoveTime:        Duration(2 * time.Second),
		ChallengeExpiry:       Duration(10 * time.Minute),
		ChallengeCooldown:     Duration(30 * time.Second),
		MoveTimeout:           Duration(24 * time.Hour),
		ReminderBefore:        Duration(time.Hour),
		AbandonAfter:          Duration(7 * 24 * time.Hour),
		Threads:               true,
		ArchiveAfter:          Duration(time.Hour),
		MaxGamesPerPlayer:     5,
		MaxEmojiSize:          10,
		WebWatchersPerAddress: 20,
		ImageDir:              "boards",
		LogLevel:              "info",
		LogFormat:             "text",
		DiscordAPI:            "https://discord.com/",
	}
}

// DefaultPath is read when no --config is given, if it exists.
const DefaultPath = "config.json"

// Load reads a config file over the defaults. With path "" it reads
// DefaultPath if present, else returns the defaults.
func Load(path string) (Config, error) {
	if path == "" {
		if _, err := os.Stat(DefaultPath); err != nil {
			return Default(), nil
		}
		path = DefaultPath
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, errors.Unwrap(err))
	}
	c, err := Parse(data)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// Parse reads a config from JSON over the defaults and checks it. Keys are
// decoded one by one so every error can name its key.
func Parse(data []byte) (Config, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return Config{}, fmt.Errorf("not valid JSON at byte %d: %v", se.Offset, se)
		}
		return Config{}, errors.New("want a JSON object of settings")
	}
	c := Default()
	v := reflect.ValueOf(&c).Elem()
	fields := map[string]reflect.Value{}
	for i := 0; i < v.NumField(); i++ {
		fields[v.Type().Field(i).Tag.Get("json")] = v.Field(i)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := fields[k]
		if !ok {
			return Config{}, fmt.Errorf("unknown key %q", k)
		}
		// encoding/json leaves a field alone on null: refuse it like any
		// other wrong type instead of quietly keeping the default.
		if bytes.Equal(bytes.TrimSpace(raw[k]), []byte("null")) {
			if f.Type() == reflect.TypeOf(Duration(0)) {
				return Config{}, fmt.Errorf(`key %q: want a duration in quotes, like "2s", "10m" or "24h", not null`, k)
			}
			return Config{}, fmt.Errorf("key %q: want %s, not null", k, jsonKind(f.Kind()))
		}
		if err := json.Unmarshal(raw[k], f.Addr().Interface()); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return Config{}, fmt.Errorf("key %q: want %s", k, jsonKind(f.Kind()))
			}
			return Config{}, fmt.Errorf("key %q: %v", k, err)
		}
	}
	return c, c.Validate()
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.String:
		return "a string in quotes"
	case reflect.Slice:
		return "a list"
	case reflect.Bool:
		return "true or false"
	}
	return "a " + k.String()
}

// Validate checks every value's range.
func (c Config) Validate() error {
	checks := []struct {
		key string
		bad bool
		why string
	}{
		{"database", c.Database == "", "must name a file or a postgres:// URL"},
		{"shards", c.Shards == "none" && c.InteractionsAddress == "", `is "none" but interactionsAddress is not set: such a process would receive nothing`},
		{"resultsLog", c.ResultsLog == "", "must name a file"},
		{"level", c.Level < 0 || c.Level > 20, "must be 1..20 (or 0: defaultLevel decides)"},
		{"defaultLevel", c.DefaultLevel < 1 || c.DefaultLevel > 10, "must be 1..10 (the old scale; level takes 1..20)"},
		{"defaultSize", c.DefaultSize < 4 || c.DefaultSize > 26 || c.DefaultSize%2 != 0, "must be an even number 4..26"},
		{"engineMoveTime", c.EngineMoveTime.D() < 50*time.Millisecond || c.EngineMoveTime.D() > time.Minute, "must be between 50ms and 1m"},
		{"challengeExpiry", c.ChallengeExpiry.D() < time.Minute || c.ChallengeExpiry.D() > 7*24*time.Hour, "must be between 1m and 168h"},
		{"challengeCooldown", c.ChallengeCooldown.D() < 0 || c.ChallengeCooldown.D() > time.Hour, "must be between 0s and 1h"},
		{"moveTimeout", c.MoveTimeout.D() < time.Minute || c.MoveTimeout.D() > 30*24*time.Hour, "must be between 1m and 720h"},
		{"reminderBefore", c.ReminderBefore.D() < 0 || c.ReminderBefore.D() >= c.MoveTimeout.D(), "must be at least 0s and less than moveTimeout"},
		{"timeControl", c.TimeControl != "" && !validControl(c.TimeControl), "must be minutes+seconds like 3+2, or days per move like 1d"},
		{"abandonAfter", c.AbandonAfter.D() < time.Minute || c.AbandonAfter.D() > 365*24*time.Hour, "must be between 1m and 8760h"},
		{"archiveAfter", c.ArchiveAfter.D() < 0 || c.ArchiveAfter.D() > 7*24*time.Hour, "must be between 0s and 168h"},
		{"maxGamesPerPlayer", c.MaxGamesPerPlayer < 1 || c.MaxGamesPerPlayer > 100, "must be 1..100"},
		{"webWatchersPerAddress", c.WebWatchersPerAddress < 1 || c.WebWatchersPerAddress > 100000, "must be 1..100000"},
		{"publicURL", c.PublicURL != "" && !validBase(c.PublicURL), "must be an http(s) URL, like https://othello.example.com/"},
		{"activity", c.Activity && c.PublicURL == "", "needs publicURL: the Activity is the game pages under /activity"},
		{"publicKey", c.InteractionsAddress != "" && !validKey(c.PublicKey), "must be the application's public key (64 hex digits) when interactionsAddress is set"},
		{"maxEmojiBoardSize", c.MaxEmojiSize < 4 || c.MaxEmojiSize > 10 || c.MaxEmojiSize%2 != 0, "must be an even number 4..10 (larger boards do not fit Discord's limits as emoji)"},
		{"logLevel", !validLevel(c.LogLevel), "must be debug, info, warn or error"},
		{"logFormat", c.LogFormat != "text" && c.LogFormat != "json", "must be text or json"},
		{"pprofAddress", c.PprofAddress != "" && !validHostPort(c.PprofAddress), "must be host:port or :port, like :6060"},
		{"metricsAddress", c.MetricsAddress != "" && !validHostPort(c.MetricsAddress), "must be host:port or :port, like :9090"},
		{"discordAPI", !validBase(c.DiscordAPI), "must be an http(s) URL, like https://discord.com/ or http://proxy:8080/"},
		{"proxy", c.Proxy != "" && !validBase(c.Proxy), "must be an http(s) URL, like http://proxy.internal:3128/ (or empty: the environment's HTTPS_PROXY)"},
	}
	for _, ch := range checks {
		if ch.bad {
			return fmt.Errorf("key %q %s", ch.key, ch.why)
		}
	}
	if _, err := c.ShardIDs(int(c.ShardCount)); err != nil {
		return err
	}
	for i, g := range c.GuildIDs {
		if g == "" || strings.Trim(g, "0123456789") != "" {
			return fmt.Errorf("key \"guildIds\": entry %d (%q) is not a server id (digits)", i+1, g)
		}
	}
	for i, r := range c.TournamentRoles {
		if r == "" || strings.Trim(r, "0123456789") != "" {
			return fmt.Errorf("key \"tournamentRoles\": entry %d (%q) is not a role id (digits)", i+1, r)
		}
	}
	if c.ApplicationID != "" && strings.Trim(c.ApplicationID, "0123456789") != "" {
		return fmt.Errorf("key \"applicationId\" must be the application's id (digits)")
	}
	return nil
}

func validBase(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func validKey(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

func validLevel(s string) bool {
	var l slog.Level
	return l.UnmarshalText([]byte(s)) == nil && s != ""
}

// LogHandler writes log records to w at level, in the configured format.
func (c Config) LogHandler(w io.Writer, level slog.Level) slog.Handler {
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.NewJSONHandler(w, opts)
	}
	return slog.NewTextHandler(w, opts)
}

// PprofListen is where to serve the profiler: PprofAddress, on loopback
// when it names no host.
func (c Config) PprofListen() string {
	host, port, err := net.SplitHostPort(c.PprofAddress)
	if err != nil || host != "" {
		return c.PprofAddress
	}
	return net.JoinHostPort("127.0.0.1", port)
}

func validHostPort(s string) bool {
	_, port, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(port)
	return err == nil && perr == nil && n >= 0 && n <= 65535
}

// SlogLevel returns the configured log level.
func (c Config) SlogLevel() slog.Level {
	var l slog.Level
	l.UnmarshalText([]byte(c.LogLevel))
	return l
}

func validControl(s string) bool {
	_, err := timecontrol.Parse(s)
	return err == nil
}
