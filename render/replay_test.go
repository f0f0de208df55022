package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"testing"
	"time"

	"othello-bot/game"
)

// randomGame plays a whole game of random moves on a board of the size.
func randomGame(t testing.TB, size int, seed uint64) (game.Position, []game.Ply) {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(start)
	rng := rand.New(rand.NewPCG(seed, seed))
	for !g.Over() {
		moves := g.Position().LegalMoves()
		if _, err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	return start, g.Plies()
}

// compose plays a GIF's frames onto one canvas, as a viewer does with
// frames that are not disposed.
func compose(t *testing.T, g *gif.GIF) *image.RGBA {
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	for i, f := range g.Image {
		if g.Disposal[i] != gif.DisposalNone {
			t.Fatalf("frame %d disposal %d", i, g.Disposal[i])
		}
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
	}
	return canvas
}

func TestReplayFramesAndFinalPicture(t *testing.T) {
	for _, size := range []int{4, 8, 14} {
		start, plies := randomGame(t, size, uint64(size))
		data, err := Replay(start, plies, testCaption, "Black wins 40–24")
		if err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("size %d: the GIF does not decode: %v", size, err)
		}
		// The start, four frames for each move (caption, placed, turning,
		// turned), one for each pass, and the pause on the final position.
		want := 2
		last := game.Pass
		for _, p := range plies {
			if p.Square.IsPass() {
				want++
			} else {
				want += 4
				last = p.Square
			}
		}
		if len(g.Image) != want {
			t.Errorf("size %d: %d frames for %d plies, want %d", size, len(g.Image), len(plies), want)
		}
		if g.Delay[len(g.Delay)-1] < 300 {
			t.Errorf("size %d: the final position shows for %d cs only", size, g.Delay[len(g.Delay)-1])
		}
		// The last frame is the final position's picture, in the GIF's
		// colours.
		final := start
		for _, p := range plies {
			if p.Square.IsPass() {
				final = final.Pass()
			} else if final, err = final.Play(p.Square); err != nil {
				t.Fatal(err)
			}
		}
		pic, err := PNG(final, last, "Black wins 40–24", false)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(pic))
		if err != nil {
			t.Fatal(err)
		}
		got := compose(t, g)
		if got.Bounds() != img.Bounds() {
			t.Fatalf("size %d: GIF %v, picture %v", size, got.Bounds(), img.Bounds())
		}
		bad := 0
		for y := 0; y < got.Bounds().Dy(); y++ {
			for x := 0; x < got.Bounds().Dx(); x++ {
				r, gg, b, _ := img.At(x, y).RGBA()
				want := replayPalette[nearest(color.RGBA{uint8(r >> 8), uint8(gg >> 8), uint8(b >> 8), 0xff})]
				if got.At(x, y) != want {
					bad++
				}
			}
		}
		if bad > 0 {
			t.Errorf("size %d: %d pixels of the last frame differ from the final picture", size, bad)
		}
	}
}

// The largest game fits Discord's 10 MB upload limit; the time it takes
// is a benchmark's business.
func TestReplayOfTheLargestBoardFits(t *testing.T) {
	if testing.Short() {
		t.Skip("a 26x26 game takes a second or two")
	}
	start, plies := randomGame(t, 26, 26)
	t0 := time.Now()
	data, err := Replay(start, plies, testCaption, "final")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("26x26, %d plies: %d bytes in %v", len(plies), len(data), time.Since(t0))
	if len(data) > 10<<20 {
		t.Errorf("%d bytes: over Discord's 10 MB", len(data))
	}
}

func BenchmarkReplay(b *testing.B) {
	for _, size := range []int{8, 26} {
		start, plies := randomGame(b, size, uint64(size))
		b.Run(map[int]string{8: "8x8", 26: "26x26"}[size], func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := Replay(start, plies, testCaption, "final")
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// The graph is dark above the middle where Black leads and light below
// where White does.
func TestGraph(t *testing.T) {
	if _, err := Graph([]float64{1}, "label"); err == nil {
		t.Error("a one-point graph drew")
	}
	data, err := Graph([]float64{0, 20, 20, 20, -20, -20, -20, 0}, "move · Black leads above the line, White below")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	mid := (graphTop + graphH - graphBottom) / 2
	plotW := graphW - graphRight - graphLeft
	black := img.At(graphLeft+plotW*2/7, mid-20)
	white := img.At(graphLeft+plotW*5/7, mid+20)
	if black != color.Color(blackArea) || white != color.Color(whiteArea) {
		t.Errorf("areas %v and %v, want %v and %v", black, white, blackArea, whiteArea)
	}
	if img.At(graphLeft+plotW*2/7, mid+20) != color.Color(feltColor) {
		t.Error("Black's lead drawn below the line too")
	}
}

// testCaption is a caption as long as the bot's longest.
func testCaption(n int, ply *game.Ply, after game.Position) string {
	b, w := after.Count()
	if ply == nil {
		return fmt.Sprintf("Start · Black %d · White %d", b, w)
	}
	return fmt.Sprintf("Move %d · %s %s · Black %d · White %d", n, ply.Color, ply.Square, b, w)
}
