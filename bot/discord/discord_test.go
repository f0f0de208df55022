package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
	"othello-bot/bot/discord/discordtest"
	"othello-bot/bot/resigns"
	"othello-bot/engine"
	"othello-bot/storage"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// sent is one HTTP request discordgo made.
type sent struct {
	Method, Path string
	Body         map[string]any
	List         []any
	Files        []string
	FileData     [][]byte
}

// fakeDiscord answers discordgo's REST calls and records them.
type fakeDiscord struct {
	mu   sync.Mutex
	reqs []sent
}

func (f *fakeDiscord) RoundTrip(r *http.Request) (*http.Response, error) {
	s := sent{Method: r.Method, Path: r.URL.Path}
	if b, err := discordtest.ReadBody(r); err == nil {
		s.Files, s.FileData = b.FileNames, b.FileData
		if list, ok := b.JSON["list"].([]any); ok {
			s.List = list
		} else {
			s.Body = b.JSON
		}
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, s)
	f.mu.Unlock()
	status, out := http.StatusOK, `{"id": "600000000000000009", "channel_id": "800000000000000001", "content": ""}`
	switch {
	case strings.HasSuffix(r.URL.Path, "/callback"), r.Method == http.MethodDelete:
		status, out = http.StatusNoContent, ""
	case strings.HasSuffix(r.URL.Path, "/commands"):
		out = "[]"
	}
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(out)), Header: http.Header{},
		Request: r}, nil
}

func (f *fakeDiscord) take() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.reqs
	f.reqs = nil
	return out
}

