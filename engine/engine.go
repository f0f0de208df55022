// Package engine is the bot's Othello player and advisor: twenty levels
// from random moves through opponents that err like people (erring.go) to a
// deep search with an exact endgame solver, move analysis for hints, on
// every board size 4..26.
package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"othello-bot/engine/book"
	"othello-bot/engine/erring"
	"othello-bot/engine/pattern"
	"othello-bot/game"
	"othello-bot/game/bitboard"
	"othello-bot/internal/threadcpu"
)

// Levels run from MinLevel (random moves) to MaxLevel (everything the
// engine has, within the time it is given). Levels 2-15 err by a budget
// (erring.go); 16-20 are searches of growing depth. Before the finer
// scale there were ten levels: OldLevel maps those.
const (
	MinLevel = 1
	MaxLevel = 20
)

// Eval is how a move or position stands for the side to move.
type Eval struct {
	// Cents is the final disc margin in hundredths of a disc: exact when
	// Exact is set, otherwise the evaluation's estimate.
	Cents int
	Exact bool
}

// Discs returns the margin in discs.
func (e Eval) Discs() float64 { return float64(e.Cents) / discUnit }

// String writes the evaluation for players: "+2.5" or "exact +6".
func (e Eval) String() string {
	if e.Exact {
		return fmt.Sprintf("exact %+d", e.Cents/discUnit)
	}
	return fmt.Sprintf("%+.1f", e.Discs())
}

// Result is the move an engine chose and what it knows about it.
type Result struct {
	Move  game.Square
	Eval  Eval
	Depth int // plies searched; 0 for level 1 and book moves
	Nodes uint64
	Book  bool // played from the opening book
	// Loss is what an erring level gave away by its choice, in hundredths
	// of a disc, as its own search values the moves (0 for the best move
	// and for the other levels).
	Loss int
}

// MoveEval is one legal move with its evaluation.
type MoveEval struct {
	Move game.Square
	Eval Eval
	Book bool // a move the book plays here
}

// Options configure an Engine.
type Options struct {
	// MoveTime is the thinking time used when the context has no deadline.
	MoveTime time.Duration
	// Searches is how many searches may run at once; 0 means one per CPU.
	// Each holds about 30 MB of tables.
	Searches int
	// QuickSearches are searchers kept for quick searches alone (levels up
	// to 17 on boards up to 10x10, and hints there): a player's fast reply
	// never queues behind other players' long thinks. 0 means 1; -1 none.
	QuickSearches int
	// AnalyzeNodes bounds a hint's deepening: no depth starts after this
	// many nodes (0: 1.5 million, about half a second here).
	AnalyzeNodes uint64
	// Weights replace the built-in trained evaluation of 8x8 positions
	// (for training new ones); nil keeps the built-in one. HandTuned uses
	// the hand-tuned evaluation instead (what the first training round
	// played with).
	Weights   *pattern.Weights
	HandTuned bool
	// ProbCut turns Multi-ProbCut on in the top level's timed midgame search
	// on 8x8, with this confidence (in spreads of the regression; 1.2, the default, cuts
	// wrongly about 12% of the time it cuts); 0 leaves it off. Fixed-depth
	// searches (the other levels, hints, analyses, evaluations) never cut.
	ProbCut float64
	// NoBook keeps levels 17-20 from playing the opening book (for making
	// the book, and to measure what it is worth).
	NoBook bool
	// Book replaces the built-in opening book (for tests); nil keeps it.
	Book *book.Book
	// Selective is how many empty squares beyond what it solves exactly
	// the top level solves selectively on 8x8 (the selective endgame search,
	// endmpc.go): 0 means DefaultSelective, -1 none.
	Selective int
	// Nodes is a work budget for the top level: it searches this many nodes
	// and answers, whatever the clock says, so the same position gets the
	// same move on any machine, loaded or not (matches that measure the
	// engine, not the machine). What it tries to solve is sized by the
	// budget too. The move time stays only as a safety net. 0: none (the
	// move time decides). With more than one searcher the helpers' nodes
	// are not counted in it: give it Searches 1 to be exact.
	Nodes uint64
	// Depth caps the top level's midgame depth (0: none).
	Depth int
	// Budgets replace erring levels' budgets (for calibrating them: cmd/arena
	// -budgets); a level given one errs by it whatever it was.
	Budgets map[int]erring.Budget
}

