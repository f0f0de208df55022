package puzzles

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"othello-bot/bot"
	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/puzzle"
	"othello-bot/record"
)

// longName is a 32-character name (Discord's longest) made of the
// characters escaping doubles.
var longName = strings.Repeat("*_|", 11)[:32]

// Puzzle and daily puzzle messages at their largest: the longest line of
// three moves, 200 solvers of the longest names, the day's best Storm by
// the longest name, in both languages.
func TestPuzzleMessagesWithinLimits(t *testing.T) {
	s := &Service{}
	start, _ := game.NewPosition(8)
	moves, _ := game.ParseTranscript("f5d6c3d3c4f4c5b3c2e3d2c6b4a4", 8)
	g, err := game.Replay(start, moves)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := game.ParseTranscript("b5a6a5", 8)
	rec := puzzle.Record{ID: 1 << 40, GameID: 1 << 40, Puzzle: puzzle.Puzzle{Start: g.Position(), Line: line, Result: 64, Cost: 64, Played: moves[0], Ply: 59}}
	rec.Rating.Rating = 3000
	var solvers []record.Player
	for i := 0; i < 200; i++ {
		solvers = append(solvers, record.Player{ID: fmt.Sprint(i), Name: longName})
	}
	for _, l := range catalog.Supported() {
		p := catalog.For(l)
		try := puzzle.Try{ID: 1 << 40, Step: 2, Expires: time.Now()}
		checkLimits(t, "a puzzle", s.puzzleMessage(p, rec, try, []string{p.T("puzzle.right_go_on", "Move", "a5", "Reply", "b6")}))
		storm := p.T("storm.daily_best", "Name", bot.Escape(longName), "Score", 9999)
		m := s.dailyMessage(p, rec, "2026-11-24", solvers, []string{storm})
		checkLimits(t, "a daily post", &m)
		if l == catalog.English && !strings.Contains(m.Embed.Description, "and 170 more") {
			t.Errorf("the solvers past 30 are not counted:\n%s", m.Embed.Description)
		}
	}
}

func checkLimits(t *testing.T, what string, m *bot.Message) {
	t.Helper()
	if errs := m.LimitErrors(); len(errs) > 0 {
		t.Errorf("%s breaks Discord's limits: %v", what, errs)
	}
}
