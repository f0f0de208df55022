package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// maxLevel is the highest level number read as a level.
const maxLevel = 99

// loss is an erring level's loss as arena's loss table gives it, summed
// over tables by games.
type loss struct {
	games          int
	target, limit  string
	total, largest float64 // discs: over all games; on one move
}

func (l loss) add(x loss) loss {
	return loss{games: l.games + x.games, target: x.target, limit: x.limit,
		total: l.total + x.total, largest: max(l.largest, x.largest)}
}

// parseLosses reads arena's loss tables ("| level | games | target |
// measured | cap | largest |"): their lines start with a bare number.
func parseLosses(r io.Reader) (map[int]loss, error) {
	out := map[int]loss{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		cells := strings.Split(strings.Trim(strings.TrimSpace(sc.Text()), "|"), "|")
		if len(cells) != 6 {
			continue
		}
		level, err := strconv.Atoi(strings.TrimSpace(cells[0]))
		if err != nil {
			continue // the header
		}
		games, err1 := strconv.Atoi(strings.TrimSpace(cells[1]))
		per, err2 := strconv.ParseFloat(strings.TrimSpace(cells[3]), 64)
		largest, err3 := strconv.ParseFloat(strings.TrimSpace(cells[5]), 64)
		if err1 != nil || err2 != nil || err3 != nil || games <= 0 {
			return nil, fmt.Errorf("%q: not a loss table's line", sc.Text())
		}
		out[level] = out[level].add(loss{games: games, target: strings.TrimSpace(cells[2]), limit: strings.TrimSpace(cells[4]),
			total: per * float64(games), largest: largest})
	}
	return out, sc.Err()
}

// writeTable prints the levels' table: fitted rating, the step from the
// level below, the games behind it and whom they were against, and the
// erring levels' losses beside their budgets.
func writeTable(w io.Writer, ratings map[string]float64, results []result, losses map[int]loss) {
	fmt.Fprintln(w, "| level | rating | step | games | against | loss a game: target | measured | largest loss: cap | measured |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	prev := math.NaN()
	for l := 1; l <= maxLevel; l++ {
		me := "level " + strconv.Itoa(l)
		r, ok := ratings[me]
		if !ok {
			continue
		}
		games := 0
		against := map[string]int{}
		for _, x := range results {
			n := x.wins + x.losses + x.draws
			switch me {
			case x.a:
				games += n
				against[x.b] += n
			case x.b:
				games += n
				against[x.a] += n
			}
		}
		var names []string
		for o, n := range against {
			names = append(names, fmt.Sprintf("%s (%d)", o, n))
		}
		sort.Strings(names)
		step := "—"
		if !math.IsNaN(prev) {
			step = fmt.Sprintf("%+.0f", math.Round(r/10)*10-math.Round(prev/10)*10)
		}
		prev = r
		cells := "— | — | — | —"
		if x, ok := losses[l]; ok {
			cells = fmt.Sprintf("%s | %.1f | %s | %.1f", x.target, x.total/float64(x.games), x.limit, x.largest)
		}
		fmt.Fprintf(w, "| %d | %.0f | %s | %d | %s | %s |\n", l, math.Round(r/10)*10, step, games, strings.Join(names, ", "), cells)
	}
}