// nodesPerSecond turns a node budget into the time it stands for here
// (one core), to size what the top level tries to solve from the budget.
const nodesPerSecond = 10_000_000

// DefaultSelective is the top level's reach of the selective endgame search
// beyond its exact one, in empty squares.
const DefaultSelective = 3

// BookMargin is how far below the book's best move, in hundredths of a
// disc, a move may be and still be played from the book (at random among
// those), so that games differ; hints and analyses mark such moves.
const BookMargin = 100

// bookLevel is the lowest level that plays the opening book.
const bookLevel = 17

// Engine chooses moves. It is safe for concurrent use; searches beyond
// Options.Searches wait for a free searcher.
type Engine struct {
	opts  Options
	slots chan *searcher
	quick chan *searcher // for quick searches only
	// The parallel search's helpers (parallel.go): the searchers lent now,
	// and how many searches wait for a searcher (no lending meanwhile).
	mu      sync.Mutex
	lent    map[*team]struct{}
	waiting atomic.Int32
	splits  atomic.Uint64 // split points made by its parallel searches
	cpu     atomic.Int64  // CPU time its searchers spent, in nanoseconds
	tables  atomic.Int64  // bytes of its searchers' tables, made so far
	habits  atomic.Pointer[Habits]
}

// TableBytes is the memory of the engine's searchers' tables: made as
// searches first need a searcher, then kept (tens of MiB each), whatever
// the number of games.
func (e *Engine) TableBytes() int64 { return e.tables.Load() }

// CPU is the CPU time the engine's searches have spent so far (each
// searcher's thread, helpers included; the instant levels 1 and 2 take
// none): what thinking costs, apart from the rest of the process.
func (e *Engine) CPU() time.Duration { return time.Duration(e.cpu.Load()) }

// New returns an engine.
func New(opts Options) *Engine {
	if opts.MoveTime <= 0 {
		opts.MoveTime = 2 * time.Second
	}
	if opts.Searches <= 0 {
		opts.Searches = runtime.GOMAXPROCS(0)
	}
	if opts.QuickSearches == 0 {
		opts.QuickSearches = 1
	}
	if opts.Book == nil {
		opts.Book = book.Builtin
	}
	e := &Engine{opts: opts, slots: make(chan *searcher, opts.Searches), quick: make(chan *searcher, max(0, opts.QuickSearches)), lent: map[*team]struct{}{}}
	for i := 0; i < opts.Searches; i++ {
		e.slots <- nil // made on first use
	}
	for i := 0; i < cap(e.quick); i++ {
		e.quick <- nil
	}
	return e
}

// ErrBusy is returned when every searcher stayed busy until the deadline:
// the caller should try again later.
var ErrBusy = errors.New("engine: every searcher is busy")

// ErrNoMove is returned when the side to move has no legal move.
var ErrNoMove = errors.New("engine: no legal move to choose from")

// levelSpec is what a level may do: its midgame depth and from how many
// empty squares it plays the endgame perfectly; an erring level (a budget
// set) values every move so and then errs by its budget.
type levelSpec struct {
	depth, solve int
	budget       erring.Budget
}

// The search levels; the erring ones are in erring.go.
var levels = func() [MaxLevel + 1]levelSpec {
	l := erringLevels
	l[16] = levelSpec{depth: 5, solve: 10}
	l[17] = levelSpec{depth: 6, solve: 12}
	l[18] = levelSpec{depth: 8, solve: 14}
	l[19] = levelSpec{depth: 10, solve: 18}
	l[20] = levelSpec{depth: 64, solve: 26} // as deep as its time allows
	return l
}()

// Move chooses a move for the side to move at the given level, returning by
// the context's deadline (or after Options.MoveTime without one). rng
// supplies the randomness of the levels below the search levels and of the
// book, and may be nil.
func (e *Engine) Move(ctx context.Context, p game.Position, level int, rng *rand.Rand) (Result, error) {
	return e.MoveOnClock(ctx, p, level, rng, 0)
}

