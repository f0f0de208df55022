package tournament

// This file is what the bot asks of a running tournament's pairings as
// they stand: whether a round is over, the next arena games, a round's
// boards.

import "time"

// Games are the pairings as the rules see them.
func Games(pairings []Pairing) []Game {
	out := make([]Game, len(pairings))
	for i, p := range pairings {
		out[i] = p.Game
	}
	return out
}

// AllDone reports whether every pairing has its result.
func AllDone(pairings []Pairing) bool {
	for _, p := range pairings {
		if !p.Bye() && !p.Done() {
			return false
		}
	}
	return true
}

// Boards numbers a round's games, and forfeits at once those of a player
// who has withdrawn (a round-robin's table still lists them).
func Boards(games []Game, entrants []Entrant) []Pairing {
	withdrawn := map[string]bool{}
	for _, e := range entrants {
		withdrawn[e.ID] = e.Withdrawn
	}
	out := make([]Pairing, 0, len(games))
	for i, g := range games {
		p := Pairing{Game: g, Board: i + 1}
		switch {
		case withdrawn[g.Black] && !g.Bye():
			p.ForfeitBy = g.Black
		case withdrawn[g.White]:
			p.ForfeitBy = g.White
		case withdrawn[g.Black]:
			continue // a withdrawn player's bye is nobody's
		}
		out = append(out, p)
	}
	return out
}

// ArenaPairings pairs an arena's waiting players at now: those entered,
// not withdrawn, with no game running, waiting since their last game
// ended (or the start), their points, last opponent and colours known.
func ArenaPairings(t *Tournament, entrants []Entrant, pairings []Pairing, now time.Time) []Pairing {
	busy := map[string]bool{}
	last := map[string]Pairing{}
	balance := map[string]int{}
	for _, p := range pairings {
		for _, id := range []string{p.Black, p.White} {
			if !p.Done() {
				busy[id] = true
			}
			last[id] = p
		}
		if !p.Forfeit {
			balance[p.Black]++
			balance[p.White]--
		}
	}
	var waiting []Waiting
	for _, e := range entrants {
		if e.Withdrawn || busy[e.ID] {
			continue
		}
		w := Waiting{ID: e.ID, Since: t.StartsAt, Rating: e.Rating, Balance: balance[e.ID], Team: e.Team}
		w.Points, _ = ArenaPoints(e.ID, Games(pairings))
		if p, ok := last[e.ID]; ok {
			w.Last = p.Opponent(e.ID)
			if !p.EndedAt.IsZero() {
				w.Since = p.EndedAt
			}
		}
		waiting = append(waiting, w)
	}
	pairs, _ := PairArena(waiting, now)
	out := make([]Pairing, 0, len(pairs))
	for i, p := range pairs {
		out = append(out, Pairing{Game: Game{Round: t.Round + i + 1, Black: p[0], White: p[1]}, Board: 1})
	}
	return out
}
