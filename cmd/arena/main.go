// Command arena measures playing strength: engine levels against each
// other, or a level against another GTP Othello program such as grhino.
// Each random opening is played twice, once with each colour.
//
//	go run ./cmd/arena -ladder 2-20 -games 100
//	go run ./cmd/arena -a 20 -gtp '/usr/games/gtp-rhino -l 3' -games 20
//	go run ./cmd/arena -a 20 -b 18 -clock 1+0 -games 50
//	go run ./cmd/arena -a 20 -b 20 -probcut-a 1.5 -probcut-b 0 -movetime 100ms -games 200
//
// With -clock, level -a (and level -b when it is the same level) plays on
// that clock as the bot does against a player: it plans each move from the
// time it has left (timecontrol.PlanMove, or with -flat-b for level -b the
// even Budget spent whole, as before), every move is charged the wall time
// it took, and a move after its time ran out loses on time. Give -movetime
// more than any plan (1m) so the clock alone decides:
//
//	go run ./cmd/arena -a 20 -b 20 -clock 1+0 -movetime 1m -flat-b -games 200 -workers 1
//
// Strength at equal work, whatever the machine's load: -nodes gives every
// top level (20) a node budget a move (one core each), and -sprt ends the match
// as soon as the sequential probability ratio test decides (rating/sprt),
// printing Elo with its 95% interval. Two builds: the old one over GTP.
//
//	go run ./cmd/arena -a 20 -gtp 'OLD gtp --level 10 --nodes 500000' -nodes 500000 -sprt 0,5 -games 20000 -workers 2
//
// It is a measuring tool, not part of the bot; its results go in notes.
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/pattern"
	"othello-bot/game"
	"othello-bot/rating/sprt"
	"othello-bot/timecontrol"
)

// player chooses a move in a game where it is to move.
type player interface {
	name() string
	move(ctx context.Context, g *game.Game) (game.Square, error)
	close()
}

type enginePlayer struct {
	eng      *engine.Engine
	level    int
	rng      *rand.Rand
	moveTime time.Duration
	control  timecontrol.Control // zero: no clock
	flat     bool                // on a clock: the even budget, spent whole
	left     time.Duration       // on the clock in the game being played
	playing  *game.Game          // that game
	loss     int                 // given away in it (an erring level)
}

func (e *enginePlayer) name() string { return "level " + strconv.Itoa(e.level) }
func (e *enginePlayer) close() {
	if e.playing != nil {
		lossesOf(e.level).game(e.loss)
	}
}

func (e *enginePlayer) move(ctx context.Context, g *game.Game) (game.Square, error) {
	think, target := e.moveTime, time.Duration(0)
	if e.playing != g { // a new game: a full clock, nothing lost yet
		if e.playing != nil {
			lossesOf(e.level).game(e.loss)
		}
		e.playing, e.left, e.loss = g, e.control.Base, 0
	}
	if !e.control.IsZero() {
		p := g.Position()
		if e.flat {
			think = min(think, timecontrol.Budget(e.left, e.control.Increment, p.Empties()))
		} else {
			plan := timecontrol.PlanMove(e.left, e.control.Increment, p.Empties(), p.Size()*p.Size())
			think, target = min(think, plan.Max), min(think, plan.Target)
		}
	}
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(ctx, think)
	defer cancel()
	r, err := e.eng.MoveOnClock(ctx, g.Position(), e.level, e.rng, target)
	e.loss += r.Loss
	lossesOf(e.level).move(r.Loss)
	if !e.control.IsZero() {
		e.left -= time.Since(t0)
		if e.left <= 0 {
			return r.Move, fmt.Errorf("%w by %v", errFlagged, -e.left)
		}
		clockLow.note(e.left)
		e.left += e.control.Increment
	}
	return r.Move, err
}

// parseClock reads a control as players write it (3+2), or as durations
// for clocks shorter than players use (20s+200ms), so a match of many
// games fits in an hour.
func parseClock(s string) (timecontrol.Control, error) {
	base, inc, ok := strings.Cut(s, "+")
	if !ok || !strings.ContainsAny(base+inc, "smh") {
		return timecontrol.Parse(s)
	}
	b, err1 := time.ParseDuration(base)
	i, err2 := time.ParseDuration(inc)
	if err := errors.Join(err1, err2); err != nil || b <= 0 || i < 0 {
		return timecontrol.Control{}, fmt.Errorf("arena: clock %q: %v", s, err)
	}
	return timecontrol.Control{Base: b, Increment: i}, nil
}

