package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"othello-bot/app"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"othello-bot/bot/discord/discordtest"
	"othello-bot/config"
	"othello-bot/game"
	"othello-bot/internal/freeport"
	"othello-bot/internal/pgtest"
	"othello-bot/storage"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const botChildEnv = "OTHELLO_BOT_CHILD"

// TestBotChild is a bot process of the tests that run the bot in child
// processes (the scale-out tests, the crash test): it runs serveDiscord
// with the config in its environment until SIGTERM or SIGKILL.
func TestBotChild(t *testing.T) {
	raw := os.Getenv(botChildEnv)
	if raw == "" {
		t.Skip("only runs as a child of the tests that start bot processes")
	}
	var c config.Config
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if err := serveDiscord(ctx, c, testToken, logger); err != nil {
		t.Fatal(err)
	}
}

// scaleRun is a set of bot processes sharing a database, and the games
// they played.
type scaleRun struct {
	srv      *discordtest.Server
	dir      string
	database string
	procs    []*exec.Cmd
	logs     []*syncBuffer
	guilds   []string
	channels []string // one per game, with its guild
	// latencies of every human move: from the interaction to the
	// complete answer
	mu        sync.Mutex
	latencies []time.Duration
	moves     map[string]int // human moves answered, by thread
}

// guildOnShard returns a guild id that Discord routes to shard k of n.
func guildOnShard(k, n, i int) string {
	id := (uint64(3000+i*n+k) << 22) | uint64(i)
	for discordtest.ShardOf(strconv.FormatUint(id, 10), n) != k {
		id += 1 << 22
	}
	return strconv.FormatUint(id, 10)
}

// startScale starts processes bot processes on database, the shards split
// between them, and a channel per game spread over guilds on every shard.
func startScale(t testing.TB, database string, processes, games int) *scaleRun {
	return startScaleWith(t, database, processes, games, discordtest.AllText|discordtest.CreatePublicThreads)
}

// startScaleWith is startScale with the bot's permissions in the games'
// channels (without threads, each game plays in its channel).
func startScaleWith(t testing.TB, database string, processes, games int, perms int64) *scaleRun {
	srv := discordtest.New(testToken)
	t.Cleanup(srv.Close)
	r := &scaleRun{srv: srv, dir: t.TempDir(), database: database, moves: map[string]int{}}
	for k := 0; k < processes; k++ {
		for i := 0; i < 2; i++ {
			r.guilds = append(r.guilds, guildOnShard(k, processes, i))
		}
	}
	for i := 0; i < games; i++ {
		ch := strconv.Itoa(8100000000000000000 + i)
		srv.AddGuildChannel(r.guilds[i%len(r.guilds)], ch, perms)
		r.channels = append(r.channels, ch)
	}
	for k := 0; k < processes; k++ {
		c := config.Default()
		c.Database = database
		c.ResultsLog = filepath.Join(r.dir, fmt.Sprintf("results-%d.log", k))
		c.Instance = fmt.Sprintf("process-%d", k)
		c.ShardCount = config.ShardCount(processes)
		c.Shards = strconv.Itoa(k)
		c.GuildIDs = r.guilds
		c.DiscordAPI = srv.URL()
		c.DefaultLevel = 1
		c.EngineMoveTime = config.Duration(50 * time.Millisecond)
		c.ArchiveAfter = config.Duration(time.Millisecond)
		c.MaxGamesPerPlayer = 100
		c.ImageDir = filepath.Join(r.dir, "boards")
		raw, _ := json.Marshal(c)
		cmd := exec.Command(os.Args[0], "-test.run=^TestBotChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), botChildEnv+"="+string(raw))
		logs := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = logs, logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.procs = append(r.procs, cmd)
		r.logs = append(r.logs, logs)
		if !srv.Connected(30 * time.Second) {
			r.stop()
			t.Fatalf("process %d did not connect; its log:\n%s", k, logs)
		}
	}
	t.Cleanup(r.stop)
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Shards()) < processes || len(srv.Commands(r.guilds[len(r.guilds)-1])) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("shards connected %v; logs:\n%s", srv.Shards(), r.allLogs())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return r
}

