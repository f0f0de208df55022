package ranks

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/place"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

// core is the shared flow as rating roles see it; its background ends
// when the process "dies".
type core struct{ ctx context.Context }

func (c core) Now() time.Time { return time.Now() }
func (c core) Logger(context.Context) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
func (c core) PublicPrinter(context.Context, string) *catalog.Printer {
	return catalog.For(catalog.English)
}
func (c core) Background() context.Context { return c.ctx }

// discordRoles is a server's roles as Discord keeps them: giving a role
// twice, or taking one not held, is the same as once (Discord answers 204
// to both). die, when set, runs after the n-th role given: the process is
// killed with Discord's change made and no answer heard.
type discordRoles struct {
	mu    sync.Mutex
	names map[string]string          // role name → id
	held  map[string]map[string]bool // member → role ids
	adds  int
	dieAt int
	die   func()
}

func newDiscordRoles() *discordRoles {
	return &discordRoles{names: map[string]string{}, held: map[string]map[string]bool{}}
}

func (d *discordRoles) CreateRole(_ context.Context, _, name string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := fmt.Sprintf("role%d", len(d.names)+1)
	d.names[name] = id
	return id, nil
}

func (d *discordRoles) RoleNamed(_ context.Context, _, name string) (string, bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.names[name]
	return id, ok, nil
}

func (d *discordRoles) AddMemberRole(ctx context.Context, _, user, role string) error {
	d.mu.Lock()
	if d.held[user] == nil {
		d.held[user] = map[string]bool{}
	}
	d.held[user][role] = true
	d.adds++
	die := d.die != nil && d.adds == d.dieAt
	d.mu.Unlock()
	if die {
		d.die()
		return ctx.Err() // the answer never heard
	}
	return nil
}

func (d *discordRoles) RemoveMemberRole(_ context.Context, _, user, role string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.held[user], role)
	return nil
}

// on Discord: each member's roles, "member:role" sorted.
func (d *discordRoles) onDiscord() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for u, roles := range d.held {
		for r := range roles {
			out = append(out, u+":"+r)
		}
	}
	sort.Strings(out)
	return out
}

// recorded: what the store says each member holds, the same way.
func recorded(t *testing.T, store *storage.Store, members []string) []string {
	t.Helper()
	var out []string
	for _, m := range members {
		held, err := store.HeldRanks(context.Background(), "g", m)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range held {
			out = append(out, m+":"+r.RoleID)
		}
	}
	sort.Strings(out)
	return out
}

// A kill while /settings roles:on gives every member their roles, just
// after Discord gave one: the start after it finishes the change (the role
// is recorded, so it can be taken again) and gives the rest theirs.
// Before, the role stood on Discord unrecorded, never to be taken, and the
// others never got theirs.
func TestRolesSurviveAKill(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	store, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var members []string
	scope := record.SpeedScope("g", timecontrol.Blitz)
	for i := range 12 {
		id := fmt.Sprintf("%d", 7000+i)
		members = append(members, id)
		if _, err := raw.Exec(`INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)`, id, "p"+id); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(`INSERT INTO ratings (player_id, scope, rating, deviation, volatility, games, wins, losses, draws, updated_at)
			VALUES (?, ?, ?, 60, 0.06, 30, 15, 15, 0, ?)`, id, scope, 1100+100*i, time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}

	discord := newDiscordRoles()
	ctx, kill := context.WithCancel(context.Background())
	discord.dieAt, discord.die = 4, kill
	first := New(core{ctx}, store, discord)
	req := bot.Request{GuildID: "g", Options: map[string]string{"roles": "on"}, Place: place.Server,
		MemberPermissions: bot.PermManageGuild}
	resp, handled, err := first.Settings(ctx, req)
	if err != nil || !handled || resp.Message == nil || !strings.Contains(resp.Message.Content, "on") {
		t.Fatalf("roles:on answered %+v %v %v", resp.Message, handled, err)
	}
	first.Wait()
	if got := discord.onDiscord(); len(got) != 4 {
		t.Fatalf("before the kill Discord gave %d roles, want 4: %v", len(got), got)
	}

	// The next start: its first tick reconciles.
	discord.die = nil
	second := New(core{context.Background()}, store, discord)
	for _, j := range second.Jobs() {
		j.Run(context.Background(), time.Now())
	}
	second.Wait() // the reconcile, then the members' roles it carried on
	onDiscord, inStore := discord.onDiscord(), recorded(t, store, members)
	if len(onDiscord) != len(members) || strings.Join(onDiscord, " ") != strings.Join(inStore, " ") {
		t.Fatalf("after the start:\non Discord %v\nrecorded   %v\n(want every one of the %d members in a role, as recorded)",
			onDiscord, inStore, len(members))
	}
	if p, err := store.PendingRanks(context.Background(), 10); err != nil || len(p) != 0 {
		t.Fatalf("still pending: %+v %v", p, err)
	}
	if b, err := store.RolesBackfills(context.Background()); err != nil || len(b) != 0 {
		t.Fatalf("still giving: %v %v", b, err)
	}
}