// errFlagged: the player on a clock ran out of time.
var errFlagged = errors.New("lost on time")

// clockLow is the least time any player on a clock had left after a move.
var clockLow = &least{v: time.Duration(1<<63 - 1)}

type least struct {
	mu sync.Mutex
	v  time.Duration
}

func (l *least) note(d time.Duration) {
	l.mu.Lock()
	l.v = min(l.v, d)
	l.mu.Unlock()
}

// gtpPlayer drives another program over GTP, replaying the game before each
// of its moves so the two boards can never drift apart.
type gtpPlayer struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	desc string
}

func newGTP(command string) (*gtpPlayer, error) {
	cmd := exec.Command("sh", "-c", command)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %w", command, err)
	}
	return &gtpPlayer{cmd: cmd, in: in, out: bufio.NewReader(out), desc: command}, nil
}

func (p *gtpPlayer) name() string { return p.desc }

func (p *gtpPlayer) send(line string) (string, error) {
	if _, err := fmt.Fprintln(p.in, line); err != nil {
		return "", err
	}
	var resp []string
	for {
		l, err := p.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("%s: %w", line, err)
		}
		l = strings.TrimRight(l, "\r\n")
		if l == "" && len(resp) > 0 {
			break
		}
		if l != "" {
			resp = append(resp, l)
		}
	}
	text := strings.Join(resp, "\n")
	if strings.HasPrefix(text, "?") {
		return "", fmt.Errorf("%s: %s", line, text)
	}
	return strings.TrimSpace(strings.TrimPrefix(text, "=")), nil
}

func (p *gtpPlayer) move(_ context.Context, g *game.Game) (game.Square, error) {
	size := g.Position().Size()
	cmds := []string{"boardsize " + strconv.Itoa(size), "clear_board"}
	for _, ply := range g.Plies() {
		if ply.Square.IsPass() {
			continue // grhino passes by itself and rejects "play C pass"
		}
		cmds = append(cmds, fmt.Sprintf("play %s %s", ply.Color, ply.Square))
	}
	for _, c := range cmds {
		if _, err := p.send(c); err != nil {
			return game.Pass, err
		}
	}
	resp, err := p.send("genmove " + g.Position().ToMove().String())
	if err != nil {
		return game.Pass, err
	}
	return game.ParseSquare(resp, size)
}

func (p *gtpPlayer) close() {
	p.send("quit")
	p.in.Close()
	p.cmd.Wait()
}

type tally struct{ wins, losses, draws, discs, flags, flagsB int }

// errAFlagged and errBFlagged say which side of a game lost on time.
var (
	errAFlagged = errors.New("level -a lost on time")
	errBFlagged = errors.New("the other side lost on time")
)

func (t tally) games() int { return t.wins + t.losses + t.draws }
func (t tally) percent() float64 {
	return 100 * (float64(t.wins) + float64(t.draws)/2) / float64(t.games())
}

// playOne plays a from the given opening with a as black when aBlack.
func playOne(a, b player, size int, opening []game.Square, aBlack bool) (int, error) {
	start, _ := game.NewPosition(size)
	g, err := game.Replay(start, opening)
	if err != nil {
		return 0, err
	}
	aColor := game.White
	if aBlack {
		aColor = game.Black
	}
	for !g.Over() {
		pl := b
		if g.Position().ToMove() == aColor {
			pl = a
		}
		m, err := pl.move(context.Background(), g)
		switch {
		case errors.Is(err, errFlagged) && pl == a:
			return -1, errAFlagged
		case errors.Is(err, errFlagged):
			return 1, errBFlagged
		case err != nil:
			return 0, fmt.Errorf("%s: %w", pl.name(), err)
		}
		if _, err := g.Play(m); err != nil {
			return 0, fmt.Errorf("%s played %s: %w", pl.name(), m, err)
		}
	}
	bl, wh := g.Position().Count()
	if aColor == game.Black {
		return bl - wh, nil
	}
	return wh - bl, nil
}

