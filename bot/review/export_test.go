package review

import (
	"slices"
	"strings"
	"testing"
	"time"

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
