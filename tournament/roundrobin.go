package tournament

// Round-robin rounds come from the Berger tables (FIDE's Handbook, C.05
// Annex 1): with n players (n even; an odd field adds a dummy whose
// opponent has the bye), in round r player n meets the player p with
// 2p ≡ r+1 (mod n-1), p having the first move in odd rounds; every other
// pair a, b has a+b ≡ r+1 (mod n-1), and a moves first when (b-a) mod
// (n-1) is odd. "First" is Black, who moves first in Othello. A double
// round-robin plays the table twice, colours swapped the second time.

// Rounds is how many rounds a round-robin of n players has.
func Rounds(n int, double bool) int {
	if n < 2 {
		return 0
	}
	r := n - 1
	if n%2 == 1 {
		r = n
	}
	if double {
		r *= 2
	}
	return r
}

// Berger gives round `round` (1-based) of a round-robin between the
// players in seeding order: the players' games, and a bye for the one
// meeting the dummy of an odd field.
func Berger(players []string, round int, double bool) []Game {
	n := len(players)
	if n < 2 || round < 1 || round > Rounds(n, double) {
		return nil
	}
	seats := append([]string(nil), players...)
	if n%2 == 1 {
		seats = append(seats, "") // the dummy: its opponent has the bye
		n++
	}
	r := round
	swap := false
	if r > n-1 {
		r -= n - 1
		swap = true
	}
	m := n - 1
	var games []Game
	add := func(first, second int) { // 1-based seats, first moves first
		b, w := seats[first-1], seats[second-1]
		if swap {
			b, w = w, b
		}
		switch {
		case b == "":
			games = append(games, Game{Round: round, Black: w})
		case w == "":
			games = append(games, Game{Round: round, Black: b})
		default:
			games = append(games, Game{Round: round, Black: b, White: w})
		}
	}
	// Player n's opponent: 2p ≡ r+1 (mod m).
	target := (r + 1) % m
	p := 1
	for (2*p)%m != target {
		p++
	}
	if r%2 == 1 {
		add(p, n)
	} else {
		add(n, p)
	}
	// The other boards, in the tables' order, pair the players k places
	// either side of p around the circle of the other m.
	for k := 1; k < n/2; k++ {
		a := (p-1+k)%m + 1
		b := ((p-1-k)%m+m)%m + 1
		if ((b-a)%m+m)%m%2 == 1 {
			add(a, b)
		} else {
			add(b, a)
		}
	}
	return games
}