func (r *scaleRun) allLogs() string {
	var b strings.Builder
	for i, l := range r.logs {
		fmt.Fprintf(&b, "--- process %d\n%s", i, l)
	}
	return b.String()
}

// stop stops every process with SIGTERM, as a deploy does.
func (r *scaleRun) stop() {
	for _, p := range r.procs {
		p.Process.Signal(syscall.SIGTERM)
	}
	for _, p := range r.procs {
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(40 * time.Second):
			p.Process.Kill()
			<-done
		}
	}
	r.procs = nil
}

// playAll plays a game against the bot (level 1, 6x6) in every channel at
// once, each from /start to the end by its own player.
func (r *scaleRun) playAll(t testing.TB) {
	var wg sync.WaitGroup
	errs := make(chan error, len(r.channels))
	for i, ch := range r.channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.playOne(discordtest.User{ID: strconv.Itoa(7100000000000000000 + i), Name: fmt.Sprintf("player%d", i)}, ch); err != nil {
				errs <- fmt.Errorf("channel %s: %w", ch, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%v", err)
	}
	if t.Failed() {
		t.Fatalf("violations %q; logs:\n%s", r.srv.Violations(), r.allLogs())
	}
}

func (r *scaleRun) playOne(u discordtest.User, channel string) error {
	ia := r.srv.Command(u, channel, "start", map[string]any{"level": 1, "size": 6, "color": "black"})
	if err := r.srv.Wait(ia, 120*time.Second); err != nil {
		return err
	}
	thread := ""
	for _, th := range r.srv.Threads() {
		if th.Parent == channel {
			thread = th.ID
		}
	}
	if thread == "" {
		thread = channel // no threads here: the game plays in the channel
	}
	for i := 0; i < 100; i++ {
		m := liveGame(r.srv, thread)
		if m == nil {
			return nil // over: the final message has no menu
		}
		id, values, _ := m.Menu()
		start := time.Now()
		ia := r.srv.Select(u, m, id, values[len(values)/2])
		if err := r.srv.Wait(ia, 30*time.Second); err != nil {
			return err
		}
		r.mu.Lock()
		r.latencies = append(r.latencies, time.Since(start))
		r.moves[thread]++
		r.mu.Unlock()
	}
	return fmt.Errorf("the game did not end")
}

// Three processes share one PostgreSQL database, one gateway shard each;
// 100 games are played at once through the fake Discord, each guild's
// interactions reaching the process that runs its shard. Afterwards every
// move is in the database once, every thread was archived once (a timer,
// fired by whichever process held the lease), every challenge expired once
// (after the first holder of the lease was killed), and every game is in
// exactly one process's results log and in `results`.
func TestScaleOutThreeProcessesOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three bot processes")
	}
	database := pgtest.Database(t)
	const games = 100
	r := startScale(t, database, 3, games)
	r.playAll(t)
	challengeTimers(t, r)
	checkScaleRun(t, r, games)
}