// MoveOnClock is Move for a player on a clock (timecontrol.PlanMove):
// the top level aims to answer after target — past it, it starts no deeper
// iteration while its best move holds and no further endgame stage — and
// goes on towards the context's deadline (the plan's Max) only while its
// best move keeps changing. What it does not spend
// stays on its clock for the moves to come. A zero target spends the
// whole time, as Move does.
func (e *Engine) MoveOnClock(ctx context.Context, p game.Position, level int, rng *rand.Rand, target time.Duration) (Result, error) {
	if level < MinLevel || level > MaxLevel {
		return Result{}, fmt.Errorf("engine: level %d is not between %d and %d", level, MinLevel, MaxLevel)
	}
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return Result{}, ErrNoMove
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	switch {
	case level == 1:
		return Result{Move: moves[rng.IntN(len(moves))]}, nil
	case len(moves) == 1 && level < MaxLevel:
		return greedy(p, moves, rng), nil
	}
	if level >= bookLevel && !e.opts.NoBook && p.Size() == 8 {
		mine, theirs := own(p)
		if m, ok := e.opts.Book.Choose(mine, theirs, BookMargin, rng); ok {
			return Result{Move: square(m.Square), Eval: Eval{Cents: m.Value}, Book: true}, nil
		}
	}
	if level == MaxLevel && e.opts.Nodes > 0 {
		if _, ok := ctx.Deadline(); !ok {
			// A work budget decides; the clock is a safety net far away.
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, max(e.opts.MoveTime, time.Minute))
			defer cancel()
		}
	}
	ctx, cancel := e.budget(ctx)
	defer cancel()
	s, release, err := e.acquireFor(ctx, level <= quickLevel && p.Size() <= quickSize)
	if err != nil {
		// No searcher came free in time: a quick move beats none.
		return greedy(p, moves, rng), nil
	}
	defer release()
	if spec := e.spec(level); spec.budget.PerGame > 0 {
		return s.errByBudget(ctx, p, spec, rng, e.openingHabits(p)), nil
	}
	if level == MaxLevel {
		s.limit, s.maxDepth = e.opts.Nodes, e.opts.Depth
		defer func() { s.limit, s.maxDepth = 0, 0 }()
	}
	return s.choose(ctx, p, level, e.helpSearch, target), nil
}

// Search chooses a move by a search of depth plies, playing the last solve
// empty squares perfectly — what the search levels of before did (the ten
// levels' 3-9 were depth 2-10; OldSearch gives their pairs). The training
// tools play with it, so their games stay what they were.
func (e *Engine) Search(ctx context.Context, p game.Position, depth, solve int) (Result, error) {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return Result{}, ErrNoMove
	}
	if depth < 1 || solve < 0 {
		return Result{}, fmt.Errorf("engine: a search of depth %d solving from %d empties", depth, solve)
	}
	ctx, cancel := e.budget(ctx)
	defer cancel()
	s, release, err := e.acquireFor(ctx, depth <= levels[quickLevel].depth && p.Size() <= quickSize)
	if err != nil {
		return Result{}, err
	}
	defer release()
	return s.chooseSpec(ctx, p, levelSpec{depth: depth, solve: solve}, 0, e.helpSearch, 0), nil
}

// OldSearch is the depth and the solve of a search level of the ten levels
// there were before (3-9), for tools that name them; false for others.
func OldSearch(level int) (depth, solve int, ok bool) {
	if level < 3 || level > 9 {
		return 0, 0, false
	}
	d := oldSearches[level-3]
	return d[0], d[1], true
}

var oldSearches = [...][2]int{{2, 4}, {3, 6}, {4, 8}, {5, 10}, {6, 12}, {8, 14}, {10, 18}}

// Analyze evaluates every legal move, best first: exactly when the
// endgame can be solved in time, else as deeply as the analysis's node
// budget (Options.AnalyzeNodes) goes.
func (e *Engine) Analyze(ctx context.Context, p game.Position) ([]MoveEval, error) {
	h, err := e.Hint(ctx, p)
	return h.Moves, err
}

