package tournaments

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/gametext"
	"othello-bot/tournament"
)

// The standings table's columns line up when names are Japanese: a wide
// character takes two columns (#44: every column was off).
func TestStandingsColumnsLineUpWithWideNames(t *testing.T) {
	rows := []tournament.Standing{
		{Rank: 1, ID: "1", Name: "さくら", Points: 2, Games: 2, Wins: 2},
		{Rank: 2, ID: "2", Name: "alice", Points: 1, Games: 2, Wins: 1, Losses: 1},
		{Rank: 3, ID: "3", Name: "山田太郎", Points: 0, Games: 2, Losses: 2},
	}
	cell := regexp.MustCompile(`\S+( \S+)*`)
	starts := func(line string) []int {
		var out []int
		for _, m := range cell.FindAllStringIndex(line, -1) {
			out = append(out, gametext.Width(line[:m[0]]))
		}
		return out
	}
	for _, l := range catalog.Supported() {
		table := standingsTable(catalog.For(l), tournament.Swiss, rows)
		lines := strings.Split(table, "\n")
		head := starts(lines[0])
		for _, line := range lines[1:] {
			if got := starts(line); !slices.Equal(got, head) {
				t.Errorf("%s: cells start at columns %v, the head's at %v:\n%s", l, got, head, table)
				break
			}
		}
	}
}
