package tournament

import (
	"sort"
	"time"
)

// An arena (lichess's format) runs for a fixed time: a player who finishes
// a game waits to be paired again with another waiting player. A win is 2
// points, a draw 1; after two wins in a row a player is on a streak and
// each win is 4 and a draw 2, until a game that is not a win.

// Waiting is a player waiting for an arena game.
type Waiting struct {
	ID     string
	Since  time.Time
	Points int
	Rating float64
	// Last is the opponent of their previous game, whom they are not
	// paired with again at once while anyone else may come.
	Last string
	// Balance is their blacks less whites so far.
	Balance int
	// Team is their team in a team battle: never paired with their own.
	Team string
}

// Patience is how long a player waits for someone other than their last
// opponent before the two are paired again anyway.
const Patience = 10 * time.Second

// PairArena pairs the waiting players at now: as soon as two may play,
// near in points, a rematch of the previous game only when one of the two
// has waited Patience, never two of one team. It returns the games (Black, White) and who still
// waits.
func PairArena(waiting []Waiting, now time.Time) (pairs [][2]string, still []Waiting) {
	ws := append([]Waiting(nil), waiting...)
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].Points != ws[j].Points {
			return ws[i].Points > ws[j].Points
		}
		if ws[i].Rating != ws[j].Rating {
			return ws[i].Rating > ws[j].Rating
		}
		return ws[i].Since.Before(ws[j].Since)
	})
	paired := make([]bool, len(ws))
	for i := range ws {
		if paired[i] {
			continue
		}
		pick := -1
		for j := i + 1; j < len(ws); j++ {
			if paired[j] || ws[i].Team != "" && ws[i].Team == ws[j].Team {
				continue
			}
			rematch := ws[i].Last == ws[j].ID || ws[j].Last == ws[i].ID
			patient := now.Sub(ws[i].Since) >= Patience || now.Sub(ws[j].Since) >= Patience
			if !rematch {
				pick = j
				break
			}
			if pick < 0 && patient {
				pick = j // only if nobody else will do
			}
		}
		if pick < 0 {
			continue
		}
		paired[i], paired[pick] = true, true
		a, b := ws[i], ws[pick]
		// Black to whoever has had it less; the longer waiter on a tie.
		if b.Balance < a.Balance || (b.Balance == a.Balance && b.Since.Before(a.Since)) {
			a, b = b, a
		}
		pairs = append(pairs, [2]string{a.ID, b.ID})
	}
	for i, w := range ws {
		if !paired[i] {
			still = append(still, w)
		}
	}
	return pairs, still
}

// ArenaPoints is a player's arena score from their games in the order
// they were paired, and whether they are on a streak now.
func ArenaPoints(id string, games []Game) (points int, onFire bool) {
	wins := 0
	for _, g := range playedBy(id, games) {
		if !g.Done() {
			continue
		}
		fire := wins >= 2
		switch g.Score(id) {
		case 2:
			points += 2
			if fire {
				points += 2
			}
			wins++
		case 1:
			points++
			if fire {
				points++
			}
			wins = 0
		default:
			wins = 0
		}
	}
	return points, wins >= 2
}

// playedBy is the player's games in the order they were paired.
func playedBy(id string, games []Game) []Game {
	var out []Game
	for _, g := range games {
		if g.Has(id) {
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Round < out[j].Round })
	return out
}