// Hint is an analysis of every legal move (Engine.Hint).
type Hint struct {
	Moves []MoveEval // best first
	// CutShort says the context's deadline, a safety net, stopped the
	// search before its node budget was spent (a machine far slower
	// than planned): the values are shallower than the same position
	// gets elsewhere, and may differ if asked again.
	CutShort bool
}

// Hint is Analyze saying whether the deadline cut it short: bounded by
// nodes, the same position gets the same values on any machine unless
// the deadline comes first.
func (e *Engine) Hint(ctx context.Context, p game.Position) (Hint, error) {
	if !p.HasMoves() {
		return Hint{}, ErrNoMove
	}
	bctx, cancel := e.budget(ctx)
	defer cancel()
	s, release, err := e.acquireFor(bctx, p.Size() <= quickSize)
	if err != nil {
		if ctx.Err() != nil {
			return Hint{}, err // the caller gave up, or its deadline came first (ErrBusy)
		}
		return Hint{}, ErrBusy
	}
	defer release()
	moves, cut := s.analyze(bctx, p, e.helpSearch, cmp.Or(e.opts.AnalyzeNodes, analyzeNodes))
	return Hint{Moves: e.markBook(p, moves), CutShort: cut}, nil
}

// markBook marks the moves the book would play.
func (e *Engine) markBook(p game.Position, evals []MoveEval) []MoveEval {
	for _, m := range e.BookMoves(p) {
		for i := range evals {
			if evals[i].Move == m {
				evals[i].Book = true
			}
		}
	}
	return evals
}

// BookMoves are the moves levels 17-20 play from the opening book in an
// 8x8 position (within BookMargin of its best), none when the position is
// not in the book.
func (e *Engine) BookMoves(p game.Position) []game.Square {
	if e.opts.NoBook || p.Size() != 8 {
		return nil
	}
	mine, theirs := own(p)
	var out []game.Square
	for _, m := range e.opts.Book.Candidates(mine, theirs, BookMargin) {
		out = append(out, square(m.Square))
	}
	return out
}

// Solve plays the endgame perfectly: the best move and the exact final
// margin (empties to the winner). It runs until done or until ctx ends, and
// is meant for boards of 8x8 or less with few empty squares.
func (e *Engine) Solve(ctx context.Context, p game.Position) (Result, error) {
	if _, _, ok := p.Bitboards(); !ok {
		return Result{}, fmt.Errorf("engine: exact solving works on boards up to 8x8, not %dx%d", p.Size(), p.Size())
	}
	if !p.HasMoves() {
		return Result{}, ErrNoMove
	}
	s, release, err := e.acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	defer release()
	stop := s.start(ctx, p.Size(), time.Time{})
	defer stop()
	mine, theirs := own(p)
	done := e.helpSearch(s)
	r := s.solveRoot(mine, theirs, false)
	s.nodes += done()
	if s.aborted {
		return Result{}, fmt.Errorf("engine: solve stopped after %d nodes: %w", s.nodes, context.Cause(ctx))
	}
	return Result{Move: square(r[0].x), Eval: Eval{int(r[0].score) * discUnit, true}, Depth: p.Empties(), Nodes: s.nodes}, nil
}

// Evaluate is the value of a position for the side to move by a search of
// the given depth, exact when that reaches the end of the game on every
// line. It works on boards of 8x8 or less and is meant for training and
// analysis, where a fixed depth makes values comparable.
func (e *Engine) Evaluate(ctx context.Context, p game.Position, depth int) (Eval, error) {
	if _, _, ok := p.Bitboards(); !ok {
		return Eval{}, fmt.Errorf("engine: fixed-depth evaluation works on boards up to 8x8, not %dx%d", p.Size(), p.Size())
	}
	mine, theirs := own(p)
	if p.GameOver() {
		return Eval{finalDiff(mine, theirs, bitboard.For(p.Size()).Mask) * discUnit, true}, nil
	}
	sign := 1
	if !p.HasMoves() {
		mine, theirs, sign = theirs, mine, -1
	}
	s, release, err := e.acquire(ctx)
	if err != nil {
		return Eval{}, err
	}
	defer release()
	stop := s.start(ctx, p.Size(), time.Time{})
	defer stop()
	empties := p.Empties()
	r := s.iterate(mine, theirs, max(1, min(depth, empties)), empties, time.Time{})
	if s.aborted {
		return Eval{}, fmt.Errorf("engine: evaluation stopped: %w", context.Cause(ctx))
	}
	r.Eval.Cents *= sign
	return r.Eval, nil
}

