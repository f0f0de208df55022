package review

import (
	"context"
	"strings"
	"testing"

	"othello-bot/analysis"
	"othello-bot/catalog"
	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/record"
)

// A disc value reads with one decimal in every language, whatever the
// float arithmetic of the search left in it (#44: "lost
// 2.6199999999999974 discs").
func TestDiscValuesHaveOneDecimal(t *testing.T) {
	start, _ := game.NewPosition(8)
	moves, err := game.ParseTranscript("f5d6c3d3c4f4", 8)
	if err != nil {
		t.Fatal(err)
	}
	state, err := game.Replay(start, moves)
	if err != nil {
		t.Fatal(err)
	}
	g := &record.Game{ID: 7, Black: record.Human(record.Player{ID: "1", Name: "ann"}), White: record.Bot(5), State: state,
		Status: record.Finished}
	rep := &analysis.Report{Settings: analysis.Default, Curve: []float64{0, -1, 1, -2, 2, -5, 3}, Moves: []analysis.Move{
		{Ply: 1, Color: game.Black, Played: "f5", Best: "f5", Label: analysis.Best},
		{Ply: 2, Color: game.White, Played: "d6", Best: "f6", Loss: 2.6199999999999974, Label: analysis.Inaccuracy},
		{Ply: 3, Color: game.Black, Played: "c3", Best: "c3", Label: analysis.Best},
		{Ply: 4, Color: game.White, Played: "d3", Best: "c5", Loss: 7.649999999999995, Label: analysis.Mistake},
		{Ply: 5, Color: game.Black, Played: "c4", Best: "c4", Label: analysis.Best},
		{Ply: 6, Color: game.White, Played: "f4", Best: "e3", Loss: 12.000000000000002, Label: analysis.Blunder},
	}}
	s := &Service{eng: engine.New(engine.Options{Searches: 1})}
	for _, l := range catalog.Supported() {
		m := s.analysisMessage(context.Background(), catalog.For(l), gameSubject(g), rep)
		text := m.Embed.Description
		for _, bad := range []string{"2.619", "7.649", "12.0000"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s: a raw float %q in\n%s", l, bad, text)
			}
		}
		for _, want := range []string{"7.6", "12.0"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q missing from\n%s", l, want, text)
			}
		}
	}
}
