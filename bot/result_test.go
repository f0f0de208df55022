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

// A game aborted at once from an XOT start shows its opening's moves, not
// "No moves were played": they are on the board.
func TestXOTOpeningIsInTheTranscript(t *testing.T) {
	en := catalog.For(catalog.English)
	start, _ := game.NewPosition(8)
	g := &record.Game{ID: 1, State: game.NewGame(start)}
	m := &Message{Embed: &Embed{}}
	transcriptFooter(en, g, m)
	if m.Embed.Footer != en.T("game.no_moves") {
		t.Fatalf("no moves at all: %q", m.Embed.Footer)
	}
	opening, _ := game.ParseTranscript("f5d6c3d3c4f4f6f3", 8)
	after, err := game.Replay(start, opening)
	if err != nil {
		t.Fatalf("replaying the opening: %v", err)
	}
	g.State, g.Opening = game.NewGame(after.Position()), opening
	m = &Message{Embed: &Embed{}}
	transcriptFooter(en, g, m)
	if !strings.Contains(m.Embed.Footer, "f5d6c3d3c4f4f6f3") {
		t.Fatalf("an XOT start with no move of the game: %q", m.Embed.Footer)
	}
}