// ScoreMoves scores every legal move of a position, best first: exactly
// when at most exactFrom squares are empty, otherwise by a search of the
// given depth. Unlike Analyze it is not bound by time but by depth, so the
// scores are the same on every machine: it is meant for game analysis.
// It works on boards of 8x8 or less.
func (e *Engine) ScoreMoves(ctx context.Context, p game.Position, depth, exactFrom int) ([]MoveEval, error) {
	if _, _, ok := p.Bitboards(); !ok {
		return nil, fmt.Errorf("engine: analysis works on boards up to 8x8, not %dx%d", p.Size(), p.Size())
	}
	if !p.HasMoves() {
		return nil, ErrNoMove
	}
	s, release, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	stop := s.start(ctx, p.Size(), time.Time{})
	defer stop()
	out := s.scoreAll(p, depth, exactFrom)
	if s.aborted {
		return nil, fmt.Errorf("engine: analysis stopped: %w", context.Cause(ctx))
	}
	return out, nil
}

// scoreAll is ScoreMoves on a started searcher; its result is not to be
// used when s.aborted.
func (s *searcher) scoreAll(p game.Position, depth, exactFrom int) []MoveEval {
	mine, theirs := own(p)
	empties := p.Empties()
	if empties <= exactFrom {
		r := s.solveRoot(mine, theirs, true)
		return toMoveEvals(r, func(v int32) Eval { return Eval{int(v) * discUnit, true} })
	}
	var r, before []rootResult
	prev := -1
	for d := 1; d <= max(1, min(depth, empties)); d++ {
		next := s.searchRoot(mine, theirs, d, prev, true)
		if s.aborted {
			break
		}
		before, r = r, next
		prev = r[0].x
	}
	deep := depth >= empties
	if !deep && before != nil {
		// The mean of the two deepest depths, so a game's curve does not
		// swing with who moves last in each search (see evenedOut).
		r = evenedOut(r, before)
	}
	return toMoveEvals(r, func(v int32) Eval { return evalOf(v, deep) })
}

// budget gives ctx a deadline if it has none, and keeps a little margin
// so the answer is back before the caller's deadline.
func (e *Engine) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now().Add(e.opts.MoveTime)
	}
	margin := time.Until(d) / 20
	if margin > 100*time.Millisecond {
		margin = 100 * time.Millisecond
	}
	return context.WithDeadline(ctx, d.Add(-margin))
}

func (e *Engine) acquire(ctx context.Context) (*searcher, func(), error) {
	return e.acquireFor(ctx, false)
}

// The fairness rule: searches that finish in milliseconds (fixed-depth
// levels on small boards) and hints on small boards may also take the
// searchers kept for them, so they never wait for a long think (level
// 10, big boards, analyses, solves) to end. The long ones share the
// other searchers, one per core; the quick lane costs them a little CPU
// only while a quick search runs.
const (
	quickLevel = 17
	quickSize  = 10
)

// Load says how many searches run now (each searcher taken, helpers of
// a parallel search included) and how many wait for a searcher.
func (e *Engine) Load() (running, queued int) {
	return cap(e.slots) - len(e.slots) + cap(e.quick) - len(e.quick), int(e.waiting.Load())
}

