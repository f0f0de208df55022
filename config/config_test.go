package config

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The example file in the repository must load and equal the defaults, so it
// documents every key with its real default.
func TestExampleIsCompleteAndDefault(t *testing.T) {
	data, err := os.ReadFile("../config.example.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// Every field, compared as a whole: the defaults have no guild list,
	// the example an empty one, and both mean "register globally".
	d := Default()
	if c.GuildIDs != nil && len(c.GuildIDs) == 0 {
		c.GuildIDs = nil
	}
	if c.TournamentRoles != nil && len(c.TournamentRoles) == 0 {
		c.TournamentRoles = nil
	}
	if !reflect.DeepEqual(c, d) {
		t.Errorf("example differs from defaults:\nexample  %+v\ndefaults %+v", c, d)
	}
	for _, key := range []string{"applicationId", "guildIds", "database", "resultsLog", "defaultLevel", "defaultSize",
		"engineMoveTime", "challengeExpiry", "challengeCooldown", "moveTimeout", "reminderBefore", "maxEmojiBoardSize",
		"imageDir", "logLevel", "logFormat", "pprofAddress", "metricsAddress", "discordAPI", "tournamentRoles"} {
		if !strings.Contains(string(data), `"`+key+`"`) {
			t.Errorf("example lacks %q", key)
		}
	}
}

func TestErrorsNameTheKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"defaultLevel": 11}`:                `key "defaultLevel" must be 1..10`,
		`{"defaultLevel": "5"}`:               `key "defaultLevel": want a whole number`,
		`{"moveTimeout": "forever"}`:          `key "moveTimeout": "forever" is not a duration`,
		`{"moveTimeout": 24}`:                 `key "moveTimeout": want a duration in quotes`,
		`{"colour": "red"}`:                   `unknown key "colour"`,
		`{"guildIds": ["12", "abc"]}`:         `key "guildIds": entry 2 ("abc") is not a server id`,
		`{"maxEmojiBoardSize": 12}`:           `key "maxEmojiBoardSize" must be an even number 4..10`,
		`{"reminderBefore": "25h"}`:           `key "reminderBefore" must be at least 0s and less than moveTimeout`,
		`{"logLevel": "loud"}`:                `key "logLevel" must be debug, info, warn or error`,
		`{"logFormat": "xml"}`:                `key "logFormat" must be text or json`,
		`{"pprofAddress": "6060"}`:            `key "pprofAddress" must be host:port or :port`,
		`{"pprofAddress": ":http"}`:           `key "pprofAddress" must be host:port or :port`,
		`{"metricsAddress": "localhost"}`:     `key "metricsAddress" must be host:port or :port`,
		`{"database": ""}`:                    `key "database" must name a file`,
		`{"defaultSize": 9`:                   `not valid JSON`,
		`[1, 2]`:                              `want a JSON object`,
		`{"applicationId": "my app"}`:         `key "applicationId" must be the application's id`,
		`{"engineMoveTime": "1ms"}`:           `key "engineMoveTime" must be between 50ms and 1m`,
		`{"challengeCooldown": "-1s"}`:        `key "challengeCooldown" must be between 0s and 1h`,
		`{"defaultLevel": null}`:              `key "defaultLevel": want a whole number, not null`,
		`{"moveTimeout": null}`:               `key "moveTimeout": want a duration in quotes`,
		`{"guildIds": null}`:                  `key "guildIds": want a list, not null`,
		`{"timeControl": "0+0"}`:              `key "timeControl" must be minutes+seconds like 3+2`,
		`{"timeControl": "5 minutes"}`:        `key "timeControl" must be minutes+seconds like 3+2`,
		`{"guildIds": [null]}`:                `key "guildIds": entry 1 ("") is not a server id`,
		`{"tournamentRoles": ["99", "mods"]}`: `key "tournamentRoles": entry 2 ("mods") is not a role id`,
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	os.WriteFile(path, []byte(`{"defaultSize": 10, "moveTimeout": "48h", "guildIds": ["123"]}`), 0o600)
	c, err := Load(path)
	if err != nil || c.DefaultSize != 10 || c.MoveTimeout.D() != 48*time.Hour || c.DefaultLevel != 5 || len(c.GuildIDs) != 1 {
		t.Errorf("%+v %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
	// Without a path and without config.json in the working directory:
	// the defaults.
	wd, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(wd)
	if c, err := Load(""); err != nil || c.Database != Default().Database {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"defaultLevel": 3, "moveTimeout": "1h"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if c.Validate() != nil {
			t.Fatal("Parse returned an invalid config")
		}
	})
}

func TestShards(t *testing.T) {
	for _, tc := range []struct {
		json string
		want []int // nil with err
		err  string
	}{
		{`{}`, []int{0}, ""},
		{`{"shardCount": 4}`, []int{0, 1, 2, 3}, ""},
		{`{"shardCount": 8, "shards": "2-3,6, 0"}`, []int{0, 2, 3, 6}, ""},
		{`{"shardCount": "auto", "shards": "5"}`, []int{5}, ""},
		{`{"shardCount": 4, "shards": "4"}`, nil, "shard 4 does not exist"},
		{`{"shardCount": 4, "shards": "3-1"}`, nil, "not a shard id or range"},
		{`{"shardCount": 4, "shards": "x"}`, nil, "not a shard id or range"},
		{`{"shardCount": 0}`, nil, `"auto"`},
		{`{"shardCount": "many"}`, nil, `"auto"`},
		{`{"shards": "none"}`, nil, "interactionsAddress"},
	} {
		c, err := Parse([]byte(tc.json))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one saying %q", tc.json, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.json, err)
			continue
		}
		count := int(c.ShardCount)
		if c.ShardCount == ShardsAuto {
			count = 0 // not known until Discord says
		}
		got, err := c.ShardIDs(count)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: shards %v %v, want %v", tc.json, got, err, tc.want)
		}
	}
}

// A bare port serves the profiler on loopback only; a host is kept.
func TestPprofListensOnLoopbackByDefault(t *testing.T) {
	for in, want := range map[string]string{":6060": "127.0.0.1:6060", "0.0.0.0:6060": "0.0.0.0:6060", "[::1]:7": "[::1]:7"} {
		if got := (Config{PprofAddress: in}).PprofListen(); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// logFormat json writes one JSON object a line, with every attribute.
func TestJSONLogs(t *testing.T) {
	var b strings.Builder
	slog.New(Config{LogFormat: "json"}.LogHandler(&b, slog.LevelInfo)).Info("move", "game", 7, "user", "alice")
	var rec map[string]any
	if err := json.Unmarshal([]byte(b.String()), &rec); err != nil || rec["msg"] != "move" || rec["game"] != float64(7) || rec["user"] != "alice" {
		t.Errorf("%q: %v %v", b.String(), rec, err)
	}
}
