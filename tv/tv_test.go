package tv

import (
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	if _, ok := Pick(nil); ok {
		t.Fatal("picked from nothing")
	}
	casual := Candidate{GameID: 1, Ratings: [2]float64{2100, 2000}, Moves: 10}
	weakTour := Candidate{GameID: 9, Ratings: [2]float64{1200, 1300}, Tournament: true}
	if got, _ := Pick([]Candidate{casual, weakTour}); got.GameID != 9 {
		t.Errorf("a casual game beat the tournament's: %d", got.GameID)
	}
	// A game is as good as its weaker player.
	lopsided := Candidate{GameID: 2, Ratings: [2]float64{2600, 1400}}
	even := Candidate{GameID: 3, Ratings: [2]float64{1800, 1800}}
	if got, _ := Pick([]Candidate{lopsided, even}); got.GameID != 3 {
		t.Errorf("picked %d", got.GameID)
	}
	// Equal weaker sides: the stronger other side; then the game further
	// along; then the oldest.
	a := Candidate{GameID: 5, Ratings: [2]float64{1800, 1900}}
	if got, _ := Pick([]Candidate{even, a}); got.GameID != 5 {
		t.Errorf("picked %d", got.GameID)
	}
	b := Candidate{GameID: 6, Ratings: [2]float64{1900, 1800}, Moves: 4}
	if got, _ := Pick([]Candidate{a, b}); got.GameID != 6 {
		t.Errorf("picked %d", got.GameID)
	}
	c := Candidate{GameID: 4, Ratings: b.Ratings, Moves: 4}
	for _, order := range [][]Candidate{{b, c}, {c, b}} {
		if got, _ := Pick(order); got.GameID != 4 {
			t.Errorf("between equals picked %d, not the oldest", got.GameID)
		}
	}
}

func TestBar(t *testing.T) {
	count := func(s string) int { return strings.Count(s, "B") }
	if got := Bar(0, 64, false, "B", "W"); count(got) != BarCells/2 || len(got) != BarCells {
		t.Errorf("even: %s", got)
	}
	if count(Bar(4, 64, false, "B", "W")) <= count(Bar(2, 64, false, "B", "W")) {
		t.Error("a bigger lead does not fill more")
	}
	if got := Bar(-100, 64, false, "B", "W"); count(got) != 1 {
		t.Errorf("a side far behind keeps one cell until it is exact: %s", got)
	}
	if got := Bar(64, 64, true, "B", "W"); count(got) != BarCells {
		t.Errorf("a won game: %s", got)
	}
	if got := Bar(0, 64, true, "B", "W"); count(got) != BarCells/2 {
		t.Errorf("a drawn game: %s", got)
	}
	// The same margin weighs less on a bigger board.
	if count(Bar(8, 100, false, "B", "W")) >= count(Bar(8, 36, false, "B", "W")) {
		t.Error("the bar ignores the board's size")
	}
}