// acquireFor takes a free searcher: from the shared ones, or for a quick
// search from whichever lane frees first.
func (e *Engine) acquireFor(ctx context.Context, quick bool) (*searcher, func(), error) {
	lane := e.quick
	if !quick {
		lane = nil // never ready
	}
	var s *searcher
	var home chan *searcher
	select {
	case s = <-e.slots:
		home = e.slots
	case s = <-lane:
		home = e.quick
	default:
		// None free: helpers lent to a parallel search come back first.
		e.waiting.Add(1)
		e.reclaim()
		select {
		case s = <-e.slots:
			home = e.slots
		case s = <-lane:
			home = e.quick
		case <-ctx.Done():
			e.waiting.Add(-1)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// Every searcher stayed busy until the deadline: load, not
				// a fault (and still the deadline, for callers that ask).
				return nil, nil, fmt.Errorf("%w: %w", ErrBusy, ctx.Err())
			}
			return nil, nil, ctx.Err()
		}
		e.waiting.Add(-1)
	}
	if s == nil {
		s = e.newSearcher()
	}
	// The searcher's work is timed on its thread: the caller searches
	// from here to its release, on this goroutine.
	cpu := threadcpu.Start()
	s.cpu, s.cpuSpent = &cpu, &e.cpu
	return s, func() {
		s.cpu, s.cpuSpent = nil, nil
		e.cpu.Add(int64(cpu.Stop()))
		home <- s
	}, nil
}

// newSearcher makes a searcher with the engine's options.
func (e *Engine) newSearcher() *searcher {
	s := newSearcher()
	e.tables.Add(s.tt.bytes() + s.ett.bytes())
	s.weights, s.handTuned = e.opts.Weights, e.opts.HandTuned
	s.mpcT = e.opts.ProbCut
	switch s.selective = e.opts.Selective; s.selective {
	case 0:
		s.selective = DefaultSelective
	case -1:
		s.selective = 0
	}
	return s
}

// greedy is the quick move when no searcher is free (and the only move when
// there is one): the move that flips most, with a beginner's sense of
// corners (take one when possible, avoid the squares that give one away),
// choosing at random among equals. Flipping most without that sense plays
// no better than random moves.
func greedy(p game.Position, moves []game.Square, rng *rand.Rand) Result {
	best, n := -1<<30, 0
	var choice game.Square
	for _, m := range moves {
		score := len(p.Flips(m)) + 100*cornerSense(p, m)
		switch {
		case score > best:
			best, n, choice = score, 1, m
		case score == best:
			n++
			if rng.IntN(n) == 0 {
				choice = m
			}
		}
	}
	return Result{Move: choice}
}

// cornerSense is +1 for a corner, -1 for a square next to an empty corner.
func cornerSense(p game.Position, m game.Square) int {
	last := p.Size() - 1
	edge := func(v int) int { // 0 at an edge, 1 next to one, 2 elsewhere
		return min(v, last-v, 2)
	}
	c, r := edge(m.Col), edge(m.Row)
	if c == 0 && r == 0 {
		return 1
	}
	if c <= 1 && r <= 1 {
		corner := game.Square{Col: m.Col, Row: m.Row}
		if corner.Col == 1 {
			corner.Col = 0
		} else if corner.Col == last-1 {
			corner.Col = last
		}
		if corner.Row == 1 {
			corner.Row = 0
		} else if corner.Row == last-1 {
			corner.Row = last
		}
		if p.At(corner) == game.Empty {
			return -1
		}
	}
	return 0
}

func own(p game.Position) (mine, theirs uint64) {
	b, w, _ := p.Bitboards()
	if p.ToMove() == game.White {
		return w, b
	}
	return b, w
}

func square(x int) game.Square { return game.Square{Col: x % 8, Row: x / 8} }

// start readies the searcher for one search: it stops when ctx ends or at
// the deadline (none if zero). The returned func releases the context hook.
func (s *searcher) start(ctx context.Context, size int, deadline time.Time) func() bool {
	var cancelled atomic.Bool
	s.reset(size, &cancelled)
	s.deadline, s.target = deadline, time.Time{}
	return context.AfterFunc(ctx, func() { cancelled.Store(true) })
}

// choose runs a search level on a position with legal moves; the top level
// aims at target when it is not zero (see MoveOnClock).
func (s *searcher) choose(ctx context.Context, p game.Position, level int, help helpFunc, target time.Duration) Result {
	return s.chooseSpec(ctx, p, levels[level], level, help, target)
}

