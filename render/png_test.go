package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"othello-bot/game"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// position plays the first legal move n times from the start.
func position(t testing.TB, size, n int) (game.Position, game.Square) {
	t.Helper()
	start, err := game.NewPosition(size)
	if err != nil {
		t.Fatal(err)
	}
	g := game.NewGame(start)
	last := game.Pass
	for i := 0; i < n && !g.Over(); i++ {
		moves := g.Position().LegalMoves()
		last = moves[(i*7)%len(moves)]
		if _, err := g.Play(last); err != nil {
			t.Fatal(err)
		}
	}
	return g.Position(), last
}

// differs counts pixels whose colour differs by more than a small
// tolerance in any channel: font rasterizing may move a pixel's shade a
// little between library versions, a board drawn wrong moves many.
func differs(a, b image.Image) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range []int64{int64(ar) - int64(br), int64(ag) - int64(bg), int64(ab) - int64(bb)} {
				if d > 12*257 || d < -12*257 {
					n++
					break
				}
			}
		}
	}
	return n
}

func TestGoldenPictures(t *testing.T) {
	cases := []struct {
		name    string
		size, n int
		caption string
	}{
		{"start-8", 8, 0, "Black 2 · White 2 · Black to move"},
		{"midgame-8", 8, 17, "a caption"},
		{"small-4", 4, 5, "4x4"},
		{"large-16", 16, 30, "Black to move"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, last := position(t, c.size, c.n)
			data, err := PNG(p, last, c.caption, true)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", c.name+".png")
			if *update {
				if err := os.WriteFile(golden, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./render -run Golden -update to create it)", err)
			}
			gotImg, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			wantImg, err := png.Decode(bytes.NewReader(want))
			if err != nil {
				t.Fatalf("golden %s does not decode: %v", golden, err)
			}
			if gotImg.Bounds() != wantImg.Bounds() {
				t.Fatalf("size %v, golden %v", gotImg.Bounds(), wantImg.Bounds())
			}
			total := gotImg.Bounds().Dx() * gotImg.Bounds().Dy()
			if n := differs(gotImg, wantImg); n > total/5000 { // less than one legal-move dot
				t.Errorf("%d of %d pixels differ from %s; %s", n, total, golden, keepFailure(c.name, data))
			}
		})
	}
}

// keepFailure saves a picture that failed its comparison where it outlives
// the test, and says where, so it can be looked at.
func keepFailure(name string, data []byte) string {
	dir := filepath.Join(os.TempDir(), "othello-bot-render-failures")
	path := filepath.Join(dir, name+".png")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf("could not keep the picture: %v", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Sprintf("could not keep the picture: %v", err)
	}
	return "the picture drawn is in " + path
}

func drawn(t *testing.T, p game.Position, last game.Square) image.Image {
	t.Helper()
	data, err := PNG(p, last, "x", true)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// A different position must not pass as the golden one: the comparison
// has teeth.
func TestGoldenComparisonSeesAMove(t *testing.T) {
	p, last := position(t, 8, 17)
	q, qlast := position(t, 8, 18)
	ai, bi := drawn(t, p, last), drawn(t, q, qlast)
	if n := differs(ai, bi); n <= ai.Bounds().Dx()*ai.Bounds().Dy()/5000 {
		t.Errorf("one move apart, only %d pixels differ", n)
	}
}

// Every size draws, within bounds a chat preview and upload can take.
func TestEverySizeRenders(t *testing.T) {
	for size := game.MinSize; size <= game.MaxSize; size += 2 {
		p, last := position(t, size, size*size/3)
		data, err := PNG(p, last, "caption", true)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("size %d: not a PNG: %v", size, err)
		}
		// A square stays at least 32 pixels wide: readable on a phone.
		if cfg.Width < 32*size || cfg.Width > 900 || cfg.Height < 250 || cfg.Height > 950 || len(data) > 300_000 {
			t.Errorf("size %d: %dx%d, %d bytes", size, cfg.Width, cfg.Height, len(data))
		}
	}
}

// A finished game's picture has no legal-move dots: without them only the
// empty squares with a dot differ.
func TestPictureWithoutLegalMoves(t *testing.T) {
	p, last := position(t, 8, 17)
	with, err := PNG(p, last, "x", true)
	if err != nil {
		t.Fatal(err)
	}
	without, err := PNG(p, last, "x", false)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := png.Decode(bytes.NewReader(with))
	b, _ := png.Decode(bytes.NewReader(without))
	n := differs(a, b)
	if n == 0 {
		t.Fatal("the legal-move dots are drawn either way")
	}
	// Each dot is a small disc: far fewer pixels than a square per move.
	if cell := 64; n > len(p.LegalMoves())*cell*cell/4 {
		t.Errorf("%d pixels differ for %d dots", n, len(p.LegalMoves()))
	}
}

func BenchmarkPNG(b *testing.B) {
	for _, size := range []int{8, 26} {
		p, last := position(b, size, size*size/2)
		b.Run(string(rune('0'+size/10))+string(rune('0'+size%10)), func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := PNG(p, last, "Black 12 · White 9 · alice to move", true)
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
