package tournament

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// A Swiss round pairs players within score groups, the upper half of a
// group against its lower half as the Dutch system does, under the rules
// players know:
//   - no two players meet twice;
//   - nobody gets one colour three times in a row, and nobody's blacks
//     and whites differ by more than two;
//   - with an odd number of players, the lowest-ranked player who has not
//     had one gets the bye (a win), and nobody gets two.
// The search backtracks until every rule holds; ErrNoPairing says there
// is no such pairing (too many rounds for the players). When only the
// colour rules stand in the way, which happens late in long events of few
// players, they give way before a round goes unpaired: meeting twice never
// does.

// history is what pairing needs to know of one player.
type history struct {
	id     string
	rating float64
	points int // half points
	colors []Color
	met    map[string]bool
	byes   int
	order  int    // place among the entrants, the last tie-break
	team   string // a team battle's team: never paired with its own
}

// balance is blacks less whites.
func (h *history) balance() int {
	b := 0
	for _, c := range h.colors {
		if c == Black {
			b++
		} else {
			b--
		}
	}
	return b
}

// may reports whether the player may take colour c next.
func (h *history) may(c Color) bool {
	n := len(h.colors)
	if n >= 2 && h.colors[n-1] == c && h.colors[n-2] == c {
		return false
	}
	b := h.balance()
	if c == Black {
		b++
	} else {
		b--
	}
	return b >= -2 && b <= 2
}

// wantsBlack is how much the player wants Black next: the colour they
// have had less, then the one they did not have last.
func (h *history) wantsBlack() int {
	w := -2 * h.balance()
	if n := len(h.colors); n > 0 {
		if h.colors[n-1] == White {
			w++
		} else {
			w--
		}
	}
	return w
}

