package local_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"othello-bot/game"
)

// summaries are an analysis's judgements with the players' names taken
// out: each side's accuracy line and the mistakes listed.
var summaryLine = regexp.MustCompile(`(?m)(accuracy .*|^\d+\. .* (mistake|blunder), lost .*)$`)

// /export, then /analyze record: with what it gave, analyses the very
// game /analyze game: does — the same judgements, the same graph —
// whether the record is the GGF file or the transcript; a board with a
// side to move gets every move's value; what does not read is refused
// saying why.
func TestAnalyzeARecordAsTheGame(t *testing.T) {
	e := open(t, t.TempDir())
	e.say("/start level:2 color:black size:6")
	e.playToEnd()
	boards := filepath.Join(e.dir, "boards")

	before := e.out.Len()
	e.say("/analyze game:1")
	e.adapter.Service().WaitAnalyses()
	ofGame := e.out.String()[before:]
	expect(t, ofGame, "Analysis of game #1")
	graph, err := os.ReadFile(filepath.Join(boards, "game-1-analysis.png"))
	if err != nil {
		t.Fatal(err)
	}
	want := summaryLine.FindAllString(ofGame, -1)
	if len(want) < 2 {
		t.Fatalf("no summaries in\n%s", ofGame)
	}

	out := e.say("/export game:1")
	ggfText, err := os.ReadFile(filepath.Join(boards, "othello-game-1.ggf"))
	if err != nil {
		t.Fatal(err)
	}
	moves := regexp.MustCompile(`Moves: (\S+)`).FindStringSubmatch(out)
	if moves == nil {
		t.Fatalf("no moves in\n%s", out)
	}
	for name, rec := range map[string]string{"ggf": strings.TrimSpace(string(ggfText)), "transcript": moves[1]} {
		os.Remove(filepath.Join(boards, "record-analysis.png"))
		before := e.out.Len()
		expect(t, e.say("/analyze record:"+rec), "Analysing your record")
		e.adapter.Service().WaitAnalyses()
		ofRecord := e.out.String()[before:]
		expect(t, ofRecord, "Analysis of a record")
		if got := summaryLine.FindAllString(ofRecord, -1); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the record's analysis\n%s\nis not the game's\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got, err := os.ReadFile(filepath.Join(boards, "record-analysis.png")); err != nil || !bytes.Equal(got, graph) {
			t.Errorf("%s: the record's graph is not the game's (%v)", name, err)
		}
		if name == "ggf" {
			expect(t, ofRecord, "alice vs othello-bot-level-2")
		}
	}

	start, _ := game.NewPosition(8)
	before = e.out.Len()
	e.say("/analyze record:" + start.Board64() + " X")
	e.adapter.Service().WaitAnalyses()
	expect(t, e.out.String()[before:], "Every move of this position · Black to move", "1. d3 ", "4. e6 ", "position.png")

	expect(t, e.say("/analyze record:f5d6c3c3"), "Move 4 of the record, c3, cannot be played there on the 8x8 board.")
	expect(t, e.say("/analyze record:hello there"), "I can't read that as a record.")
	expect(t, e.say("/analyze game:1 record:f5d6"), "Give a game's number or a record, not both.")
	expect(t, e.say("/analyze"), "or paste a record")
	e.say("locale alice ja")
	expect(t, e.say("/解析 棋譜:f5d6c3c3"), "棋譜の4手目「c3」は、8×8の盤では打てない手です。")
}
