package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"othello-bot/game"
)

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// Every emoji size fits Discord's limits with room to spare for the rest of
// the message (2000 code points in content, 4096 in an embed description),
// and no two column letters touch, so none pair up into a flag.
func TestEmojiFitsAndFormsNoFlags(t *testing.T) {
	for size := game.MinSize; size <= MaxEmojiSize; size += 2 {
		p, _ := game.NewPosition(size)
		s := Emoji(p, game.Pass, true)
		if n := utf8.RuneCountInString(s + "\n" + testLegend); n > 1500 {
			t.Errorf("size %d: %d code points", size, n)
		}
		lines := strings.Split(s, "\n")
		if len(lines) != size+1 {
			t.Fatalf("size %d: %d lines", size, len(lines))
		}
		prev := rune(0)
		letters := 0
		for _, r := range lines[0] {
			if isRegional(r) {
				letters++
				if isRegional(prev) {
					t.Errorf("size %d: letters %c%c touch and form a flag", size, prev, r)
				}
			}
			prev = r
		}
		if letters != size {
			t.Errorf("size %d: %d column letters", size, letters)
		}
		for i, l := range lines[1:] {
			if !strings.HasPrefix(l, keycap(i+1)) {
				t.Errorf("size %d row %d: %q", size, i+1, l)
			}
			cells := utf8.RuneCountInString(strings.TrimPrefix(l, keycap(i+1)))
			if cells != size {
				t.Errorf("size %d row %d: %d cells", size, i+1, cells)
			}
		}
	}
	big, _ := game.NewPosition(12)
	if Emoji(big, game.Pass, true) != "" {
		t.Error("12x12 drawn as emoji")
	}
}

func TestEmojiMarks(t *testing.T) {
	p, _ := game.NewPosition(4)
	q, _ := p.Play(game.Square{Col: 1, Row: 0}) // black b1 flips b2
	s := Emoji(q, game.Square{Col: 1, Row: 0}, true)
	want := "⬛\u200b🇦\u200b🇧\u200b🇨\u200b🇩\n" +
		"1️⃣🟨🖤🟨🟩\n" + // white may answer a1, c1 or a3
		"2️⃣🟩⚫⚫🟩\n" +
		"3️⃣🟨⚫⚪🟩\n" +
		"4️⃣🟩🟩🟩🟩"
	if s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}
}

// testLegend is as long as the bot's longest legend.
const testLegend = Black + " black · " + White + " white · " + Legal + " legal move · " + LastBlack + LastWhite + " last move"