// chooseSpec is choose with the spec given; level is MaxLevel for the top
// level's ways (its clock, budget and helpers), anything else otherwise.
func (s *searcher) chooseSpec(ctx context.Context, p game.Position, spec levelSpec, level int, help helpFunc, target time.Duration) Result {
	end, _ := ctx.Deadline()
	if _, _, ok := p.Bitboards(); !ok {
		return chooseGrid(ctx, p, spec.depth, level == MaxLevel)
	}
	stop := s.start(ctx, p.Size(), end)
	defer stop()
	mine, theirs := own(p)
	empties := p.Empties()
	solve := spec.solve
	switch {
	case level == MaxLevel && s.limit > 0:
		// Sized by the work budget, never by the clock.
		solve = solveLimit(time.Duration(float64(s.limit) / nodesPerSecond * float64(time.Second)))
	case level == MaxLevel:
		solve = solveLimit(time.Until(end))
		if target > 0 {
			// A solve cannot stop at the target: attempt only what fits
			// in a little more than it.
			s.target = time.Now().Add(target)
			solve = solveLimit(min(time.Until(end), target*3/2))
		}
	}
	if empties > solve {
		if level == MaxLevel && s.mpcT > 0 && p.Size() == 8 {
			s.mpc = defaultMPC
		}
		maxDepth := min(spec.depth, empties)
		if level == MaxLevel && s.maxDepth > 0 {
			maxDepth = min(maxDepth, s.maxDepth)
		}
		if level == MaxLevel {
			done := help(s)
			var r Result
			if p.Size() == 8 && empties <= solve+s.selective {
				r = s.selectiveEndgame(mine, theirs, maxDepth, empties, end)
			} else {
				r = s.iterate(mine, theirs, maxDepth, empties, end)
			}
			r.Nodes += done()
			return r
		}
		return s.iterate(mine, theirs, maxDepth, empties, end)
	}
	// A short midgame search first, so a solve that does not finish in
	// time still leaves a sound move.
	fallback := s.iterate(mine, theirs, min(spec.depth, 4, empties), empties, end)
	done := func() uint64 { return 0 }
	if level == MaxLevel {
		done = help(s)
	}
	r := s.solveRoot(mine, theirs, false)
	s.nodes += done()
	if !s.aborted {
		return Result{Move: square(r[0].x), Eval: Eval{int(r[0].score) * discUnit, true}, Depth: empties, Nodes: s.nodes}
	}
	fallback.Nodes = s.nodes
	return fallback
}

// pastTarget says a move on a clock has spent the time it aimed at.
func (s *searcher) pastTarget() bool { return !s.target.IsZero() && time.Now().After(s.target) }

// helpFunc lends helpers to a search (Engine.helpSearch).
type helpFunc func(s *searcher) (done func() uint64)

// solveLimit is how many empty squares the top level tries to solve
// exactly in the given time: about one more for each doubling of it.
func solveLimit(budget time.Duration) int {
	n := 19 // at 1s; then 19 + floor(log2(seconds)), within 14..24
	for t := 2 * time.Second; t <= budget && n < 24; t *= 2 {
		n++
	}
	for t := time.Second; t > budget && n > 14; t /= 2 {
		n--
	}
	return n
}

// iterate deepens the midgame search up to maxDepth, until the deadline:
// the time a move may take is the player's choice (a fixed time a move,
// or what the clock plan gives it), so all of it is spent. An iteration
// cut short by the deadline still counts once its first move is searched
// (see searchRoot): the best move so far is searched first, and any move
// that beats it replaces it. The first move of the ordering stands in if
// not even depth 1 finishes.
func (s *searcher) iterate(mine, theirs uint64, maxDepth, empties int, end time.Time) Result {
	var list [40]scoredMove
	s.orderMoves(mine, theirs, bitboard.Moves(mine, theirs, s.t.Mask), -1, &list, orderDeep)
	res := Result{Move: square(int(list[0].x))}
	prev := -1
	settled := false // the last two depths agreed on the best move
	for d := 1; d <= maxDepth && (end.IsZero() || time.Now().Before(end)); d++ {
		if d > 2 && settled && s.pastTarget() {
			break
		}
		if d > 1 && s.iterNodes > 0 && s.nodes >= s.iterNodes {
			break // its share of a work budget spent
		}
		r := s.searchRoot(mine, theirs, d, prev, false)
		if s.aborted {
			if len(r) > 0 && d > 1 {
				res = Result{Move: square(r[0].x), Eval: evalOf(r[0].score, false), Depth: d}
			}
			break
		}
		settled = prev == r[0].x
		prev = r[0].x
		res = Result{Move: square(r[0].x), Eval: evalOf(r[0].score, d >= empties), Depth: d}
	}
	res.Nodes = s.nodes
	return res
}

