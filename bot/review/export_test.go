package review

import (
	"slices"
	"strings"
	"testing"
	"time"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/ggf"
	"othello-bot/record"
)

// An XOT game's record starts from the standard start with the opening's
// moves, so any program replays it to the same board; a resignation is
// marked as GGS marks it.
func TestGGFOfAnXOTGame(t *testing.T) {
	std, _ := game.NewPosition(8)
	opening, _ := game.ParseTranscript("f5d6c3d3c4f4c5b3", 8)
	after, err := game.Replay(std, opening)
	if err != nil {
		t.Fatal(err)
	}
	state := game.NewGame(after.Position())
	for range 6 {
		state.Play(state.Position().LegalMoves()[0])
	}
	b, w := state.Position().Count()
	g := &record.Game{ID: 3, State: state, Opening: opening, Black: record.Human(record.Player{ID: "1", Name: "ann"}),
		White: record.Bot(4), Status: record.Finished,
		Result: &record.Result{BlackDiscs: b, WhiteDiscs: w, Reason: record.EndResign, FinishedAt: time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)}}
	text, err := GGF(g)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ggf.Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	replayed, err := game.ReplayPlies(rec.Start, rec.Plies)
	if err != nil || !slices.Equal(rec.Start.Cells(), std.Cells()) || !slices.Equal(replayed.Position().Cells(), state.Position().Cells()) {
		t.Fatalf("the record does not replay the game from the standard start (%v):\n%s", err, text)
	}
	if !strings.HasSuffix(rec.Result, ":r") || rec.Date != "2026.11.26_03:00:00.UTC" || len(rec.Plies) != 14 {
		t.Fatalf("%+v", rec)
	}
}

// A 26x26 game's moves would pass Discord's 2,000 characters for a
// message: the answer keeps within every limit, in both languages, and
// gives the moves as a file beside the record.
func TestExportOfA26x26GameFits(t *testing.T) {
	start, _ := game.NewPosition(26)
	state := game.NewGame(start)
	for !state.Over() {
		state.Play(state.Position().LegalMoves()[0])
	}
	long := strings.Repeat("w", 32)
	g := &record.Game{ID: 123456, State: state, Black: record.Human(record.Player{ID: "1", Name: long}),
		White: record.Human(record.Player{ID: "2", Name: long}), Status: record.Finished}
	if len(g.Transcript()) <= maxShownMoves {
		t.Fatalf("the game is too short to test this: %d characters", len(g.Transcript()))
	}
	for _, l := range catalog.Supported() {
		m := exportMessage(catalog.For(l), g, "(;GM[Othello];)")
		if problems := m.LimitErrors(); len(problems) > 0 || len(m.Files) != 2 || string(m.Files[1].Data) != g.Transcript()+"\n" {
			t.Errorf("%s: %v; %d files; %q", l, problems, len(m.Files), m.Content)
		}
	}
}
