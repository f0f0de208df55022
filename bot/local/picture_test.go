package local_test

import (
	"bytes"
	"image/png"
	"os"
	"regexp"
	"testing"
)

// Boards above the emoji limit, and any board of a player who asks for
// pictures, come as a PNG saved to the image folder with its path printed.
func TestPictures(t *testing.T) {
	e := open(t, t.TempDir())
	pathOf := func(out string) string {
		t.Helper()
		m := regexp.MustCompile(`(?m)^attachment: (.+\.png)$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no attachment:\n%s", out)
		}
		data, err := os.ReadFile(m[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.DecodeConfig(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s is not a PNG: %v", m[1], err)
		}
		return m[1]
	}
	out := e.say("/start level:1 color:black size:12")
	first := pathOf(out)
	expect(t, out, "Red dot: the last move")
	g := e.game()
	out = e.say("select " + g.Position().LegalMoves()[0].String())
	if second := pathOf(out); second == first {
		t.Errorf("the picture after a move has the same name %s", second)
	}
	e.say("/resign", "click Resign")

	// style:image on a small board, remembered for the next game.
	pathOf(e.say("/start level:1 size:6 style:image"))
	e.say("/resign", "click Resign")
	pathOf(e.say("/start level:1 size:6"))
	e.say("/resign", "click Resign")
	if out := e.say("/start level:1 size:6 style:emoji"); regexp.MustCompile(`attachment:`).MatchString(out) {
		t.Errorf("emoji asked for, picture sent:\n%s", out)
	}
	expect(t, e.say("/resign", "click Resign", "/start style:huge"), "The style must be emoji, image or auto.")
}
