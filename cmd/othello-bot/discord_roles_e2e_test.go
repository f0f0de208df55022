package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/ranks"
	"othello-bot/record"
	"othello-bot/storage"
	"othello-bot/timecontrol"
)

// Rating roles through the real run wiring and the fake Discord: a server
// of 500 rated members turns them on, and every member is given the role
// of their blitz band — the roles made once each (one the admins had made
// already is adopted), every change paced
// under Discord's limits (no 429), nothing else touched. Then the bot's
// own role is moved below them: a game's role change is refused, and
// /settings says why.
func TestDiscordRatingRolesForAServer(t *testing.T) {
	members := 500
	if testing.Short() {
		members = 60
	}
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	want := map[string]string{}
	users := seedBlitzRatings(t, c.Database, srv.GuildID, "72", members, func(i int) float64 { return 1000 + float64(i*1300/members) })
	for i, u := range users {
		band := ranks.Band(1000+float64(i*1300/members), ranks.DefaultStep)
		want[u.ID] = fmt.Sprintf("Blitz %d–%d", band, band+ranks.DefaultStep-1)
	}
	srv.AddMembers(append(users, alice, bob)...)
	srv.SetBotRolePosition(10)
	admins := srv.AddRole("Admins", 5)                     // the server's own: never touched
	srv.AddRole(fmt.Sprintf("Blitz %d–%d", 1000, 1199), 2) // made by the admins before: adopted
	srv.SetGuildPermissions(discordtest.ManageRoles)
	r := startBot(t, srv, c)

	began := time.Now()
	on := srv.Reply(r.do(srv.Command(alice, lobby, "settings", map[string]any{"roles": "on"})))
	if on == nil || !strings.Contains(on.Text(), "Rating roles are on") {
		t.Fatalf("/settings roles:on: %+v; log:\n%s", on, r.logs)
	}
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		done := 0
		for _, u := range users {
			if got := srv.MemberRoles(u.ID); len(got) == 1 && got[0] == want[u.ID] {
				done++
			}
		}
		if done == len(users) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d members have their role; log:\n%s", done, len(users), r.logs)
		}
	}
	t.Logf("%d members given their roles in %s", members, time.Since(began).Round(100*time.Millisecond))
	bands := map[string]bool{}
	for _, role := range srv.Roles() {
		if bands[role.Name] {
			t.Errorf("two roles named %q: the admins' one was not adopted", role.Name)
		}
		bands[role.Name] = true
		if role.ID == admins && role.Name != "Admins" {
			t.Errorf("the server's own role was changed: %+v", role)
		}
	}
	if len(bands) != 1+len(unique(want)) {
		t.Errorf("%d roles for %d bands: %v", len(srv.Roles()), len(unique(want)), bands)
	}
	if n := len(srv.RateLimited()); n > 0 {
		t.Fatalf("%d requests answered 429, the first %q", n, srv.RateLimited()[0])
	}
	checkClean(t, srv, r)

	// The admins move the bot's role below the rating roles.
	srv.SetBotRolePosition(0)
	r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "color": "black", "time": "3+2"})) // rated
	for _, m := range srv.Messages(lobby, bob.ID) {
		if id, ok := m.Button("Accept"); ok {
			r.do(srv.Click(bob, m, id))
		}
	}
	for i := 0; i < 4; i++ {
		m := liveGame(srv, lobby)
		id, values, _ := m.Menu()
		r.do(srv.Select(playerToMove(t, m, map[string]discordtest.User{"alice": alice, "bob": bob}), m, id, values[0]))
	}
	resign := srv.Reply(r.do(srv.Command(bob, lobby, "resign", nil)))
	if id, ok := resign.Button("Resign"); ok {
		r.do(srv.Click(bob, resign, id))
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		shown := srv.Reply(r.do(srv.Command(alice, lobby, "settings", nil)))
		if shown != nil && strings.Contains(shown.Text(), "Discord refused me a role") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/settings does not say the bot's role is too low: %+v", shown)
		}
	}
}

func unique(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}

// A server at Discord's 250 roles: the first rating role the bot tries to
// make is refused (400 30005), and it stops there — one refused request,
// not one per member (it was 1,000 for 500 members) — says so once in the
// log, and /settings tells the admins what to do.
func TestDiscordRatingRolesStopAtTheRoleLimit(t *testing.T) {
	const members = 60
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	users := seedBlitzRatings(t, c.Database, srv.GuildID, "73", members, func(i int) float64 { return 800 + float64(i*30) })
	srv.AddMembers(append(users, alice)...)
	srv.SetBotRolePosition(300)
	for i := 0; len(srv.Roles())+1 < discordtest.MaxRoles; i++ {
		srv.AddRole(fmt.Sprintf("role %d", i), 1)
	}
	srv.SetGuildPermissions(discordtest.ManageRoles)
	r := startBot(t, srv, c)

	r.do(srv.Command(alice, lobby, "settings", map[string]any{"roles": "on"}))
	var shown string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		shown = srv.Reply(r.do(srv.Command(alice, lobby, "settings", map[string]any{"scope": "server"}))).Text()
		if strings.Contains(shown, "most roles (250)") && !strings.Contains(shown, "Giving") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/settings never told of the role limit: %q; log:\n%s", shown, r.logs)
		}
	}
	reqs := srv.Requests()
	if n := reqs["POST /guilds/{id}/roles"]; n != 1 {
		t.Errorf("%d role creations asked of a server at its limit, want 1", n)
	}
	if n := reqs["GET /guilds/{id}/roles"]; n > 2 {
		t.Errorf("%d reads of the server's roles for %d members", n, members)
	}
	if n := strings.Count(r.logs.String(), "Discord refused them on this server"); n != 1 {
		t.Errorf("the refusal logged %d times, want once", n)
	}
}

// seedBlitzRatings makes n members (ids prefix…) with a blitz rating on
// the server, rating(i) for the i-th, in a fresh database at path.
func seedBlitzRatings(t *testing.T, path, guildID, prefix string, n int, rating func(int) float64) []discordtest.User {
	t.Helper()
	st, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	scope := record.SpeedScope(guildID, timecontrol.Blitz)
	now := time.Now().UnixMilli()
	var users []discordtest.User
	for i := range n {
		u := discordtest.User{ID: fmt.Sprintf("%s%017d", prefix, i), Name: fmt.Sprintf("member%03d", i)}
		if _, err := db.Exec(`INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, u.ID, u.Name, now, now); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO ratings (player_id, scope, rating, deviation, volatility, games, wins, losses, draws, updated_at)
			VALUES (?, ?, ?, 60, 0.06, 20, 10, 10, 0, ?)`, u.ID, scope, rating(i), now); err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	return users
}
