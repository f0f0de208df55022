package main

// This file is `train book`: the engine's opening book, built by the engine
// alone. From the start it expands the most promising lines first: each
// position taken from the queue is searched to -depth with every move
// scored; each move within -window discs of the best leads to a position
// queued at the cost of the discs it gives away plus -ply-cost a move, so
// the best lines grow deep and the near-best ones branch beside them. When
// -positions are searched, the values are minimaxed over the book's lines
// (a move into a book position is worth what that position's best move
// is) and written to -out. Searches are appended to DIR/book.txt as they
// finish, so a killed run goes on where it stopped, and the same flags
// give the same book.

import (
	"bufio"
	"container/heap"
	"context"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"othello-bot/engine"
	"othello-bot/engine/book"
	"othello-bot/game"
	"othello-bot/game/bitboard"
	"othello-bot/internal/resume"
)

type bookOptions struct {
	dir, out  string
	positions int
	depth     int
	window    float64 // discs
	plyCost   float64 // discs
	maxPly    int
	workers   int // positions searched at once
}

// bookScoring heads a book's log: how its positions' moves were valued
// (engine.ScoreMoves: each move the mean of its two deepest depths, since
// b2c5562). A log of another scoring is refused, not mixed.
const bookScoring = "# book log: ScoreMoves, mean of the two deepest depths"

type bookKey [2]uint64 // side to move's discs, the opponent's; canonical

// bookItem is a queued position.
type bookItem struct {
	key   bookKey
	cost  float64
	ply   int
	order int // ties go first-queued first, so runs agree
}

type bookQueue []bookItem

func (q bookQueue) Len() int { return len(q) }
func (q bookQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].order < q[j].order
}
func (q bookQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bookQueue) Push(x any)   { *q = append(*q, x.(bookItem)) }
func (q *bookQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// bookChild is the position after move x, to move, canonical; sign is -1
// when the opponent moves next (as usual) and +1 when the opponent must
// pass; ok is false when the game is over.
func bookChild(k bookKey, x int) (bookKey, int, bool) {
	t := bitboard.For(8)
	p, o := k[0], k[1]
	f := t.Flips(x, p, o)
	np, no := o^f, p^f|1<<x
	sign := -1
	if bitboard.Moves(np, no, t.Mask) == 0 {
		if bitboard.Moves(no, np, t.Mask) == 0 {
			return bookKey{}, 0, false
		}
		np, no, sign = no, np, 1
	}
	cp, co, _ := bitboard.Canonical(np, no)
	return bookKey{cp, co}, sign, true
}

// bookPosition is the game position of a key (the colour from the number
// of discs: passes are rare enough in the opening to ignore; the search's
// values are the side to move's either way).
func bookPosition(k bookKey) (game.Position, error) {
	toMove := game.Black
	if (bits.OnesCount64(k[0]|k[1])-4)%2 == 1 {
		toMove = game.White
	}
	black, white := k[0], k[1]
	if toMove == game.White {
		black, white = white, black
	}
	var sb strings.Builder
	for x := 0; x < 64; x++ {
		switch {
		case black&(1<<x) != 0:
			sb.WriteByte('X')
		case white&(1<<x) != 0:
			sb.WriteByte('O')
		default:
			sb.WriteByte('-')
		}
	}
	return game.ParseBoard64(sb.String(), toMove)
}

func bookRun(ctx context.Context, o bookOptions, log io.Writer) error {
	if o.dir == "" || o.out == "" {
		return fmt.Errorf("-data and -out are required")
	}
	if o.positions < 1 || o.depth < 1 || o.depth > 20 || o.window < 0 || o.plyCost <= 0 || o.maxPly < 1 {
		return fmt.Errorf("want -positions >= 1, 1 <= -depth <= 20, -window >= 0, -ply-cost > 0, -max-ply >= 1")
	}
	path := filepath.Join(o.dir, "book.txt")
	var took float64
	searched, f, err := resume.Open(o.dir, "book.txt", func(path string) (map[bookKey][]book.Move, error) {
		s, t, err := readBook(path)
		took = t
		return s, err
	})
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		if _, err := f.WriteString(bookScoring + "\n"); err != nil {
			return err
		}
	}
	sr := newBookSearcher(ctx, o, f, searched)
	defer sr.stop()
	start, _ := game.NewPosition(8)
	b0, w0, _ := start.Bitboards()
	cp, co, _ := bitboard.Canonical(b0, w0)
	q := &bookQueue{{key: bookKey{cp, co}}}
	seen := map[bookKey]bool{}
	order, count, fresh := 1, 0, 0
	began := time.Now()
	for q.Len() > 0 && count < o.positions {
		it := heap.Pop(q).(bookItem)
		if seen[it.key] {
			continue
		}
		seen[it.key] = true
		moves, ok := sr.done(it.key)
		if !ok {
			// The searchers besides look ahead at the positions next in the
			// queue: the order (and so the book) is the one a lone searcher
			// gives, and a position looked at early waits in the log.
			var secs float64
			if moves, secs, err = sr.wait(it.key, q, seen); err != nil {
				return fmt.Errorf("searching a book position: %w (progress kept in %s)", err, path)
			}
			took += secs
			if fresh++; fresh%20 == 0 {
				rate := time.Since(began) / time.Duration(fresh)
				fmt.Fprintf(log, "book: %d of %d positions (ply %d, cost %.1f; %s each, about %s left)\n", count+1, o.positions,
					it.ply, it.cost, rate.Round(time.Millisecond), (rate * time.Duration(o.positions-count-1)).Round(time.Second))
			}
		}
		count++
		if it.ply >= o.maxPly || len(moves) == 0 {
			continue
		}
		best := moves[0].Value
		for _, m := range moves {
			loss := float64(best-m.Value) / 100
			if loss > o.window {
				break
			}
			child, _, ok := bookChild(it.key, m.Square)
			if !ok || seen[child] {
				continue
			}
			heap.Push(q, bookItem{key: child, cost: it.cost + loss + o.plyCost, ply: it.ply + 1, order: order})
			order++
		}
	}
	sr.stop() // the searches looking ahead write no more
	if ctx.Err() != nil {
		return fmt.Errorf("stopped; run again to go on (progress in %s)", path)
	}
	// Only what this run's expansion reached goes in (a longer earlier run
	// may have searched more).
	for k := range searched {
		if !seen[k] {
			delete(searched, k)
		}
	}
	bk := minimaxBook(searched)
	data, err := bk.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "book: %d positions, %d bytes, %.0f s of search (depth %d) in all\n", bk.Len(), len(data), took, o.depth)
	left := leavesBookBy(bk, 10, 1000, engine.BookMargin)
	fmt.Fprintf(log, "book: the top level against itself leaves the book by move 10 in %.1f%% of 1000 games (margin %.2f discs)\n",
		100*left, float64(engine.BookMargin)/100)
	return nil
}