// challengeTimers posts a challenge in a channel of every guild (so on
// every shard, each through its own process), kills the first process,
// moves the challenges' expiry into the past in the database, and checks
// that each expires exactly once: one edit of its message, by whichever
// process holds the timers now.
func challengeTimers(t *testing.T, r *scaleRun) {
	ctx := context.Background()
	var msgs []*discordtest.Message
	for i := range r.guilds {
		ch := r.channels[i] // channel i is in guild i
		u := discordtest.User{ID: strconv.Itoa(7200000000000000000 + i), Name: fmt.Sprintf("challenger%d", i)}
		opp := discordtest.User{ID: strconv.Itoa(7300000000000000000 + i), Name: fmt.Sprintf("opponent%d", i)}
		ia := r.srv.Command(u, ch, "challenge", map[string]any{"opponent": opp, "size": 8, "color": "black", "rated": false})
		if err := r.srv.Wait(ia, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		var m *discordtest.Message
		for _, cand := range r.srv.Messages(ch, "") {
			if _, ok := cand.Button("Accept"); ok && !cand.Ephemeral {
				m = cand
			}
		}
		if m == nil {
			t.Fatalf("no challenge message in %s", ch)
		}
		msgs = append(msgs, m)
	}
	// The first process, which took the timers lease first, dies without a
	// word: another takes the lease over once it runs out.
	r.procs[0].Process.Kill()
	r.procs[0].Wait()
	before := map[string]int{}
	for _, m := range msgs {
		before[m.ID] = r.srv.Message(m.ID).Edits
	}
	db, err := sql.Open("pgx", r.database)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.ExecContext(ctx, `UPDATE challenges SET expires_at = 0 WHERE status = 'pending'`)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := res.RowsAffected()
	db.Close()
	if n != int64(len(msgs)) {
		t.Fatalf("moved %d challenges' expiry (%v), want %d", n, err, len(msgs))
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, m := range msgs {
		for !strings.Contains(r.srv.Message(m.ID).Text(), "expired") {
			if time.Now().After(deadline) {
				t.Fatalf("challenge message %s did not expire: %q", m.ID, r.srv.Message(m.ID).Text())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(2 * app.TickEvery) // any second firing would come now
	for _, m := range msgs {
		if e := r.srv.Message(m.ID).Edits - before[m.ID]; e != 1 {
			t.Errorf("challenge message %s edited %d times at its expiry, want once", m.ID, e)
		}
	}
}

func checkScaleRun(t *testing.T, r *scaleRun, games int) {
	ctx := context.Background()
	// The timers: every finished game's thread archived, once.
	deadline := time.Now().Add(60 * time.Second)
	for {
		archived, extra := 0, 0
		for _, th := range r.srv.Threads() {
			if th.ArchiveCalls >= 1 {
				archived++
			}
			if th.ArchiveCalls > 1 {
				extra++
			}
		}
		if extra > 0 {
			t.Fatalf("%d threads archived more than once", extra)
		}
		if archived == games {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d threads archived; logs:\n%s", archived, games, r.allLogs())
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.stop()

	st, err := storage.Open(ctx, r.database, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Every game finished with every move once: the human moves answered
	// are the human plies stored, and each game replays to its result.
	var dbLines []string
	if err := st.ResultLines(ctx, time.Time{}, func(l string) error { dbLines = append(dbLines, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(dbLines) != games {
		t.Errorf("%d results in the database, want %d", len(dbLines), games)
	}
	for thread, n := range r.moves {
		home, err := st.LatestHome(ctx, thread)
		if err != nil {
			t.Fatalf("thread %s: %v", thread, err)
		}
		g, err := st.Game(ctx, home.GameID)
		if err != nil {
			t.Fatalf("game %d: %v", home.GameID, err)
		}
		human := 0
		for _, p := range g.Plies() {
			if !g.Side(p.Color).IsBot() && p.Square != game.Pass {
				human++
			}
		}
		if human != n || g.Result == nil {
			t.Errorf("game %d: %d human moves stored, %d answered; result %v", g.ID, human, n, g.Result)
		}
	}
	// Every game in exactly one process's log, and those lines are the
	// database's.
	seen := map[string]int{}
	var logLines []string
	for k := range r.logs {
		f, err := os.Open(filepath.Join(r.dir, fmt.Sprintf("results-%d.log", k)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			seen[sc.Text()]++
			logLines = append(logLines, sc.Text())
			n++
		}
		f.Close()
		t.Logf("process %d logged %d games", k, n)
	}
	for _, l := range dbLines {
		if seen[l] != 1 {
			t.Errorf("in %d logs: %s", seen[l], l)
		}
	}
	if len(logLines) != games {
		t.Errorf("%d lines in the logs, want %d", len(logLines), games)
	}
	if v := r.srv.Violations(); len(v) > 0 {
		t.Errorf("the fake Discord refused %d requests:\n%s", len(v), strings.Join(v, "\n"))
	}
	for k, l := range r.logs {
		if strings.Contains(l.String(), "level=ERROR") {
			t.Errorf("errors in process %d's log:\n%s", k, l)
		}
	}
}

// latencyStats are the median and the 99th percentile of latencies.
func latencyStats(d []time.Duration) (p50, p99 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2], s[min(len(s)-1, len(s)*99/100)]
}

// BenchmarkScaleOut plays 100 (or 1,000) games at once against the bot
// through the fake Discord, its rate limits enforced: on SQLite with one
// process, and on PostgreSQL with three (or two) processes, one shard
// each. Every move must be answered and every interaction acknowledged
// within Discord's 3 seconds (the fake refuses a later one). It reports
// committed human turns per second, the median and 99th percentile time
// from a human's move to the bot's complete answer, and the slowest
// acknowledgement.
//
//	go test ./cmd/othello-bot -run '^$' -bench ScaleOut -benchtime 1x
func BenchmarkScaleOut(b *testing.B) {
	for _, tc := range []struct {
		name             string
		processes, games int
	}{{"sqlite-1-process", 1, 100}, {"postgres-3-processes", 3, 100},
		{"sqlite-1-process-1000-games", 1, 1000}, {"postgres-2-processes-1000-games", 2, 1000}} {
		perms := discordtest.AllText | discordtest.CreatePublicThreads
		if tc.games > 100 {
			// Each game in its channel: 1,000 threads opening at once are
			// 2,000 requests under Discord's global 50 a second, 40 s of
			// queue before the last board, whatever the bot does.
			perms = discordtest.AllText
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				database := filepath.Join(b.TempDir(), "bot.db")
				if tc.processes > 1 {
					server, err := pgtest.Start(pgtest.Options{Durable: true})
					if err != nil {
						b.Skip(err)
					}
					defer server.Stop()
					if database, err = server.NewDatabase(); err != nil {
						b.Fatal(err)
					}
				}
				r := startScaleWith(b, database, tc.processes, tc.games, perms)
				start := time.Now()
				r.playAll(b)
				elapsed := time.Since(start)
				r.stop()
				p50, p99 := latencyStats(r.latencies)
				b.ReportMetric(float64(len(r.latencies))/elapsed.Seconds(), "turns/s")
				b.ReportMetric(float64(p50.Milliseconds()), "p50-ms")
				b.ReportMetric(float64(p99.Milliseconds()), "p99-ms")
				b.ReportMetric(float64(r.srv.Stats().WorstAck.Milliseconds()), "worst-ack-ms")
				b.Logf("requests by route: %v", r.srv.Requests())
				if v := r.srv.Violations(); len(v) > 0 {
					b.Fatalf("%d requests refused or flagged, the first: %s", len(v), v[0])
				}
			}
		})
	}
}

// `migrate --from FILE --to URL` copies a played SQLite database into a
// new PostgreSQL one and says it checked it; `results` then prints the
// same log from either; a second copy into the same database is refused.
func TestMigrateSQLiteToPostgresCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.db")
	code, out, errOut := runCLI(t, strings.Join([]string{"/start level:1 size:8 color:black", "/move d3", "/resign", "click Resign",
		"/challenge @bob color:black size:8", "bob: click Accept", "select d3", "quit"}, "\n")+"\n",
		"local", "--user", "alice", "--db", path, "--results", filepath.Join(dir, "results.log"))
	if code != 0 {
		t.Fatalf("local: %d %s %s", code, out, errOut)
	}
	database := pgtest.Database(t)
	code, out, errOut = runCLI(t, "", "migrate", "--from", path, "--to", database)
	if code != 0 || !strings.Contains(out, "every table's count matches and all 2 games replay the same") {
		t.Fatalf("migrate: %d\n%s\n%s", code, out, errOut)
	}
	_, fromSQLite, _ := runCLI(t, "", "results", "--db", path)
	_, fromPostgres, _ := runCLI(t, "", "results", "--db", database)
	if fromSQLite == "" || fromSQLite != fromPostgres {
		t.Errorf("results differ:\nsqlite:   %q\npostgres: %q", fromSQLite, fromPostgres)
	}
	code, _, errOut = runCLI(t, "", "migrate", "--from", path, "--to", database)
	if code == 0 || !strings.Contains(errOut, "not empty") {
		t.Errorf("second copy: %d %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "migrate", "--from", path, "--to", "postgres://u:secret@127.0.0.1/x")
	if code == 0 || !strings.Contains(errOut, "PGPASSWORD") || strings.Contains(errOut, "secret") {
		t.Errorf("a password in the URL: %d %s", code, errOut)
	}
}

// shardCount "auto" asks Discord (/gateway/bot) and runs that many shards
// in one process; a server on the second shard is answered through it. Too
// few shards for Discord's liking stops start with its reason.
func TestDiscordShardsAuto(t *testing.T) {
	srv := newFake(t)
	srv.RequiredShards = 2
	second := guildOnShard(1, 2, 0)
	srv.AddGuildChannel(second, "8200000000000000001", discordtest.AllText)
	c := testBotConfig(srv, t.TempDir())
	c.Threads = false

	few := c
	few.ShardCount = 1
	err := serveDiscord(context.Background(), few, testToken, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil || !strings.Contains(err.Error(), "Discord requires more shards") {
		t.Fatalf("one shard where Discord requires two: %v", err)
	}

	c.ShardCount = config.ShardsAuto
	c.GuildIDs = []string{srv.GuildID, second}
	r := startBot(t, srv, c)
	deadline := time.Now().Add(10 * time.Second)
	for fmt.Sprint(srv.Shards()) != "[0 1]" {
		if time.Now().After(deadline) {
			t.Fatalf("shards connected: %v; log:\n%s", srv.Shards(), r.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	reply := srv.Reply(r.do(srv.Command(alice, "8200000000000000001", "start", map[string]any{"level": 1, "size": 6})))
	if reply == nil || liveGame(srv, "8200000000000000001") == nil {
		t.Fatalf("no game on the second shard's server: %+v; log:\n%s", reply, r.logs)
	}
	checkClean(t, srv, r)
}

// Two processes that take interactions over HTTP only ("shards": "none",
// no gateway) stand behind a round-robin load balancer on one PostgreSQL
// database: games started through one are played on through either, and
// each finished game is logged once.
func TestHTTPWorkersBehindALoadBalancer(t *testing.T) {
	database := pgtest.Database(t)
	srv := newFake(t)
	dir := t.TempDir()
	served, logs := httpWorkers(t, srv, database, dir, 2, func(c *config.Config) { c.Threads = false })

	const games = 6
	var wg sync.WaitGroup
	for i := 0; i < games; i++ {
		ch := strconv.Itoa(8300000000000000000 + i)
		srv.AddChannel(ch, discordtest.AllText)
		u := discordtest.User{ID: strconv.Itoa(7400000000000000000 + i), Name: fmt.Sprintf("worker%d", i)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Wait(srv.Command(u, ch, "start", map[string]any{"level": 1, "size": 4, "color": "black"}), 20*time.Second); err != nil {
				t.Error(err)
				return
			}
			for m := liveGame(srv, ch); m != nil; m = liveGame(srv, ch) {
				id, values, _ := m.Menu()
				if err := srv.Wait(srv.Select(u, m, id, values[0]), 20*time.Second); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if served[0].Load() == 0 || served[1].Load() == 0 {
		t.Errorf("requests per worker: %d, %d", served[0].Load(), served[1].Load())
	}
	lines := 0
	for k := 0; k < 2; k++ {
		b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("results-%d.log", k)))
		lines += strings.Count(string(b), "\n")
	}
	if lines != games {
		t.Errorf("%d results lines over both workers, want %d", lines, games)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("violations:\n%s", strings.Join(v, "\n"))
	}
	for k, l := range logs {
		if strings.Contains(l.String(), "level=ERROR") {
			t.Errorf("worker %d's log:\n%s", k, l)
		}
	}
}

// httpWorkers starts n processes that take interactions over HTTP only
// ("shards": "none", no gateway) on one database, behind a round-robin
// load balancer whose URL is the Interactions Endpoint URL Discord signs
// for; they stop when the test ends. It returns how many requests each
// served and each one's log.
func httpWorkers(t *testing.T, srv *discordtest.Server, database, dir string, n int, tune func(*config.Config)) ([]*atomic.Int64, []*syncBuffer) {
	t.Helper()
	var backends []*url.URL
	for range n {
		addr, err := freeport.Addr()
		if err != nil {
			t.Fatal(err)
		}
		backends = append(backends, &url.URL{Scheme: "http", Host: addr})
	}
	var next atomic.Int64
	served := make([]*atomic.Int64, n)
	for k := range served {
		served[k] = &atomic.Int64{}
	}
	lb := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		k := next.Add(1) % int64(n)
		served[k].Add(1)
		r.SetURL(backends[k])
	}})
	t.Cleanup(lb.Close)
	pub := srv.UseEndpoint(lb.URL + "/interactions")
	logs := make([]*syncBuffer, n)
	for k, b := range backends {
		c := testBotConfig(srv, dir)
		c.Database = database
		c.ApplicationID = srv.AppID
		c.ResultsLog = filepath.Join(dir, fmt.Sprintf("results-%d.log", k))
		c.Instance = fmt.Sprintf("worker-%d", k)
		c.Shards = "none"
		c.InteractionsAddress, c.PublicKey = b.Host, hex.EncodeToString(pub)
		if tune != nil {
			tune(&c)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		logs[k] = &syncBuffer{}
		go func() { done <- serveDiscord(ctx, c, testToken, slog.New(slog.NewTextHandler(logs[k], nil))) }()
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker %d: %v", k, err)
			}
		})
	}
	for _, b := range backends {
		for deadline := time.Now().Add(10 * time.Second); ; {
			if conn, err := net.Dial("tcp", b.Host); err == nil {
				conn.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("a worker does not listen")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return served, logs
}

// Discord's 50 requests a second are the bot's, not each process's: three
// processes on one database take a third each (ShareWith), so a burst of
// 30 challenges accepted at once across 30 channels, each opening a
// thread and posting its board, stays under the limit in every second
// and meets no 429.
func TestThreeProcessesShareTheGlobalLimit(t *testing.T) {
	database := pgtest.Database(t)
	srv := newFake(t)
	dir := t.TempDir()
	_, logs := httpWorkers(t, srv, database, dir, 3, nil)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		shared := 0
		for _, l := range logs {
			if strings.Contains(l.String(), "sharing Discord's global rate limit\" processes=3") {
				shared++
			}
		}
		if shared == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workers never counted each other:\n%s\n%s\n%s", logs[0], logs[1], logs[2])
		}
	}
	const n = 30
	type pair struct {
		opponent  discordtest.User
		challenge *discordtest.Message
	}
	var pairs []pair
	for i := range n {
		ch := strconv.Itoa(8400000000000000000 + i)
		srv.AddChannel(ch, discordtest.AllText|discordtest.CreatePublicThreads)
		u := discordtest.User{ID: strconv.Itoa(7500000000000000000 + i), Name: fmt.Sprintf("burst%d", i)}
		opp := discordtest.User{ID: strconv.Itoa(7600000000000000000 + i), Name: fmt.Sprintf("rival%d", i)}
		if err := srv.Wait(srv.Command(u, ch, "challenge", map[string]any{"opponent": opp, "size": 6, "rated": false}), 20*time.Second); err != nil {
			t.Fatal(err)
		}
		msgs := srv.Messages(ch, "")
		pairs = append(pairs, pair{opp, msgs[len(msgs)-1]})
	}
	time.Sleep(1100 * time.Millisecond) // the challenges' second is over
	start := time.Now()
	var wg sync.WaitGroup
	for _, p := range pairs {
		accept, ok := p.challenge.Button("Accept")
		if !ok {
			t.Fatalf("no Accept: %s", p.challenge.Text())
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Wait(srv.Click(p.opponent, p.challenge, accept), 60*time.Second); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	threads := len(srv.Threads())
	t.Logf("%d accepts across three processes in %v: %d threads, peak %d requests in one second",
		n, time.Since(start).Round(time.Millisecond), threads, srv.PeakPerSecond())
	if threads != n {
		t.Errorf("%d threads for %d accepted challenges", threads, n)
	}
	if peak := srv.PeakPerSecond(); peak > discordtest.GlobalLimit {
		t.Errorf("%d requests in one second across the processes", peak)
	}
	if l := srv.RateLimited(); len(l) > 0 {
		t.Errorf("%d requests answered 429, the first %q", len(l), l[0])
	}
}
