// Command loadtest drives othello-bot processes the way Discord would at
// scale: every request through the HTTP interactions path, signed with the
// application's key, against the project's fake Discord (its rate limits
// enforced), with many games running at once against the bot, most of
// them correspondence and a share on a live clock. It reports the human
// moves' acknowledgement and answer times, the store's transaction times
// (from the processes' own /metrics), memory per open game and CPU per
// move, so a change can be judged by where it saturates.
//
//	go build -o /tmp/othello-bot ./cmd/othello-bot
//	go run ./cmd/loadtest -bin /tmp/othello-bot -games 1000 -db /tmp/load.db
//	go run ./cmd/loadtest -bin /tmp/othello-bot -games 10000 -processes 3 -db postgres://…
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"othello-bot/bot/discord"
	"othello-bot/bot/discord/discordtest"
	"othello-bot/internal/freeport"
)

const token = "load-test-token"

type options struct {
	bin       string
	database  string
	processes int
	games     int
	live      float64
	duration  time.Duration
	liveThink time.Duration
	corrThink time.Duration
	ramp      int
	profile   string // a directory for each process's CPU and heap profiles
	opponent  string // "bot" (level 1) or "human" (two players per game)
	procs     int    // GOMAXPROCS for each bot process; 0: Go's default
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "", "the othello-bot binary to run (go build -o … ./cmd/othello-bot)")
	flag.StringVar(&o.database, "db", "", "the database: a SQLite file that does not exist yet, or the postgres:// URL of an empty database")
	flag.IntVar(&o.processes, "processes", 1, "bot processes behind one round-robin balancer")
	flag.IntVar(&o.games, "games", 1000, "games running at once (a finished one is replaced)")
	flag.Float64Var(&o.live, "live", 0.1, "the share of games on a live clock (5+3); the rest are correspondence")
	flag.DurationVar(&o.duration, "duration", 2*time.Minute, "how long to play once every game has started")
	flag.DurationVar(&o.liveThink, "live-think", 3*time.Second, "a live game's player: mean time between moves")
	flag.DurationVar(&o.corrThink, "corr-think", time.Minute, "a correspondence player: mean time between moves")
	flag.IntVar(&o.ramp, "ramp", 50, "games started at once while ramping up")
	flag.IntVar(&o.procs, "gomaxprocs", 0, "GOMAXPROCS for each bot process (0: Go's default, every core)")
	flag.StringVar(&o.opponent, "opponent", "bot", "who the players play: bot (level 1, each human move answered by the bot) or human (two players a game, by challenge: human moves alone)")
	flag.StringVar(&o.profile, "profile", "", "a directory to write each process's CPU profile of the steady run and heap profiles after its first step and at its end (go tool pprof; -base start-heap-K.pprof heap-K.pprof shows what grew)")
	flag.Parse()
	if err := o.check(); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	if o.profile != "" {
		// Made now, not when the run is over: a profile that cannot be
		// written should not cost a whole run to find out.
		if err := os.MkdirAll(o.profile, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: -profile:", err)
			os.Exit(2)
		}
	}
	rep, err := run(context.Background(), o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	fmt.Print(rep)
}

// check refuses options that cannot make a run, and a database file that
// exists already: the run fills the database it is given.
func (o options) check() error {
	switch {
	case o.bin == "" || o.database == "":
		return errors.New("-bin and -db are required (see go doc ./cmd/loadtest)")
	case o.processes < 1 || o.games < 1 || o.ramp < 1:
		return errors.New("-processes, -games and -ramp must be at least 1")
	case o.live < 0 || o.live > 1:
		return errors.New("-live is a share, between 0 and 1")
	case o.duration <= 0 || o.liveThink <= 0 || o.corrThink <= 0:
		return errors.New("-duration, -live-think and -corr-think must be positive")
	case o.opponent != "bot" && o.opponent != "human":
		return errors.New("-opponent is bot or human")
	case o.processes > 1 && !postgres(o.database):
		return errors.New("several processes need a postgres:// database")
	}
	if !postgres(o.database) {
		if _, err := os.Stat(o.database); err == nil {
			return fmt.Errorf("-db %s exists: give a new file (the run fills it)", o.database)
		}
	}
	return nil
}

func postgres(database string) bool { return strings.HasPrefix(database, "postgres") }

// worker is one bot process.
type worker struct {
	cmd         *exec.Cmd
	listen      string // interactions
	metrics     string
	pprof       string
	log         *os.File
	rssBefore   int64
	heapBefore  float64
	tableBefore float64       // the engine's tables then
	exited      chan struct{} // closed once the process has stopped
	waitErr     error         // how it stopped, once exited is closed
}

