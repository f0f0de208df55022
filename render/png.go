package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"othello-bot/game"
)

// Colours of the picture.
var (
	feltColor  = color.RGBA{0x2e, 0x7d, 0x32, 0xff}
	gridColor  = color.RGBA{0x1b, 0x4d, 0x1f, 0xff}
	frameColor = color.RGBA{0x23, 0x27, 0x2a, 0xff}
	labelColor = color.RGBA{0xe8, 0xe8, 0xe8, 0xff}
	lastColor  = color.RGBA{0xe5, 0x39, 0x35, 0xff}
	// Translucent colours are not premultiplied: NRGBA.
	legalOnBlack = color.NRGBA{0x10, 0x10, 0x10, 0x90}
	legalOnWhite = color.NRGBA{0xf5, 0xf5, 0xf5, 0xb0}
	shadowColor  = color.NRGBA{0x00, 0x00, 0x00, 0x50}
)

// boardPixels is about how wide the board itself is drawn: crisp at the
// size Discord previews images, with cells no smaller than minCell, which
// keeps a square and its label readable on a phone (a 26x26 board is then
// 832 pixels wide).
const (
	boardPixels = 576
	minCell     = 32
	maxCell     = 64
)

var (
	fontsOnce sync.Once
	regular   *opentype.Font
	bold      *opentype.Font
	fontsErr  error
)

func fonts() error {
	fontsOnce.Do(func() {
		if regular, fontsErr = opentype.Parse(goregular.TTF); fontsErr != nil {
			return
		}
		bold, fontsErr = opentype.Parse(gobold.TTF)
	})
	return fontsErr
}

// PNG draws the board as a picture: the felt with its grid, shaded discs,
// column letters and row numbers, the last move (if not Pass) marked with a
// red dot, with showLegal the side to move's legal moves as small dots, and
// a caption line (score and turn, or result) underneath.
func PNG(p game.Position, last game.Square, caption string, showLegal bool) ([]byte, error) {
	if err := fonts(); err != nil {
		return nil, fmt.Errorf("render: loading fonts: %w", err)
	}
	n := p.Size()
	cell := max(minCell, min(maxCell, boardPixels/n))
	band := max(18, cell*6/10) // room for the labels
	pad := band / 2
	captionH := 40
	left, top := band, band
	width := left + n*cell + pad
	height := top + n*cell + pad + captionH

	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(frameColor), image.Point{}, draw.Src)
	board := image.Rect(left, top, left+n*cell, top+n*cell)
	draw.Draw(img, board, image.NewUniform(feltColor), image.Point{}, draw.Src)
	for i := 0; i <= n; i++ {
		x, y := left+i*cell, top+i*cell
		draw.Draw(img, image.Rect(x, top, x+1, top+n*cell+1), image.NewUniform(gridColor), image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(left, y, left+n*cell+1, y+1), image.NewUniform(gridColor), image.Point{}, draw.Src)
	}

	labels, err := opentype.NewFace(regular, &opentype.FaceOptions{Size: float64(band) * 0.62, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer labels.Close()
	for i := 0; i < n; i++ {
		center := float64(i*cell) + float64(cell)/2
		drawText(img, labels, string(rune('a'+i)), float64(left)+center, float64(band)/2, labelColor)
		drawText(img, labels, fmt.Sprint(i+1), float64(band)/2, float64(top)+center, labelColor)
	}

	legal := map[game.Square]bool{}
	if showLegal {
		for _, m := range p.LegalMoves() {
			legal[m] = true
		}
	}
	r := vector.NewRasterizer(width, height)
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			sq := game.Square{Col: col, Row: row}
			cx := float32(left+col*cell) + float32(cell)/2
			cy := float32(top+row*cell) + float32(cell)/2
			radius := float32(cell) * 0.42
			switch v := p.At(sq); v {
			case game.Black, game.White:
				fillCircle(r, img, cx+radius*0.08, cy+radius*0.1, radius, image.NewUniform(shadowColor))
				fillCircle(r, img, cx, cy, radius, shade(v, cx, cy, radius))
				if sq == last {
					fillCircle(r, img, cx, cy, radius*0.22, image.NewUniform(lastColor))
				}
			default:
				if legal[sq] {
					dot := legalOnBlack
					if p.ToMove() == game.White {
						dot = legalOnWhite
					}
					fillCircle(r, img, cx, cy, radius*0.22, image.NewUniform(dot))
				}
			}
		}
	}

	capFace, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: 18, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer capFace.Close()
	drawText(img, capFace, caption, float64(width)/2, float64(top+n*cell+pad)+float64(captionH)/2, labelColor)

	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// drawText centres s on (cx, cy).
func drawText(dst draw.Image, face font.Face, s string, cx, cy float64, c color.Color) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face}
	w := d.MeasureString(s)
	m := face.Metrics()
	d.Dot = fixed.Point26_6{
		X: fixed.Int26_6(cx*64) - w/2,
		Y: fixed.Int26_6(cy*64) + (m.Ascent-m.Descent)/2,
	}
	d.DrawString(s)
}

// fillCircle fills an anti-aliased circle with src, rasterizing only the
// circle's bounding box.
func fillCircle(r *vector.Rasterizer, dst draw.Image, cx, cy, radius float32, src image.Image) {
	const k = 0.5522847 // control-point distance for a quarter circle
	box := image.Rect(int(cx-radius)-1, int(cy-radius)-1, int(cx+radius)+2, int(cy+radius)+2).Intersect(dst.Bounds())
	if box.Empty() {
		return
	}
	r.Reset(box.Dx(), box.Dy())
	x, y := cx-float32(box.Min.X), cy-float32(box.Min.Y) // centre within the box
	kr := k * radius
	r.MoveTo(x+radius, y)
	r.CubeTo(x+radius, y+kr, x+kr, y+radius, x, y+radius)
	r.CubeTo(x-kr, y+radius, x-radius, y+kr, x-radius, y)
	r.CubeTo(x-radius, y-kr, x-kr, y-radius, x, y-radius)
	r.CubeTo(x+kr, y-radius, x+radius, y-kr, x+radius, y)
	r.ClosePath()
	r.Draw(dst, box, src, box.Min)
}

// gradient shades a disc: lighter towards a highlight up and to the left.
type gradient struct {
	hx, hy, span float64
	from, to     [3]float64
}

func shade(c game.Color, cx, cy, radius float32) image.Image {
	g := &gradient{hx: float64(cx - radius*0.35), hy: float64(cy - radius*0.4), span: float64(radius) * 1.6}
	if c == game.Black {
		g.from, g.to = [3]float64{0x5a, 0x5a, 0x5a}, [3]float64{0x0a, 0x0a, 0x0a}
	} else {
		g.from, g.to = [3]float64{0xff, 0xff, 0xff}, [3]float64{0xc8, 0xc8, 0xc8}
	}
	return g
}

func (g *gradient) ColorModel() color.Model { return color.RGBAModel }
func (g *gradient) Bounds() image.Rectangle {
	return image.Rect(-1e9, -1e9, 1e9, 1e9)
}
func (g *gradient) At(x, y int) color.Color {
	t := math.Min(1, math.Hypot(float64(x)-g.hx, float64(y)-g.hy)/g.span)
	mix := func(i int) uint8 { return uint8(g.from[i] + (g.to[i]-g.from[i])*t) }
	return color.RGBA{mix(0), mix(1), mix(2), 0xff}
}
