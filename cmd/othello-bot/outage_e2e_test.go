package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
	"othello-bot/internal/pgtest"
	"othello-bot/storage"
)

// Time during which the bot could not take a move is never charged,
// whatever kept it away: a restart, its database gone, its gateway
// connection lost. Each test plays a 1+0 game into alice's timed turn,
// takes the bot away for OTHELLO_OUTAGE (2s unless set: 9s and 60s are
// measured by hand, see docs/operators.md), and has alice move once it is
// back: she is charged at most what her turn ran while the bot could take
// her move, and a second.

func outageLength() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("OTHELLO_OUTAGE")); err == nil && d > 0 {
		return d
	}
	return 2 * time.Second
}

// bulletTurn is alice's timed turn in a 1+0 game with bob in the lobby.
type bulletTurn struct {
	t         *testing.T
	srv       *discordtest.Server
	database  string
	turnStart time.Time
}

func startBulletTurn(t *testing.T, r *botRun, srv *discordtest.Server, database string) *bulletTurn {
	t.Helper()
	r.do(srv.Command(alice, lobby, "challenge", map[string]any{"opponent": bob, "size": 8, "color": "black", "time": "1+0"}))
	msgs := srv.Messages(lobby, "")
	accept, _ := msgs[len(msgs)-1].Button("Accept")
	r.do(srv.Click(bob, msgs[len(msgs)-1], accept))
	for _, u := range []discordtest.User{alice, bob} { // the first moves are not timed
		m := liveGame(srv, lobby)
		id, values, _ := m.Menu()
		r.do(srv.Select(u, m, id, values[0]))
	}
	b := &bulletTurn{t: t, srv: srv, database: database}
	b.turnStart = b.game().TurnStartedAt
	return b
}

// game reads the lobby's game from the database, as it is stored.
func (b *bulletTurn) game() (g struct {
	TurnStartedAt time.Time
	Left          [2]time.Duration
	Plies         int
}) {
	b.t.Helper()
	ctx := context.Background()
	store, err := storage.Open(ctx, b.database, storage.Options{})
	if err != nil {
		b.t.Fatal(err)
	}
	defer store.Close()
	rec, err := store.ActiveGame(ctx, lobby)
	if err != nil {
		b.t.Fatalf("the game: %v", err)
	}
	g.TurnStartedAt, g.Left, g.Plies = rec.TurnStartedAt, rec.Left, len(rec.Plies())
	return g
}

// aliceMoves plays alice's move once the bot takes it (a move the bot
// answered with an error is sent again, as a player would) and returns
// what her clock was charged and when the move was sent.
func (b *bulletTurn) aliceMoves(r *botRun) (charged time.Duration, sent time.Time) {
	b.t.Helper()
	before := b.game().Plies
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := liveGame(b.srv, lobby)
		id, values, _ := m.Menu()
		sent = time.Now()
		r.do(b.srv.Select(alice, m, id, values[0]))
		if g := b.game(); g.Plies > before {
			return time.Minute - g.Left[0], sent
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("alice's move was not taken; log:\n%s", r.logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// check holds the charge to the rule and logs the figures.
func (b *bulletTurn) check(what string, down, back time.Time, charged time.Duration, sent time.Time) {
	b.t.Helper()
	ran := down.Sub(b.turnStart) + sent.Sub(back) // alice's turn while the bot could take her move
	b.t.Logf("%s for %v (the bot away %v): alice charged %v; her turn ran %v while the bot could take her move",
		what, outageLength(), back.Sub(down).Round(time.Millisecond), charged, ran.Round(time.Millisecond))
	if charged > ran+time.Second {
		b.t.Errorf("%s: alice was charged %v, more than the %v her turn ran while the bot could take a move, and a second",
			what, charged, ran.Round(time.Millisecond))
	}
}

// inBulletTurn starts the bot on database ("" for a SQLite file) and
// plays into alice's timed turn, 300 ms of which then pass.
func inBulletTurn(t *testing.T, database string) (*discordtest.Server, config.Config, *botRun, *bulletTurn) {
	srv := newFake(t)
	c := testBotConfig(srv, t.TempDir())
	c.Threads = false
	if database != "" {
		c.Database = database
	}
	r := startBot(t, srv, c)
	b := startBulletTurn(t, r, srv, c.Database)
	time.Sleep(300 * time.Millisecond)
	return srv, c, r, b
}

func TestDiscordGatewayLossChargesNoClock(t *testing.T) {
	srv, _, r, b := inBulletTurn(t, "")
	down := time.Now()
	srv.Unreachable(outageLength())
	if !srv.Connected(outageLength() + 2*time.Minute) {
		t.Fatal("the bot did not come back")
	}
	back := time.Now()
	charged, sent := b.aliceMoves(r)
	b.check("the gateway lost", down, back, charged, sent)
	checkClean(t, srv, r)
}

func TestDiscordRestartChargesNoClock(t *testing.T) {
	srv, c, r, b := inBulletTurn(t, "")
	down := time.Now()
	r.stop()
	time.Sleep(outageLength())
	r = startBot(t, srv, c)
	back := time.Now()
	charged, sent := b.aliceMoves(r)
	b.check("a restart", down, back, charged, sent)
	checkClean(t, srv, r)
}

// PostgreSQL stopped as a crash would and started again: moves sent
// meanwhile fail (the player is told something went wrong), no flag falls,
// and the time is given back.
func TestDiscordDatabaseOutageChargesNoClock(t *testing.T) {
	server, err := pgtest.Start(pgtest.Options{})
	if errors.Is(err, pgtest.ErrNotInstalled) && !pgtest.Required() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	database, err := server.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	srv, _, r, b := inBulletTurn(t, database)
	down := time.Now()
	if err := server.Down(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(outageLength() - time.Since(down))
	if err := server.Up(); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	charged, sent := b.aliceMoves(r)
	b.check("PostgreSQL stopped", down, back, charged, sent)
	if !strings.Contains(r.logs.String(), "the bot could take no move: time given back") {
		t.Errorf("no outage given back in the log:\n%s", r.logs)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("the fake Discord refused or flagged %d requests:\n%s", len(v), strings.Join(v, "\n"))
	}
}