// histories builds each active entrant's history from the games, ranked:
// points, then rating, then entry order.
func histories(entrants []Entrant, games []Game) []*history {
	byID := map[string]*history{}
	var out []*history
	for i, e := range entrants {
		h := &history{id: e.ID, rating: e.Rating, met: map[string]bool{}, order: i, team: e.Team}
		byID[e.ID] = h
		if !e.Withdrawn {
			out = append(out, h)
		}
	}
	sorted := append([]Game(nil), games...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Round < sorted[j].Round })
	for _, g := range sorted {
		for _, id := range []string{g.Black, g.White} {
			h := byID[id]
			if h == nil {
				continue
			}
			h.points += g.Score(id)
			switch {
			case g.Bye():
				h.byes++
			default:
				h.met[g.Opponent(id)] = true
				if !g.Forfeit {
					h.colors = append(h.colors, g.ColorOf(id))
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.points != b.points {
			return a.points > b.points
		}
		if a.rating != b.rating {
			return a.rating > b.rating
		}
		return a.order < b.order
	})
	return out
}

// MaxSwissRounds is the most rounds a Swiss of n players is given. Beyond
// about half the field, the rounds already paired can leave no way to pair
// the next without a rematch (six players after four rounds, one time in
// five in our simulations); up to it, none was seen in thousands.
func MaxSwissRounds(n int) int { return max(1, (n+1)/2) }

// searchBudget bounds the backtracking of one round; beyond it the round
// is reported unpairable rather than taking minutes.
const searchBudget = 2_000_000

// PairSwiss pairs round `round` of a Swiss tournament from the games of
// the rounds before it. Withdrawn entrants are not paired.
func PairSwiss(entrants []Entrant, games []Game, round int) ([]Game, error) {
	players := histories(entrants, games)
	if len(players) < 2 {
		return nil, ErrTooFew
	}
	out, err := pairSwiss(players, round, true)
	if errors.Is(err, ErrNoPairing) {
		out, err = pairSwiss(players, round, false)
	}
	return out, err
}

func pairSwiss(players []*history, round int, colorRules bool) ([]Game, error) {
	s := &swissSearch{round: round, colorRules: colorRules}
	players = withoutTeamSurplus(players)
	if len(players)%2 == 0 {
		if s.pairAll(players) {
			return s.games(), nil
		}
		return nil, fmt.Errorf("round %d: %w", round, ErrNoPairing)
	}
	// The bye goes to the lowest-ranked player without one for whom the
	// others can still be paired.
	for i := len(players) - 1; i >= 0; i-- {
		if players[i].byes > 0 {
			continue
		}
		rest := append(append([]*history(nil), players[:i]...), players[i+1:]...)
		s.pairs = s.pairs[:0]
		if s.pairAll(rest) {
			return append(s.games(), Game{Round: round, Black: players[i].id}), nil
		}
		if s.steps > searchBudget {
			break
		}
	}
	return nil, fmt.Errorf("round %d: %w", round, ErrNoPairing)
}

type swissSearch struct {
	round      int
	colorRules bool
	pairs      [][2]*history // Black, White
	steps      int
}

func (s *swissSearch) games() []Game {
	out := make([]Game, 0, len(s.pairs))
	for _, p := range s.pairs {
		out = append(out, Game{Round: s.round, Black: p[0].id, White: p[1].id})
	}
	return out
}

// pairAll pairs the ranked players, the highest first, backtracking when
// the rest cannot be paired.
func (s *swissSearch) pairAll(players []*history) bool {
	if len(players) == 0 {
		return true
	}
	s.steps++
	if s.steps > searchBudget {
		return false
	}
	top := players[0]
	for _, j := range candidates(players) {
		c := players[j]
		if top.met[c.id] || top.team != "" && top.team == c.team {
			continue
		}
		black, white, ok := colors(top, c, len(s.pairs), s.colorRules)
		if !ok {
			continue
		}
		rest := make([]*history, 0, len(players)-2)
		for k, p := range players[1:] {
			if k+1 != j {
				rest = append(rest, p)
			}
		}
		s.pairs = append(s.pairs, [2]*history{black, white})
		if s.pairAll(rest) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
	}
	return false
}

// candidates orders the top player's possible opponents (indexes into
// players): first its own score group from the top of the group's lower
// half down, then up the upper half, then the groups below, nearest first.
func candidates(players []*history) []int {
	top := players[0]
	group := 1
	for group < len(players) && players[group].points == top.points {
		group++
	}
	var out []int
	half := group / 2
	if half == 0 {
		half = 1
	}
	for j := half; j < group; j++ {
		out = append(out, j)
	}
	for j := half - 1; j >= 1; j-- {
		out = append(out, j)
	}
	for j := group; j < len(players); j++ {
		out = append(out, j)
	}
	return out
}

// colors gives the pair its colours within the rules, as each wants them
// most; the higher-ranked player a decides a tie, Black on odd boards.
func colors(a, b *history, board int, rules bool) (black, white *history, ok bool) {
	aBlack := !rules || a.may(Black) && b.may(White)
	bBlack := !rules || b.may(Black) && a.may(White)
	switch {
	case aBlack && !bBlack:
		return a, b, true
	case bBlack && !aBlack:
		return b, a, true
	case !aBlack && !bBlack:
		return nil, nil, false
	}
	wa, wb := a.wantsBlack(), b.wantsBlack()
	switch {
	case wa > wb:
		return a, b, true
	case wb > wa:
		return b, a, true
	case board%2 == 0:
		return a, b, true
	}
	return b, a, true
}

// withoutTeamSurplus leaves out of a team battle's round the players of a
// team larger than all the others together, who could only meet each
// other: its lowest-ranked sit the round out (no game, no point; not a
// bye), as many as the others are short of it.
func withoutTeamSurplus(players []*history) []*history {
	count := map[string]int{}
	big := ""
	for _, p := range players {
		if p.team == "" {
			return players
		}
		count[p.team]++
		if count[p.team] > count[big] {
			big = p.team
		}
	}
	surplus := 2*count[big] - len(players)
	if surplus <= 0 {
		return players
	}
	out := make([]*history, 0, len(players)-surplus)
	for i := len(players) - 1; i >= 0; i-- { // the lowest-ranked first
		if players[i].team == big && surplus > 0 {
			surplus--
			continue
		}
		out = append(out, players[i])
	}
	slices.Reverse(out)
	return out
}