// minimaxBook values each move of each position by the book's lines: a
// move into a book position is worth its best move's value, negated (or
// not, when the opponent must pass); other moves keep their search value.
func minimaxBook(searched map[bookKey][]book.Move) *book.Book {
	value := map[bookKey]int{}
	var valueOf func(k bookKey) int
	moveValues := func(k bookKey) []book.Move {
		out := make([]book.Move, len(searched[k]))
		for i, m := range searched[k] {
			out[i] = m
			if child, sign, ok := bookChild(k, m.Square); ok {
				if _, in := searched[child]; in {
					out[i].Value = sign * valueOf(child)
				}
			}
		}
		return out
	}
	valueOf = func(k bookKey) int { // positions only deepen: no cycles
		if v, ok := value[k]; ok {
			return v
		}
		best := -1 << 30
		for _, m := range moveValues(k) {
			best = max(best, m.Value)
		}
		value[k] = best
		return best
	}
	bk := book.New()
	for k := range searched {
		bk.Add(k[0], k[1], moveValues(k))
	}
	return bk
}

// leavesBookBy is the share of games of the book against itself (each
// move drawn as the engine draws it) in which a position before move
// `moves` is not in the book.
func leavesBookBy(bk *book.Book, moves, games int, margin int) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	t := bitboard.For(8)
	left := 0
	for g := 0; g < games; g++ {
		start, _ := game.NewPosition(8)
		p, o, _ := start.Bitboards()
		for ply := 0; ply < moves; ply++ {
			if bitboard.Moves(p, o, t.Mask) == 0 {
				p, o = o, p
			}
			m, ok := bk.Choose(p, o, margin, rng)
			if !ok {
				left++
				break
			}
			f := t.Flips(m.Square, p, o)
			p, o = o^f, p^f|1<<m.Square
		}
	}
	return float64(left) / float64(games)
}

// readBook reads the searches of earlier runs and the seconds they took.
func readBook(path string) (map[bookKey][]book.Move, float64, error) {
	out := map[bookKey][]book.Move{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	took := 0.0
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if first {
			// The log names how its values were scored: values of another
			// scoring cannot be mixed with this engine's.
			if sc.Text() != bookScoring {
				return nil, 0, fmt.Errorf("%s was scored another way (%q, this engine: %q): start a new log", path, sc.Text(), bookScoring)
			}
			continue
		}
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			continue // cut by a kill: searched again
		}
		p, err1 := strconv.ParseUint(fields[0], 16, 64)
		o, err2 := strconv.ParseUint(fields[1], 16, 64)
		secs, err3 := strconv.ParseFloat(fields[2], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, 0, fmt.Errorf("%s: a line that is not a book search: %q", path, sc.Text())
		}
		var moves []book.Move
		for _, mv := range fields[3:] {
			sq, v, ok := strings.Cut(mv, ":")
			x, err1 := strconv.Atoi(sq)
			val, err2 := strconv.Atoi(v)
			if !ok || err1 != nil || err2 != nil || x < 0 || x > 63 {
				return nil, 0, fmt.Errorf("%s: a move that is not square:value: %q", path, mv)
			}
			moves = append(moves, book.Move{Square: x, Value: val})
		}
		out[bookKey{p, o}] = moves
		took += secs
	}
	return out, took, sc.Err()
}
