package tournament

import (
	"sort"
)

// Standing is one player's line in the standings.
type Standing struct {
	Rank      int // equal for players equal on points and every tie-break
	ID, Name  string
	Withdrawn bool
	// Points: 1 a win (a bye, a forfeit won), ½ a draw in Swiss and
	// round-robin; arena points (2 a win, 4 on a streak) in an arena.
	Points              float64
	Games               int // games with a result, byes and forfeits included
	Wins, Draws, Losses int
	// Swiss: the sum of the opponents' points (byes add nothing), and the
	// same without the highest and the lowest (with three opponents or
	// more).
	Buchholz, MedianBuchholz float64
	// Round-robin: the points of the players beaten, and half those of
	// the players drawn with.
	SonnebornBerger float64
	// Discs is the sum of disc differences of the games played.
	Discs int
	// Arena: the rating the player's results were worth (the opponents'
	// average, ±500 scaled by wins less losses), and the streak.
	Performance float64
	OnFire      bool
}

// Standings ranks the entrants by the format's points and tie-breaks:
// Swiss by points, Buchholz, median-Buchholz, then discs; round-robin by
// points, Sonneborn-Berger, then discs; arena by points, then
// performance. Games still being played count for nothing yet.
func Standings(format Format, entrants []Entrant, games []Game) []Standing {
	byID := map[string]*Standing{}
	rating := map[string]float64{}
	out := make([]*Standing, 0, len(entrants))
	for _, e := range entrants {
		s := &Standing{ID: e.ID, Name: e.Name, Withdrawn: e.Withdrawn}
		byID[e.ID] = s
		rating[e.ID] = e.Rating
		out = append(out, s)
	}
	half := map[string]int{} // Swiss and round-robin points, in half points
	for _, g := range games {
		if !g.Done() && !g.Bye() {
			continue
		}
		for _, id := range []string{g.Black, g.White} {
			s := byID[id]
			if s == nil {
				continue
			}
			s.Games++
			switch g.Score(id) {
			case 2:
				s.Wins++
			case 1:
				s.Draws++
			default:
				s.Losses++
			}
			half[id] += g.Score(id)
			s.Discs += g.DiscDiff(id)
		}
	}
	for id, s := range byID {
		if format == Arena {
			p, fire := ArenaPoints(id, games)
			s.Points, s.OnFire = float64(p), fire
		} else {
			s.Points = float64(half[id]) / 2
		}
	}
	for _, g := range games {
		if g.Bye() || !g.Done() {
			continue
		}
		for _, id := range []string{g.Black, g.White} {
			s, opp := byID[id], byID[g.Opponent(id)]
			if s == nil || opp == nil {
				continue
			}
			s.Buchholz += opp.Points
			switch g.Score(id) {
			case 2:
				s.SonnebornBerger += opp.Points
			case 1:
				s.SonnebornBerger += opp.Points / 2
			}
		}
	}
	for id, s := range byID {
		var opps []float64
		var ratings []float64
		for _, g := range games {
			if g.Has(id) && !g.Bye() && g.Done() && byID[g.Opponent(id)] != nil {
				opps = append(opps, byID[g.Opponent(id)].Points)
				ratings = append(ratings, rating[g.Opponent(id)])
			}
		}
		s.MedianBuchholz = s.Buchholz
		if len(opps) >= 3 {
			sort.Float64s(opps)
			s.MedianBuchholz -= opps[0] + opps[len(opps)-1]
		}
		if len(ratings) > 0 {
			sum := 0.0
			for _, r := range ratings {
				sum += r
			}
			s.Performance = sum/float64(len(ratings)) + 500*float64(s.Wins-s.Losses)/float64(len(ratings))
		}
	}
	keys := func(s *Standing) []float64 {
		switch format {
		case RoundRobin:
			return []float64{s.Points, s.SonnebornBerger, float64(s.Discs)}
		case Arena:
			return []float64{s.Points, s.Performance}
		}
		return []float64{s.Points, s.Buchholz, s.MedianBuchholz, float64(s.Discs)}
	}
	less := func(a, b *Standing) int { // -1: a above b
		ka, kb := keys(a), keys(b)
		for i := range ka {
			switch {
			case ka[i] > kb[i]:
				return -1
			case ka[i] < kb[i]:
				return 1
			}
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := less(out[i], out[j]); c != 0 {
			return c < 0
		}
		return out[i].Name < out[j].Name
	})
	result := make([]Standing, len(out))
	for i, s := range out {
		s.Rank = i + 1
		if i > 0 && less(out[i-1], s) == 0 {
			s.Rank = result[i-1].Rank
		}
		result[i] = *s
	}
	return result
}

// Podium is who gets a medal at the end: the players still in, in
// standings order, each placed one more than those still in who rank
// above them (players equal on everything share a place), the first
// three places. A player who withdrew gets none and takes no place from
// anyone.
func Podium(rows []Standing) (placed []Standing, places []int) {
	for _, r := range rows {
		if r.Withdrawn {
			continue
		}
		place := 1
		for _, o := range rows {
			if !o.Withdrawn && o.Rank < r.Rank {
				place++
			}
		}
		if place > 3 {
			continue
		}
		placed, places = append(placed, r), append(places, place)
	}
	return placed, places
}