// watch waits for w's process in the background, so that a stop is seen
// whenever it comes.
func (w *worker) watch() {
	w.exited = make(chan struct{})
	go func() {
		w.waitErr = w.cmd.Wait()
		close(w.exited)
	}()
}

// logTail is the end of w's log, for an error that says why it stopped.
func (w *worker) logTail() string {
	tail, _ := os.ReadFile(w.log.Name())
	if len(tail) > 4000 {
		tail = tail[len(tail)-4000:]
	}
	return string(tail)
}

// play is what the players measured.
type play struct {
	mu      sync.Mutex
	acks    []time.Duration // interaction → first response
	answers []time.Duration // interaction → whole answer
	moves   atomic.Int64
	refused atomic.Int64 // moves refused (not the mover's turn)
	failed  atomic.Int64
	started atomic.Int64
}

func run(ctx context.Context, o options, progress io.Writer) (string, error) {
	dir, err := os.MkdirTemp("", "loadtest")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	srv := discordtest.New(token)
	defer srv.Close()

	// The balancer first: its URL is the endpoint the fake signs for.
	var next atomic.Int64
	var backends []*url.URL
	// The balancer keeps its connections to the bots open, as Discord's
	// do (Go's default of two idle connections a host would make the bots
	// accept a new connection for most requests), and holds no more to a
	// bot than the bot takes from one address: past that it resets them.
	lb := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[next.Add(1)%int64(len(backends))])
	}, Transport: &http.Transport{MaxConnsPerHost: discord.PerAddress, MaxIdleConnsPerHost: discord.PerAddress, IdleConnTimeout: 90 * time.Second}})
	defer lb.Close()
	pub := srv.UseEndpoint(lb.URL + "/interactions")

	workers := make([]*worker, o.processes)
	for k := range workers {
		w, err := startWorker(o, srv, dir, k, hex.EncodeToString(pub))
		if err != nil {
			return "", err
		}
		workers[k] = w
		backends = append(backends, &url.URL{Scheme: "http", Host: w.listen})
	}
	defer func() {
		for _, w := range workers {
			w.cmd.Process.Signal(syscall.SIGTERM)
			<-w.exited
			w.log.Close()
		}
	}()
	for _, w := range workers {
		if err := waitListening(w, 60*time.Second); err != nil {
			return "", fmt.Errorf("worker %s: %w (log in %s, ending:\n%s)", w.listen, err, w.log.Name(), w.logTail())
		}
		w.rssBefore, _ = rss(w.cmd.Process.Pid)
		w.heapBefore, w.tableBefore, _ = liveHeap(w)
	}

	p := &play{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A bot that stops in the middle of the run ends it: its players would
	// otherwise retry for ever, and its figures would be missing.
	died := make(chan *worker, len(workers))
	for _, w := range workers {
		go func() {
			select {
			case <-w.exited:
				died <- w
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	stopped := func() error {
		select {
		case w := <-died:
			return fmt.Errorf("worker %s stopped during the run (%v; log in %s, ending:\n%s)", w.listen, w.waitErr, w.log.Name(), w.logTail())
		default:
			return nil
		}
	}
	var wg sync.WaitGroup
	ramp := make(chan struct{}, o.ramp)
	begun := time.Now()
	for i := range o.games {
		ch := strconv.Itoa(8500000000000000000 + i)
		srv.AddChannel(ch, discordtest.AllText)
		u := discordtest.User{ID: strconv.Itoa(7500000000000000000 + i), Name: fmt.Sprintf("load%05d", i)}
		var rival *discordtest.User
		if o.opponent == "human" {
			rival = &discordtest.User{ID: strconv.Itoa(7600000000000000000 + i), Name: fmt.Sprintf("rival%05d", i)}
		}
		live := float64(i) < o.live*float64(o.games)
		wg.Add(1)
		select {
		case ramp <- struct{}{}:
		case <-ctx.Done():
			wg.Done()
			wg.Wait()
			return "", stopped()
		}
		go func() {
			defer wg.Done()
			player(ctx, o, srv, p, u, rival, ch, live, ramp, progress)
		}()
		if i%1000 == 999 {
			fmt.Fprintf(progress, "loadtest: %d games started in %s\n", i+1, time.Since(begun).Round(time.Second))
		}
	}
	for range o.ramp { // every game has started
		select {
		case ramp <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return "", stopped()
		}
	}
	ramped := time.Since(begun)
	fmt.Fprintf(progress, "loadtest: %d games running after %s; playing for %s\n", o.games, ramped.Round(time.Second), o.duration)
	p.mu.Lock()
	p.acks, p.answers = nil, nil // the steady state only
	p.mu.Unlock()
	movesBefore := p.moves.Load()
	before := takeSample(ctx, workers, o.database)
	playStart := time.Now()
	profiled := profileCPU(o, workers, progress)
	for t := time.Duration(0); t < o.duration; t += 30 * time.Second {
		select {
		case <-time.After(min(30*time.Second, o.duration-t)):
		case <-ctx.Done():
			wg.Wait()
			return "", stopped()
		}
		// Resident memory at every step: a soak shows whether it stays flat.
		var (
			mem        resident
			heap, gsys float64
		)
		for _, w := range workers {
			r, _ := residentOf(w.cmd.Process.Pid)
			mem = mem.plus(r)
			h, sy, _ := goMemory(w.metrics)
			heap, gsys = heap+h, gsys+sy
		}
		fmt.Fprintf(progress, "loadtest: %s: %d moves, %d failed, resident %d MiB (anonymous %d, files %d; Go's heap in use %.0f, all Go's %.0f)\n",
			time.Since(playStart).Round(time.Second), p.moves.Load()-movesBefore, p.failed.Load(), mem.all>>20,
			mem.anon>>20, mem.file>>20, heap/(1<<20), gsys/(1<<20))
		if t == 0 {
			profileHeap(o, workers, "start", progress)
		}
	}
	played := time.Since(playStart)
	profiled.Wait()
	if err := stopped(); err != nil {
		return "", err
	}
	profileHeap(o, workers, "", progress)
	moves := p.moves.Load() - movesBefore
	var b strings.Builder
	fmt.Fprintf(&b, "games %d (live %.0f%%), processes %d, database %s\n", o.games, o.live*100, o.processes, dbKind(o.database))
	fmt.Fprintf(&b, "ramp-up %s; steady %s: %d human moves (%.1f/s), %d failed\n", ramped.Round(time.Second), played.Round(time.Second),
		moves, float64(moves)/played.Seconds(), p.failed.Load())
	if v := srv.Violations(); len(v) > 0 {
		// What the fake Discord refused or found wrong: the first few.
		fmt.Fprintf(&b, "fake Discord: %d violations, first: %s\n", len(v), strings.Join(v[:min(3, len(v))], " | "))
	}
	p.mu.Lock()
	fmt.Fprintf(&b, "acknowledgement p50 %s p99 %s max %s\n", quantiles(p.acks)...)
	fmt.Fprintf(&b, "whole answer    p50 %s p99 %s max %s\n", quantiles(p.answers)...)
	p.mu.Unlock()
	after := takeSample(ctx, workers, o.database)
	var rssAll int64
	var heapAll, tablesAll float64
	for k, w := range workers {
		r, _ := rss(w.cmd.Process.Pid)
		rssAll += r - w.rssBefore
		h, tables, err := liveHeap(w)
		if err != nil {
			fmt.Fprintf(&b, "not measured: process %d's live heap: %v\n", k, err)
		}
		heapAll += h - w.heapBefore - (tables - w.tableBefore)
		tablesAll += tables - w.tableBefore
		tx, err := storeTx(w.metrics)
		if err != nil {
			tx = "unread: " + err.Error()
		}
		acks, err := ownAcks(w.metrics)
		if err != nil {
			acks = "unread: " + err.Error()
		}
		fmt.Fprintf(&b, "process %d: store transactions %s; resident %d MiB\n", k, tx, r>>20)
		fmt.Fprintf(&b, "process %d: its own acknowledgements over the whole run %s\n", k, acks)
	}
	if p.refused.Load() > 0 {
		fmt.Fprintf(&b, "%d moves refused as not the mover's turn (after a pass), not counted\n", p.refused.Load())
	}
	perMove(&b, o, before, after, moves, played)
	fmt.Fprintf(&b, "memory per open game %.1f KiB (resident growth over the run, engine tables made in it excluded, / games); live heap %.1f KiB (after a collection, the same excluded); engine tables made in the run %d MiB\n",
		(float64(rssAll)-tablesAll)/1024/float64(o.games), heapAll/1024/float64(o.games), int64(tablesAll)>>20)
	cancel()
	wg.Wait()
	return b.String(), nil
}

// player plays one channel's games: against the bot, or (rival set) a
// member against another, both played from here; a move after a random
// pause (exponential, about the mean think time), a new game when one
// ends.
func player(ctx context.Context, o options, srv *discordtest.Server, p *play, u discordtest.User, rival *discordtest.User, ch string, live bool, ramp chan struct{}, progress io.Writer) {
	think := o.corrThink
	opts := map[string]any{"level": 1, "size": 8, "color": "black"}
	if live {
		think, opts["time"] = o.liveThink, "5+3"
	}
	waited := func(ia *discordtest.Interaction) bool {
		if err := srv.WaitContext(ctx, ia, 2*time.Minute); err != nil {
			if p.failed.Add(1) <= 3 {
				fmt.Fprintf(progress, "loadtest: %v (acknowledged with type %d)\n", err, srv.AckKind(ia))
			}
			return false
		}
		return true
	}
	start := func() bool {
		if rival == nil {
			if !waited(srv.Command(u, ch, "start", opts)) {
				return false
			}
		} else if !challenge(srv, u, *rival, ch, live, waited) {
			return false
		}
		p.started.Add(1)
		return true
	}
	mover := u
	ok := start()
	<-ramp
	for ok && ctx.Err() == nil {
		pause := time.Duration(rand.ExpFloat64() * float64(think))
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		m := liveGame(srv, ch)
		if m == nil {
			ok, mover = start(), u
			continue
		}
		id, values, _ := m.Menu()
		ia := srv.Select(mover, m, id, values[rand.IntN(len(values))])
		if !waited(ia) {
			continue
		}
		took := srv.AnsweredAfter(ia) // (Wait itself waits for a quiet moment after)
		if srv.AckKind(ia) == discordtest.AckMessage {
			// Refused: in a game between members, the other's turn after
			// a pass. The turn goes to them; nothing was played.
			if rival != nil {
				mover = other(mover, u, *rival)
			}
			p.refused.Add(1)
			continue
		}
		if rival != nil {
			mover = other(mover, u, *rival)
		}
		p.moves.Add(1)
		p.mu.Lock()
		p.acks = append(p.acks, srv.AckTime(ia))
		p.answers = append(p.answers, took)
		p.mu.Unlock()
	}
}

// challenge starts a game between two members: u challenges rival, who
// accepts from the challenge's message.
func challenge(srv *discordtest.Server, u, rival discordtest.User, ch string, live bool, waited func(*discordtest.Interaction) bool) bool {
	opts := map[string]any{"opponent": rival, "size": 8, "color": "black"}
	if live {
		opts["time"] = "5+3"
	}
	if !waited(srv.Command(u, ch, "challenge", opts)) {
		return false
	}
	msgs := srv.Messages(ch, rival.ID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if id, ok := msgs[i].Button("Accept"); ok {
			return waited(srv.Click(rival, msgs[i], id))
		}
	}
	return false
}

func other(mover, a, b discordtest.User) discordtest.User {
	if mover.ID == a.ID {
		return b
	}
	return a
}

// liveGame is the channel's message carrying a game's move menu.
func liveGame(srv *discordtest.Server, channel string) *discordtest.Message {
	msgs := srv.Messages(channel, "")
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, _, ok := msgs[i].Menu(); ok && !msgs[i].Ephemeral {
			return msgs[i]
		}
	}
	return nil
}

func startWorker(o options, srv *discordtest.Server, dir string, k int, publicKey string) (*worker, error) {
	listen, err := freeport.Addr()
	if err != nil {
		return nil, err
	}
	metrics, err := freeport.Addr()
	if err != nil {
		return nil, err
	}
	prof, err := freeport.Addr()
	if err != nil {
		return nil, err
	}
	c := map[string]any{
		"applicationId": srv.AppID, "guildIds": []string{srv.GuildID}, "discordAPI": srv.URL(),
		"database": o.database, "resultsLog": filepath.Join(dir, fmt.Sprintf("results-%d.log", k)),
		"instance": fmt.Sprintf("load-%d", k), "shards": "none", "threads": false,
		"interactionsAddress": listen, "publicKey": publicKey, "metricsAddress": metrics,
		"pprofAddress":   prof,
		"engineMoveTime": "50ms", "logLevel": "warn",
	}
	data, _ := json.Marshal(c)
	path := filepath.Join(dir, fmt.Sprintf("config-%d.json", k))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(dir, fmt.Sprintf("worker-%d.log", k)))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.bin, "run", "--config", path)
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN="+token)
	if o.procs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(o.procs))
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", o.bin, err)
	}
	w := &worker{cmd: cmd, listen: listen, metrics: metrics, pprof: prof, log: log}
	w.watch()
	return w, nil
}

// waitListening waits for a bot process to listen, and says so at once if
// it stopped instead.
func waitListening(w *worker, within time.Duration) error {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); {
		if conn, err := net.Dial("tcp", w.listen); err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-w.exited:
			return fmt.Errorf("the bot stopped before it listened (%v)", w.waitErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return errors.New("not listening")
}
