package gametext

import (
	"strconv"

	"othello-bot/tournament"
)

// StandingsHead is a tournament standings table's column names: rank,
// player, points, games, then the format's tie-breaks.
func (w Words) StandingsHead(format tournament.Format) []string {
	t := w.T
	head := []string{t.T("tournament.col.rank"), t.T("tournament.col.player"), t.T("tournament.col.points"), t.T("tournament.col.games")}
	switch format {
	case tournament.Swiss:
		head = append(head, t.T("tournament.col.buchholz"), t.T("tournament.col.median"), t.T("tournament.col.discs"))
	case tournament.RoundRobin:
		head = append(head, t.T("tournament.col.sb"), t.T("tournament.col.discs"))
	case tournament.Arena:
		head = append(head, t.T("tournament.col.performance"))
	}
	return head
}

// StandingsRow is one line of the table under StandingsHead, the player
// shown as name.
func StandingsRow(format tournament.Format, r tournament.Standing, name string) []string {
	row := []string{strconv.Itoa(r.Rank), name, Points(r.Points), strconv.Itoa(r.Games)}
	switch format {
	case tournament.Swiss:
		row = append(row, Points(r.Buchholz), Points(r.MedianBuchholz), signed(r.Discs))
	case tournament.RoundRobin:
		row = append(row, Points(r.SonnebornBerger), signed(r.Discs))
	case tournament.Arena:
		row = append(row, strconv.Itoa(int(r.Performance+0.5)))
	}
	return row
}

// Points writes a score in halves and quarters as players do: 2½, ¼.
func Points(p float64) string {
	whole := int(p)
	frac := p - float64(whole)
	out := strconv.Itoa(whole)
	switch {
	case frac >= 0.74:
		out += "¾"
	case frac >= 0.49:
		out += "½"
	case frac >= 0.24:
		out += "¼"
	}
	if whole == 0 && frac >= 0.24 {
		out = out[1:]
	}
	return out
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
