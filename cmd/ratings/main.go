// Command ratings fits the engine levels' ratings from arena matches: it
// reads the result tables cmd/arena prints (lines "| A vs B | games |
// wins | losses | draws | ..."), fits a Bradley-Terry model by maximum
// likelihood (a draw counts half a win to each side; one virtual draw
// between every pair that met keeps a 100% score finite), and writes the
// ratings on an Elo scale with level 1 (random moves) at 500:
//
//	go run ./cmd/ratings cmd/ratings/matches/*.md > engine/levels.txt
//
// With -table it prints docs/engine.md's table of the levels instead: each
// level's fitted rating, the games behind it, and for the erring levels
// the loss arena measured beside their budget (arena's loss tables).
//
// The scale is our own: it says how the levels compare with each other
// and with the programs they played, not what rating a player of an
// Othello federation or server would have.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// result is one match from the first player's side.
type result struct {
	a, b                string
	wins, losses, draws int
}

// anchor is the player fixed at anchorRating.
const (
	anchor       = "level 1"
	anchorRating = 500
)

func main() {
	table := flag.Bool("table", false, "print the levels' table for docs/engine.md instead of levels.txt")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: ratings [-table] MATCHES.md... > engine/levels.txt")
		os.Exit(2)
	}
	var all []result
	lossRows := map[int]loss{}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ratings:", err)
			os.Exit(1)
		}
		f.Seek(0, io.SeekStart)
		ls, lerr := parseLosses(f)
		f.Seek(0, io.SeekStart)
		rs, err := parse(f)
		f.Close()
		err = errors.Join(err, lerr)
		for l, x := range ls {
			lossRows[l] = lossRows[l].add(x)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "ratings: %s: %v\n", path, err)
			os.Exit(1)
		}
		all = append(all, rs...)
	}
	ratings, err := fit(all)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratings:", err)
		os.Exit(1)
	}
	if *table {
		writeTable(os.Stdout, ratings, all, lossRows)
		return
	}
	write(os.Stdout, ratings, all)
}

// parse reads the result lines of arena's tables.
func parse(r io.Reader) ([]result, error) {
	var out []result
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		cells := strings.Split(strings.Trim(strings.TrimSpace(sc.Text()), "|"), "|")
		if len(cells) < 7 {
			continue // not a match's line (a loss table's has six cells)
		}
		a, b, ok := strings.Cut(strings.TrimSpace(cells[0]), " vs ")
		if !ok {
			continue // the header
		}
		var n [4]int
		for i := range n {
			v, err := strconv.Atoi(strings.TrimSpace(cells[i+1]))
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			n[i] = v
		}
		if n[1]+n[2]+n[3] != n[0] {
			return nil, fmt.Errorf("%q: wins, losses and draws do not add up to the games", sc.Text())
		}
		out = append(out, result{name(a), name(b), n[1], n[2], n[3]})
	}
	return out, sc.Err()
}

// name drops what arena adds to a level's name (ProbCut, searchers) and
// a GTP program's path, so one player has one name.
func name(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ("); i > 0 && strings.HasPrefix(s, "level ") {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// fit finds each player's strength γ maximising the likelihood of the
// results (P(i beats j) = γi/(γi+γj)) by Hunter's MM iteration, then turns
// them into Elo points anchored at level 1.
func fit(results []result) (map[string]float64, error) {
	wins := map[string]float64{}     // each player's score
	games := map[[2]string]float64{} // games between two players
	for _, r := range results {
		s := float64(r.wins) + float64(r.draws)/2
		wins[r.a] += s + 0.5 // the virtual draw
		wins[r.b] += float64(r.wins+r.losses+r.draws) - s + 0.5
		k := pair(r.a, r.b)
		games[k] += float64(r.wins+r.losses+r.draws) + 1
	}
	if _, ok := wins[anchor]; !ok {
		return nil, fmt.Errorf("no match of %s, the anchor of the scale", anchor)
	}
	gamma := map[string]float64{}
	for p := range wins {
		gamma[p] = 1
	}
	for iter := 0; iter < 10000; iter++ {
		next := map[string]float64{}
		change := 0.0
		for p := range gamma {
			den := 0.0
			for k, n := range games {
				switch p {
				case k[0]:
					den += n / (gamma[p] + gamma[k[1]])
				case k[1]:
					den += n / (gamma[p] + gamma[k[0]])
				}
			}
			next[p] = wins[p] / den
		}
		norm := next[anchor]
		for p := range next {
			next[p] /= norm
			change = max(change, math.Abs(math.Log(next[p]/gamma[p])))
		}
		gamma = next
		if change < 1e-9 {
			break
		}
	}
	out := map[string]float64{}
	for p, g := range gamma {
		out[p] = anchorRating + 400*math.Log10(g)
	}
	return out, nil
}

func pair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// write prints engine/levels.txt: each level's rating, then the other
// players as comments.
func write(w io.Writer, ratings map[string]float64, results []result) {
	fmt.Fprintln(w, "# Approximate rating of each engine level, on our own Elo scale (level 1, random moves, = 500).")
	fmt.Fprintln(w, "# Written by: go run ./cmd/ratings cmd/ratings/matches/*.md > engine/levels.txt")
	fmt.Fprintf(w, "# from %d matches (see the README for the arena commands); other players on the same scale:\n", len(results))
	var others []string
	for p := range ratings {
		if !strings.HasPrefix(p, "level ") {
			others = append(others, p)
		}
	}
	sort.Strings(others)
	for _, p := range others {
		fmt.Fprintf(w, "#   %s: %.0f\n", p, ratings[p])
	}
	for l := 1; l <= maxLevel; l++ {
		if r, ok := ratings["level "+strconv.Itoa(l)]; ok {
			fmt.Fprintf(w, "%d %.0f\n", l, math.Round(r/10)*10)
		}
	}
}
