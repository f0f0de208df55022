package tournament

import (
	"fmt"
	"strings"
	"testing"
)

func seats(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i + 1)
	}
	return out
}

// FIDE's Berger table for six players, first-named moving first.
func TestBergerMatchesFIDEsTable(t *testing.T) {
	want := []string{
		"1-6 2-5 3-4",
		"6-4 5-3 1-2",
		"2-6 3-1 4-5",
		"6-5 1-4 2-3",
		"3-6 4-2 5-1",
	}
	for r, line := range want {
		var got []string
		for _, g := range Berger(seats(6), r+1, false) {
			got = append(got, g.Black+"-"+g.White)
		}
		if strings.Join(got, " ") != line {
			t.Errorf("round %d: %s, want %s", r+1, strings.Join(got, " "), line)
		}
	}
}

func TestEveryoneMeetsEveryoneOnce(t *testing.T) {
	for n := 2; n <= 13; n++ {
		for _, double := range []bool{false, true} {
			players := seats(n)
			met := map[[2]string]int{}
			blacks := map[string]int{}
			byes := map[string]int{}
			rounds := Rounds(n, double)
			for r := 1; r <= rounds; r++ {
				inRound := map[string]bool{}
				for _, g := range Berger(players, r, double) {
					for _, id := range []string{g.Black, g.White} {
						if id == "" {
							continue
						}
						if inRound[id] {
							t.Fatalf("n=%d round %d: %s plays twice", n, r, id)
						}
						inRound[id] = true
					}
					if g.Bye() {
						byes[g.Black]++
						continue
					}
					met[[2]string{g.Black, g.White}]++
					blacks[g.Black]++
				}
				if len(inRound) != n {
					t.Fatalf("n=%d round %d: %d players placed", n, r, len(inRound))
				}
			}
			for i, a := range players {
				for _, b := range players[i+1:] {
					ab, ba := met[[2]string{a, b}], met[[2]string{b, a}]
					switch {
					case !double && ab+ba != 1:
						t.Errorf("n=%d: %s and %s meet %d times", n, a, b, ab+ba)
					case double && (ab != 1 || ba != 1):
						t.Errorf("n=%d double: %s-%s %d times, %s-%s %d times", n, a, b, ab, b, a, ba)
					}
				}
				games := n - 1
				if double {
					games *= 2
				}
				if d := 2*blacks[a] - games; d > 1 || d < -1 {
					t.Errorf("n=%d double=%v: %s has %d blacks of %d games", n, double, a, blacks[a], games)
				}
				wantByes := 0
				if n%2 == 1 {
					wantByes = 1
					if double {
						wantByes = 2
					}
				}
				if byes[a] != wantByes {
					t.Errorf("n=%d: %s has %d byes, want %d", n, a, byes[a], wantByes)
				}
			}
		}
	}
	if Berger(seats(4), 4, false) != nil || Berger(seats(1), 1, false) != nil {
		t.Fatal("rounds beyond the table")
	}
}
