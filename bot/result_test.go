package bot

import (
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/record"
)

// A win reads the winner's discs first, whichever colour won; a draw,
// black's then white's.
func TestResultLineReadsTheWinnersDiscsFirst(t *testing.T) {
	en := catalog.For(catalog.English)
	g := &record.Game{ID: 1, Black: record.Human(record.Player{ID: "1", Name: "alice"}), White: record.Human(record.Player{ID: "2", Name: "bob"})}
	for _, c := range []struct {
		winner game.Color
		b, w   int
		want   string
	}{
		{game.White, 19, 45, "**bob ⚪ wins** 45–19."},
		{game.Black, 40, 24, "**alice ⚫ wins** 40–24."},
		{game.Empty, 32, 32, "32–32"},
	} {
		g.Result = &record.Result{Reason: record.EndNormal, Winner: c.winner, BlackDiscs: c.b, WhiteDiscs: c.w}
		if got := ResultLine(en, g); !strings.Contains(got, c.want) {
			t.Errorf("%v %d–%d: %q, want %q", c.winner, c.b, c.w, got, c.want)
		}
	}
}
