package puzzle

import (
	"slices"
	"time"

	"othello-bot/record"
)

// Month names a UTC calendar month as the puzzle leader's title keeps it:
// 2026-11.
func Month(t time.Time) string { return t.UTC().Format("2006-01") }

// PreviousMonth is the calendar month (UTC) before now's, as the instants
// [from, to).
func PreviousMonth(now time.Time) (from, to time.Time) {
	now = now.UTC()
	to = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	return to.AddDate(0, -1, 0), to
}

// Leaders are, per server, the players who solved the most puzzles there
// (at least one): all who share the most hold the title together, as a
// tournament's shared first place does. Each server's leaders are sorted.
func Leaders(counts []record.SolvedCount) map[string][]string {
	best := map[string]int{}
	out := map[string][]string{}
	for _, c := range counts {
		switch {
		case c.Count <= 0 || c.Count < best[c.GuildID]:
		case c.Count > best[c.GuildID]:
			best[c.GuildID] = c.Count
			out[c.GuildID] = []string{c.PlayerID}
		default:
			out[c.GuildID] = append(out[c.GuildID], c.PlayerID)
		}
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}
