package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"othello-bot/engine"
	"othello-bot/engine/erring"
)

// lossStats is what an erring level gave away, as its own search values
// the moves (engine.Result.Loss): per game on average and on one move at
// most, to set beside the budget it aims at.
type lossStats struct {
	mu      sync.Mutex
	games   int
	total   int // hundredths of a disc, over the games counted
	largest int
}

// losses holds each level's, shared by every game that level plays.
var losses = struct {
	sync.Mutex
	by map[int]*lossStats
}{by: map[int]*lossStats{}}

func lossesOf(level int) *lossStats {
	losses.Lock()
	defer losses.Unlock()
	if losses.by[level] == nil {
		losses.by[level] = &lossStats{}
	}
	return losses.by[level]
}

// game counts one finished game's total loss.
func (l *lossStats) game(total int) {
	l.mu.Lock()
	l.games++
	l.total += total
	l.mu.Unlock()
}

func (l *lossStats) move(loss int) {
	l.mu.Lock()
	l.largest = max(l.largest, loss)
	l.mu.Unlock()
}

// printLosses writes a table of the erring levels that played.
func printLosses() {
	losses.Lock()
	var levels []int
	for l, s := range losses.by {
		if budgetOf(l).PerGame > 0 && s.games > 0 {
			levels = append(levels, l)
		}
	}
	losses.Unlock()
	if len(levels) == 0 {
		return
	}
	sort.Ints(levels)
	fmt.Printf("\n| level | games | loss per game: target | measured | largest loss: cap | measured |\n|---|---|---|---|---|---|\n")
	for _, l := range levels {
		s, b := lossesOf(l), budgetOf(l)
		limit := "none"
		if b.Cap > 0 {
			limit = fmt.Sprintf("%g", b.Cap)
		}
		fmt.Printf("| %d | %d | %g | %.1f | %s | %.1f |\n", l, s.games, b.PerGame, float64(s.total)/100/float64(s.games), limit, float64(s.largest)/100)
	}
}

// parseBudgets reads -budgets: LEVEL=PERGAME[,CAP] separated by spaces or
// semicolons, to try budgets before they are set in the engine.
func parseBudgets(s string) (map[int]erring.Budget, error) {
	out := map[int]erring.Budget{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ' ' }) {
		lv, rest, ok := strings.Cut(f, "=")
		per, limit, _ := strings.Cut(rest, ",")
		level, err1 := strconv.Atoi(lv)
		b := erring.Budget{}
		var err2, err3 error
		b.PerGame, err2 = strconv.ParseFloat(per, 64)
		if limit != "" {
			b.Cap, err3 = strconv.ParseFloat(limit, 64)
		}
		if !ok || err1 != nil || err2 != nil || err3 != nil || level <= engine.MinLevel || level >= engine.MaxLevel || b.PerGame <= 0 || b.Cap < 0 {
			return nil, fmt.Errorf("arena: -budgets %q: want LEVEL=PERGAME[,CAP] with a level between %d and %d", f, engine.MinLevel+1, engine.MaxLevel-1)
		}
		out[level] = b
	}
	return out, nil
}

// budgetOf is the budget a level plays with here.
func budgetOf(level int) erring.Budget {
	if b, ok := budgets[level]; ok {
		return b
	}
	return engine.Budget(level)
}

// budgets are -budgets, read.
var budgets map[int]erring.Budget