// analyze scores every move for a hint; cut says the deadline stopped it
// before its node budget was spent.
func (s *searcher) analyze(ctx context.Context, p game.Position, help helpFunc, nodes uint64) (evals []MoveEval, cut bool) {
	t0 := time.Now()
	end, _ := ctx.Deadline()
	if _, _, ok := p.Bitboards(); !ok {
		return analyzeGrid(ctx, p), false
	}
	stop := s.start(ctx, p.Size(), t0.Add(end.Sub(t0)*6/10))
	defer stop()
	mine, theirs := own(p)
	empties := p.Empties()
	if empties <= 20 {
		// Exact values are the same however many threads find them.
		done := help(s)
		r := s.solveRoot(mine, theirs, true)
		done()
		if !s.aborted {
			return toMoveEvals(r, func(v int32) Eval { return Eval{int(v) * discUnit, true} }), false
		}
		s.aborted = false
	}
	// The same position gives the same answer: one thread, a cleared
	// table, and depths bounded by nodes searched rather than by the
	// clock (the deadline only stops a machine far slower than planned).
	s.deadline = end
	var list [40]scoredMove
	n := s.orderMoves(mine, theirs, bitboard.Moves(mine, theirs, s.t.Mask), -1, &list, orderDeep)
	var last, before []rootResult // the two deepest searches done
	depthDone := 0
	for d := 1; d <= empties && d <= 20; d++ {
		if d > 1 && s.nodes >= nodes {
			break
		}
		first := int(list[0].x)
		if last != nil {
			first = last[0].x
		}
		r := s.searchRoot(mine, theirs, d, first, true)
		if s.aborted {
			cut = true // the budget was not spent: the deadline came first
			break
		}
		before, last, depthDone = last, r, d
	}
	if last == nil {
		last = make([]rootResult, n)
		for i := range n {
			last[i] = rootResult{int(list[i].x), 0}
		}
	}
	exact := depthDone >= empties
	if !exact && before != nil {
		last = evenedOut(last, before)
	}
	return toMoveEvals(last, func(v int32) Eval { return evalOf(v, exact) }), cut
}

// analyzeNodes is Options.AnalyzeNodes's default: about half a second
// here (the depth under way may take three times as long).
const analyzeNodes = 1_500_000

// evenedOut averages each move's score at the deepest search with the one
// before it, best first. The evaluation leans towards whoever moves last
// in a search, so odd and even depths swing by several discs; their mean
// holds still from one depth, and one ply of the game, to the next.
func evenedOut(last, before []rootResult) []rootResult {
	prev := map[int]int32{}
	for _, r := range before {
		prev[r.x] = r.score
	}
	out := make([]rootResult, len(last))
	for i, r := range last {
		out[i] = r
		if b, ok := prev[r.x]; ok && r.score > -winBonus && r.score < winBonus && b > -winBonus && b < winBonus {
			out[i].score = (r.score + b) / 2
		}
	}
	slices.SortStableFunc(out, func(a, b rootResult) int { return cmp.Compare(b.score, a.score) })
	return out
}

func toMoveEvals(r []rootResult, conv func(int32) Eval) []MoveEval {
	out := make([]MoveEval, len(r))
	for i, m := range r {
		out[i] = MoveEval{Move: square(m.x), Eval: conv(m.score)}
	}
	return out
}

// evalOf turns a search score into an Eval; exact says the search reached
// the end of the game on every line.
func evalOf(v int32, exact bool) Eval {
	switch {
	case v >= winBonus:
		return Eval{int(v - winBonus), exact}
	case v <= -winBonus:
		return Eval{int(v + winBonus), exact}
	}
	return Eval{int(v), exact && v == 0}
}