type harness struct {
	t       *testing.T
	fake    *fakeDiscord
	adapter *Adapter
	session *discordgo.Session
	svc     *bot.Service
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	store, err := storage.Open(context.Background(), filepath.Join(dir, "bot.db"), storage.Options{ResultsLog: filepath.Join(dir, "results.log"), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, _ := discordgo.New("Bot test-token")
	fake := &fakeDiscord{}
	s.Client = &http.Client{Transport: fake}
	poster := NewPoster(s, "1000000000000000000", store, quiet)
	cfg := bot.Config{DefaultLevel: 3, DefaultSize: 8, EngineMoveTime: 100 * time.Millisecond, ChallengeExpiry: 10 * time.Minute,
		MoveTimeout: 24 * time.Hour, ReminderBefore: time.Hour, MaxEmojiSize: 10}
	svc := bot.New(bot.StoresOf(store), engine.New(engine.Options{Searches: 1}), bot.SystemClock{}, poster, cfg, quiet)
	svc.Mount(resigns.New(svc, store)) // the Resign buttons are a capability's
	a := New(poster, svc, []string{"900000000000000001"})
	return &harness{t: t, fake: fake, adapter: a, session: s, svc: svc}
}

// deliver feeds a recorded interaction payload to the handler.
func (h *harness) deliver(file string, edit func(map[string]any)) []sent {
	h.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		h.t.Fatal(err)
	}
	if edit != nil {
		var m map[string]any
		json.Unmarshal(data, &m)
		edit(m)
		data, _ = json.Marshal(m)
	}
	var ic discordgo.InteractionCreate
	if err := json.Unmarshal(data, &ic); err != nil {
		h.t.Fatal(err)
	}
	h.adapter.inflight.Add(1)
	h.adapter.handleRaw(h.session, &ic, data)
	h.adapter.inflight.Done()
	return h.fake.take()
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// puts are the bulk overwrites among requests.
func puts(reqs []sent) []sent {
	var out []sent
	for _, r := range reqs {
		if r.Method == http.MethodPut {
			out = append(out, r)
		}
	}
	return out
}

func TestRegisterBulkOverwritesPerGuild(t *testing.T) {
	h := newHarness(t)
	if err := h.adapter.Register(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := h.fake.take()
	if len(reqs) != 1 || reqs[0].Method != http.MethodPut ||
		reqs[0].Path != "/api/v10/applications/1000000000000000000/guilds/900000000000000001/commands" {
		t.Fatalf("requests %+v", reqs)
	}
	var names []string
	for _, c := range reqs[0].List {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	var want []string
	for _, c := range h.svc.Commands() {
		want = append(want, c.Name)
		if c.Name == "challenge" { // and its user command, after it
			want = append(want, "Challenge to Othello")
		}
	}
	if strings.Join(names, ",") != strings.Join(want, ",") || len(names) < 12 {
		t.Errorf("commands %v", names)
	}
	// Commands of one server take no contexts or installs: Discord
	// allows those on global commands only.
	for _, c := range reqs[0].List {
		if cmd := jsonOf(c); strings.Contains(cmd, `"contexts"`) || strings.Contains(cmd, `"integration_types"`) {
			t.Errorf("a server's command says where it works: %s", cmd)
		}
	}
	// Global ones do: everywhere and for both installs, but a tournament
	// only in servers that installed the bot, and the pairing pool in
	// servers and the bot's DM (where the bot posts on its own).
	for _, c := range Commands(h.svc.Commands(), true) {
		cmd := jsonOf(c)
		anywhere := strings.Contains(cmd, `"integration_types":[0,1]`) && strings.Contains(cmd, `"contexts":[0,1,2]`)
		serverOnly := strings.Contains(cmd, `"integration_types":[0]`) && strings.Contains(cmd, `"contexts":[0]`)
		botPosts := strings.Contains(cmd, `"integration_types":[0,1]`) && strings.Contains(cmd, `"contexts":[0,1]`) && !anywhere
		switch c.Name {
		case "tournament":
			if !serverOnly {
				t.Errorf("global command %s: %s", c.Name, cmd)
			}
		case "play":
			if !botPosts {
				t.Errorf("global command %s: %s", c.Name, cmd)
			}
		default:
			if !anywhere {
				t.Errorf("global command %s: %s", c.Name, cmd)
			}
		}
	}
	if start := jsonOf(reqs[0].List[0]); !strings.Contains(start, `{"name":"4x4","name_localizations":{"ja":"4×4"},"value":4}`) ||
		!strings.Contains(start, `{"name":"26x26","name_localizations":{"ja":"26×26"},"value":26}`) {
		t.Errorf("size is not a list of the even sizes: %s", start)
	}
	// Every command, option and choice is registered in Japanese too.
	for _, c := range reqs[0].List {
		cmd := c.(map[string]any)
		if cmd["type"] == float64(discordgo.UserApplicationCommand) {
			if jaOf(cmd["name_localizations"]) == "" || cmd["description"] != "" && cmd["description"] != nil {
				t.Errorf("the user command %v: no Japanese name, or a description", cmd)
			}
			continue
		}
		if jaOf(cmd["name_localizations"]) == "" || jaOf(cmd["description_localizations"]) == "" {
			t.Errorf("%v has no Japanese name or description", cmd["name"])
		}
		opts, _ := cmd["options"].([]any)
		for i := 0; i < len(opts); i++ {
			opt := opts[i].(map[string]any)
			if inner, _ := opt["options"].([]any); num(opt["type"]) == 1 {
				opts = append(opts, inner...) // a subcommand's options, checked in turn
			}
			if jaOf(opt["name_localizations"]) == "" || jaOf(opt["description_localizations"]) == "" {
				t.Errorf("%v %v has no Japanese name or description", cmd["name"], opt["name"])
			}
			chs, _ := opt["choices"].([]any)
			for _, ch := range chs {
				if jaOf(ch.(map[string]any)["name_localizations"]) == "" {
					t.Errorf("%v %v: choice %v has no Japanese name", cmd["name"], opt["name"], ch)
				}
			}
		}
	}
	// Switching to global registration clears the server's commands (the
	// global set is read first, for an Entry Point it must keep).
	h.adapter.guilds = nil
	h.adapter.Register(context.Background())
	reqs = puts(h.fake.take())
	if len(reqs) != 2 || reqs[0].Path != "/api/v10/applications/1000000000000000000/guilds/900000000000000001/commands" ||
		len(reqs[0].List) != 0 || reqs[1].Path != "/api/v10/applications/1000000000000000000/commands" || len(reqs[1].List) != len(h.svc.Commands())+1 {
		t.Errorf("global registration %+v", reqs)
	}
	// And back: the global commands are cleared.
	h.adapter.guilds = []string{"900000000000000001"}
	h.adapter.Register(context.Background())
	reqs = puts(h.fake.take())
	if len(reqs) != 2 || reqs[0].Path != "/api/v10/applications/1000000000000000000/commands" || len(reqs[0].List) != 0 {
		t.Errorf("back to the server %+v", reqs)
	}
}

func TestInteractionsEndToEnd(t *testing.T) {
	h := newHarness(t)

	// /start: deferred (the engine may think), then the game message edited in.
	reqs := h.deliver("start.json", nil)
	if len(reqs) != 2 || reqs[0].Path != "/api/v10/interactions/1100000000000000001/tok-start/callback" ||
		reqs[0].Body["type"] != float64(5) {
		t.Fatalf("start: %+v", reqs)
	}
	edit := reqs[1]
	if edit.Method != http.MethodPatch || edit.Path != "/api/v10/webhooks/1000000000000000000/tok-start/messages/@original" {
		t.Fatalf("start edit: %+v", edit)
	}
	body := jsonOf(edit.Body)
	for _, want := range []string{"Alice started a game against Bot (level 1).", "Game #1", `"custom_id":"move:1:0"`,
		`"custom_id":"resign:1:0"`, `"value":"c2"`} {
		if !strings.Contains(body, want) {
			t.Errorf("start edit lacks %s: %s", want, body)
		}
	}

	// Autocomplete answers at once with the caller's legal moves.
	reqs = h.deliver("autocomplete.json", nil)
	if len(reqs) != 1 || reqs[0].Body["type"] != float64(8) || !strings.Contains(jsonOf(reqs[0].Body), `"value":"d5"`) {
		t.Errorf("autocomplete: %+v", reqs)
	}

	// The select menu, answered at once: the game message updated in place
	// in the response itself (UPDATE_MESSAGE), no acknowledgement and edit.
	reqs = h.deliver("select.json", nil)
	if len(reqs) < 1 || reqs[0].Body["type"] != float64(7) || !strings.Contains(jsonOf(reqs[0].Body), `"custom_id":"move:1:2"`) {
		t.Fatalf("select: %+v", reqs)
	}

	// The same (now stale) menu again: a kind note only alice sees, as the
	// response itself.
	reqs = h.deliver("select.json", nil)
	if len(reqs) != 1 || reqs[0].Body["type"] != float64(4) || !strings.HasSuffix(reqs[0].Path, "/tok-select/callback") {
		t.Fatalf("stale select: %+v", reqs)
	}
	if data, _ := reqs[0].Body["data"].(map[string]any); data["flags"] != float64(64) || !strings.Contains(jsonOf(data), "out of date") {
		t.Errorf("stale select: %+v", reqs)
	}

	// The Resign button: an only-you confirmation, as the response.
	reqs = h.deliver("button.json", nil)
	if len(reqs) != 1 || reqs[0].Body["type"] != float64(4) {
		t.Fatalf("resign button: %+v", reqs)
	}
	if data, _ := reqs[0].Body["data"].(map[string]any); data["flags"] != float64(64) || !strings.Contains(jsonOf(data), `"custom_id":"resign-yes:1"`) {
		t.Errorf("resign confirmation: %s", jsonOf(data))
	}

	// /move by someone not playing: the public acknowledgement is removed
	// and replaced by an only-you refusal.
	reqs = h.deliver("move_by_bob.json", nil)
	if len(reqs) != 3 || reqs[1].Method != http.MethodDelete || reqs[2].Body["flags"] != float64(64) ||
		!strings.Contains(jsonOf(reqs[2].Body), "You are not playing in this game") {
		t.Errorf("bob's move: %+v", reqs)
	}

	// Confirming the resignation: the confirmation is updated and the result
	// posted in the channel.
	reqs = h.deliver("button.json", func(m map[string]any) {
		m["data"].(map[string]any)["custom_id"] = "resign-yes:1"
	})
	var posted, updated bool
	for _, r := range reqs {
		if strings.HasPrefix(r.Path, "/api/v10/channels/800000000000000001/messages") && strings.Contains(jsonOf(r.Body), "Alice resigned.") {
			posted = true
		}
		// The confirmation is updated in place in the response itself.
		if strings.HasSuffix(r.Path, "/tok-button/callback") && r.Body["type"] == float64(7) && strings.Contains(jsonOf(r.Body), "You resigned game #1.") {
			updated = true
		}
	}
	if !posted || !updated {
		t.Errorf("resign confirm: %+v", reqs)
	}
}

// A press whose answer takes longer than inlineWithin (the engine
// thinking at level 20) is acknowledged first, then answered by editing
// the message: Discord never waits on the engine.
func TestSlowPressAcknowledgedFirst(t *testing.T) {
	h := newHarness(t)
	h.deliver("start.json", func(m map[string]any) {
		m["data"].(map[string]any)["options"].([]any)[0].(map[string]any)["value"] = 20
	})
	reqs := h.deliver("select.json", nil)
	if len(reqs) < 2 || reqs[0].Body["type"] != float64(6) {
		t.Fatalf("a slow move's first request: %+v", reqs)
	}
	if reqs[1].Method != http.MethodPatch || !strings.HasSuffix(reqs[1].Path, "/tok-select/messages/@original") ||
		!strings.Contains(jsonOf(reqs[1].Body), `"custom_id":"move:1:2"`) {
		t.Errorf("then the edit: %+v", reqs[1])
	}
}

// Interactions the bot does not handle, and ones without a user, are
// ignored without a crash.
func TestOddInteractions(t *testing.T) {
	h := newHarness(t)
	if reqs := h.deliver("start.json", func(m map[string]any) { delete(m, "member") }); len(reqs) != 0 {
		t.Errorf("no user: %+v", reqs)
	}
	if reqs := h.deliver("start.json", func(m map[string]any) { m["type"] = 1 }); len(reqs) != 0 {
		t.Errorf("ping: %+v", reqs)
	}
	// In a group DM through a user's install (no guild, no member) the
	// game starts in the reply, and nothing is posted in the channel.
	reqs := h.deliver("start.json", func(m map[string]any) {
		delete(m, "guild_id")
		m["user"] = m["member"].(map[string]any)["user"]
		delete(m, "member")
		m["context"] = 2
		m["authorizing_integration_owners"] = map[string]any{"1": m["user"].(map[string]any)["id"]}
	})
	if len(reqs) != 2 || !strings.HasSuffix(reqs[1].Path, "/messages/@original") || !strings.Contains(jsonOf(reqs[1].Body), "started a game") {
		t.Errorf("a group DM: %+v", reqs)
	}
	for _, r := range reqs {
		if strings.Contains(r.Path, "/channels/") {
			t.Errorf("a request to the channel of a group DM: %s %s", r.Method, r.Path)
		}
	}
	// A user option that is not a Discord id (100 KB of text) is refused.
	reqs = h.deliver("start.json", func(m map[string]any) {
		d := m["data"].(map[string]any)
		d["name"] = "challenge"
		d["options"] = []any{map[string]any{"name": "opponent", "type": 6, "value": strings.Repeat("9", 100<<10)}}
	})
	if len(reqs) != 1 || !strings.Contains(jsonOf(reqs[0].Body), "That is not a Discord user") {
		t.Errorf("a non-snowflake opponent: %+v", reqs)
	}
	reqs = h.deliver("start.json", func(m map[string]any) { m["data"].(map[string]any)["name"] = "fly" })
	if len(reqs) != 3 || !bytes.Contains([]byte(jsonOf(reqs[2].Body)), []byte("I don't know the command /fly")) {
		t.Errorf("unknown command: %+v", reqs)
	}
}

// A board picture goes as a file of the message, shown in the embed; an
// edit replaces the earlier picture instead of adding to it.
func TestPictureAttachment(t *testing.T) {
	h := newHarness(t)
	reqs := h.deliver("start.json", func(m map[string]any) {
		opts := m["data"].(map[string]any)["options"].([]any)
		m["data"].(map[string]any)["options"] = append(opts, map[string]any{"name": "style", "type": 3, "value": "image"})
	})
	if len(reqs) != 2 || len(reqs[1].Files) != 1 || reqs[1].Files[0] != "board-1-0.png" {
		t.Fatalf("start with a picture: %+v", reqs)
	}
	if _, err := png.DecodeConfig(bytes.NewReader(reqs[1].FileData[0])); err != nil {
		t.Errorf("attachment is not a PNG: %v", err)
	}
	body := jsonOf(reqs[1].Body)
	// The file is listed among the attachments by its place in the upload
	// (API v10 requires it), and no earlier attachment is kept.
	if !strings.Contains(body, `"image":{"url":"attachment://board-1-0.png"}`) || !attachmentsAre(reqs[1].Body, "board-1-0.png") {
		t.Errorf("edit body: %s", body)
	}
	reqs = h.deliver("select.json", nil)
	if len(reqs) != 2 || len(reqs[1].Files) != 1 || reqs[1].Files[0] != "board-1-2.png" || !attachmentsAre(reqs[1].Body, "board-1-2.png") {
		t.Errorf("move with a picture: %+v", reqs)
	}
}

func attachmentsAre(body map[string]any, names ...string) bool {
	list, ok := body["attachments"].([]any)
	if !ok || len(list) != len(names) {
		return false
	}
	for i, a := range list {
		m := a.(map[string]any)
		if m["id"] != fmt.Sprint(i) || m["filename"] != names[i] {
			return false
		}
	}
	return true
}

// jaOf is the Japanese entry of a localizations object.
func jaOf(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["ja"].(string)
	return s
}

func num(v any) float64 { f, _ := v.(float64); return f }