func randomOpening(size, plies int, rng *rand.Rand) []game.Square {
	for {
		p, _ := game.NewPosition(size)
		g := game.NewGame(p)
		for i := 0; i < plies && !g.Over(); i++ {
			moves := g.Position().LegalMoves()
			g.Play(moves[rng.IntN(len(moves))])
		}
		if !g.Over() {
			return g.Moves()
		}
	}
}

// results are a tally as the SPRT reads it.
func (t tally) results() sprt.Results {
	return sprt.Results{Wins: t.wins, Draws: t.draws, Losses: t.losses}
}

// match plays games (an even number) between players made by mkA and mkB,
// two at a time; test, when given, ends it once it decides (the games
// under way are finished and counted).
//
// With a test it also returns the tally at which the test decided (nil if
// it never did): the games other workers finish after that count in the
// tally but not in the decision.
func match(mkA, mkB func() (player, error), games, size, openingPlies int, seed uint64, workers int, test *sprt.Test) (tally, *tally, error) {
	rng := rand.New(rand.NewPCG(seed, seed))
	openings := make([][]game.Square, games/2)
	for i := range openings {
		openings[i] = randomOpening(size, openingPlies, rng)
	}
	var (
		mu       sync.Mutex
		t        tally
		firstErr error
		wg       sync.WaitGroup
		decided  = make(chan struct{})
		once     sync.Once
		at       *tally
	)
	jobs := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, errA := mkA()
			b, errB := mkB()
			if err := errors.Join(errA, errB); err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				for range jobs {
				}
				return
			}
			defer a.close()
			defer b.close()
			for j := range jobs {
				d, err := playOne(a, b, size, openings[j/2], j%2 == 0)
				mu.Lock()
				switch {
				case errors.Is(err, errAFlagged):
					t.losses++
					t.flags++
				case errors.Is(err, errBFlagged):
					t.wins++
					t.flagsB++
				case err != nil:
					firstErr = err
				case d > 0:
					t.wins++
				case d < 0:
					t.losses++
				default:
					t.draws++
				}
				t.discs += d
				// Progress on stderr: long matches take hours.
				fmt.Fprintf(os.Stderr, "game %d/%d: %+d (so far %d-%d-%d)\n", t.wins+t.losses+t.draws, games, d, t.wins, t.losses, t.draws)
				if test != nil {
					fmt.Fprintln(os.Stderr, "  "+test.String(t.results()))
					// Decided after a whole pair of colour-swapped games.
					if t.games()%2 == 0 && test.Decide(t.results()) != sprt.Continue {
						once.Do(func() {
							snapshot := t
							at = &snapshot
							close(decided)
						})
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for j := 0; j < games; j++ {
		select {
		case jobs <- j:
		case <-decided:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return t, at, firstErr
}

func main() {
	var (
		a        = flag.Int("a", engine.MaxLevel, "engine level under test")
		b        = flag.Int("b", engine.MaxLevel-1, "engine level to play against")
		gtpCmd   = flag.String("gtp", "", "play level -a against this GTP program instead of level -b")
		gtpName  = flag.String("gtp-name", "", "the GTP program's name in the table (default: its command)")
		ladder   = flag.String("ladder", "", "FROM-TO: each level in the range against the level below it")
		games    = flag.Int("games", 100, "games per match (even; each opening twice)")
		size     = flag.Int("size", 8, "board size")
		plies    = flag.Int("opening", 6, "random opening plies")
		clock    = flag.String("clock", "", "play level -a on this clock (3+2: minutes+increment seconds)")
		moveTime = flag.Duration("movetime", time.Second, "time per move for the top level")
		capTime  = flag.Duration("cap", 10*time.Second, "deadline per move for the levels below the top")
		seed     = flag.Uint64("seed", 1, "opening seed")
		workers  = flag.Int("workers", 2, "games played at once")
		probCutA = flag.Float64("probcut-a", -1, "Multi-ProbCut confidence of level -a's engine (0: off; -1: the engine's default)")
		probCutB = flag.Float64("probcut-b", -1, "the same for level -b")
		noBookB  = flag.Bool("nobook-b", false, "level -b plays without the opening book")
		threadsA = flag.Int("threads-a", 1, "searchers level -a may search with in parallel (with -workers 1, one per core)")
		selA     = flag.Int("selective-a", 0, "level -a's selective endgame reach beyond its exact one, in empties (0: the engine's default; -1: none)")
		selB     = flag.Int("selective-b", 0, "level -b's selective endgame reach beyond its exact one, in empties (0: the engine's default; -1: none)")
		flatB    = flag.Bool("flat-b", false, "on a clock, level -b spends the even budget whole (the clock plan before PlanMove)")
		nodes    = flag.Uint64("nodes", 0, "every top level here searches this many nodes a move, on one searcher, whatever the clock (0: by -movetime)")
		sprtArg  = flag.String("sprt", "", "ELO0,ELO1: stop the match once the SPRT decides between them (-games is then the most it plays)")
		alpha    = flag.Float64("alpha", 0.05, "the SPRT's chance of accepting ELO1 when ELO0 holds")
		beta     = flag.Float64("beta", 0.05, "the SPRT's chance of accepting ELO0 when ELO1 holds")
		weightsA = flag.String("weights-a", "", "level -a evaluates 8x8 with this weights file (cmd/train fit's output) instead of the built-in one")
		weightsB = flag.String("weights-b", "", "the same for level -b")
		budgetsF = flag.String("budgets", "", "LEVEL=PERGAME[,CAP];...: erring levels' budgets to try (discs a game, the cap on a move)")
	)
	flag.Parse()
	var err error
	if budgets, err = parseBudgets(*budgetsF); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var test *sprt.Test
	if *sprtArg != "" {
		lo, hi, ok := strings.Cut(*sprtArg, ",")
		e0, err0 := strconv.ParseFloat(lo, 64)
		e1, err1 := strconv.ParseFloat(hi, 64)
		if !ok || err0 != nil || err1 != nil || e1 <= e0 || *alpha <= 0 || *alpha >= 0.5 || *beta <= 0 || *beta >= 0.5 {
			fmt.Fprintln(os.Stderr, "arena: -sprt wants ELO0,ELO1 with ELO0 < ELO1 (like 0,5), and -alpha, -beta between 0 and 0.5")
			os.Exit(2)
		}
		test = &sprt.Test{Elo0: e0, Elo1: e1, Alpha: *alpha, Beta: *beta}
	}
	if *nodes > 0 && *threadsA > 1 {
		fmt.Fprintln(os.Stderr, "arena: -nodes counts one searcher's nodes: leave -threads-a at 1")
		os.Exit(2)
	}
	var control timecontrol.Control
	if *clock != "" {
		var err error
		if control, err = parseClock(*clock); err != nil || !control.Live() {
			fmt.Fprintln(os.Stderr, "arena: -clock wants a live control like 1+0 or 3+2, or durations like 20s+200ms")
			os.Exit(2)
		}
	}
	if *threadsA < 1 {
		fmt.Fprintln(os.Stderr, "arena: -threads-a must be at least 1")
		os.Exit(2)
	}
	wa, errA := readWeights(*weightsA)
	wb, errB := readWeights(*weightsB)
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(2)
	}
	// side is how one side's engine differs from the default.
	type side struct {
		probCut   float64
		threads   int
		noBook    bool
		selective int
		flat      bool
		weights   *pattern.Weights
	}
	plain := side{probCut: -1, threads: 1}
	mkLevel := func(level int, sd side) func() (player, error) {
		return func() (player, error) {
			t := *capTime
			if level == engine.MaxLevel {
				t = *moveTime
			}
			o := engine.Options{Searches: sd.threads, QuickSearches: -1, NoBook: sd.noBook, Selective: sd.selective, Nodes: *nodes, Budgets: budgets, Weights: sd.weights}
			if *nodes > 0 && level == engine.MaxLevel {
				t = time.Hour // the budget decides; the clock is a safety net
			}
			if probCut := sd.probCut; probCut >= 0 {
				o.ProbCut = probCut
			} else {
				o.ProbCut = engine.DefaultProbCut
			}
			p := &enginePlayer{eng: engine.New(o), level: level, rng: rand.New(rand.NewPCG(*seed, uint64(level))), moveTime: t, flat: sd.flat}
			if level == *a {
				p.control = control
			}
			return p, nil
		}
	}
	nameOf := func(level int, probCut float64, isA bool) string {
		name := fmt.Sprintf("level %d", level)
		if *nodes > 0 && level == engine.MaxLevel {
			name += fmt.Sprintf(" (%d nodes)", *nodes)
		}
		if probCut >= 0 {
			name += fmt.Sprintf(" (ProbCut %g)", probCut)
		}
		w := *weightsB
		if isA {
			w = *weightsA
		}
		if w != "" {
			name += " (weights " + filepath.Base(w) + ")"
		}
		if isA && *threadsA > 1 {
			name += fmt.Sprintf(" (%d searchers)", *threadsA)
		}
		if !isA && *noBookB {
			name += " (no book)"
		}
		sel := *selB
		if isA {
			sel = *selA
		}
		if sel == -1 {
			name += " (no selective endgame)"
		} else if sel > 0 {
			name += fmt.Sprintf(" (selective endgame %d beyond)", sel)
		}
		if !isA && *flatB {
			name += " (even clock plan)"
		}
		return name
	}
	type pairing struct {
		a, b  func() (player, error)
		label string
	}
	var pairs []pairing
	switch {
	case *ladder != "":
		from, to, ok := strings.Cut(*ladder, "-")
		lo, err1 := strconv.Atoi(from)
		hi, err2 := strconv.Atoi(to)
		if !ok || err1 != nil || err2 != nil || lo < 2 || hi > engine.MaxLevel || lo > hi {
			fmt.Fprintf(os.Stderr, "arena: -ladder wants FROM-TO within 2-%d\n", engine.MaxLevel)
			os.Exit(2)
		}
		for l := lo; l <= hi; l++ {
			pairs = append(pairs, pairing{mkLevel(l, plain), mkLevel(l-1, plain), fmt.Sprintf("level %d vs level %d", l, l-1)})
		}
	case *gtpCmd != "":
		cmd := *gtpCmd
		pairs = append(pairs, pairing{mkLevel(*a, side{probCut: *probCutA, threads: *threadsA, selective: *selA, weights: wa}), func() (player, error) { return newGTP(cmd) }, fmt.Sprintf("%s vs %s", nameOf(*a, *probCutA, true), cmp.Or(*gtpName, cmd))})
	default:
		pairs = append(pairs, pairing{mkLevel(*a, side{probCut: *probCutA, threads: *threadsA, selective: *selA, weights: wa}), mkLevel(*b, side{probCut: *probCutB, threads: 1, noBook: *noBookB, selective: *selB, flat: *flatB, weights: wb}), nameOf(*a, *probCutA, true) + " vs " + nameOf(*b, *probCutB, false)})
	}
	fmt.Printf("| match | games | wins | losses | draws | score | avg disc margin | seconds |\n|---|---|---|---|---|---|---|---|\n")
	for _, p := range pairs {
		t0 := time.Now()
		t, at, err := match(p.a, p.b, *games, *size, *plies, *seed, *workers, test)
		if err != nil {
			fmt.Fprintln(os.Stderr, "arena:", err)
			os.Exit(1)
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %.1f%% | %+.1f | %.0f |\n", p.label, t.games(), t.wins, t.losses, t.draws, t.percent(),
			float64(t.discs)/float64(t.games()), time.Since(t0).Seconds())
		switch {
		case at != nil && at.games() < t.games():
			fmt.Printf("\n%s\n(%d more games were under way and are counted in the table: %s)\n", test.String(at.results()), t.games()-at.games(), test.String(t.results()))
		case test != nil:
			fmt.Printf("\n%s\n", test.String(t.results()))
		}
		if !control.IsZero() {
			fmt.Printf("\nlevel %d on a %s clock: %d losses on time (the other side %d); least time left after a move: %v\n", *a, *clock, t.flags, t.flagsB, clockLow.v.Round(time.Millisecond))
		}
	}
	printLosses()
}

// readWeights loads a weights file for one side; "" is the built-in
// evaluation (nil).
func readWeights(path string) (*pattern.Weights, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	w, err := pattern.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("weights %s: %w", path, err)
	}
	return w, nil
}
