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
	b, err := drawBoard(p, last, caption, showLegal)
	if err != nil {
		return nil, err
	}
	defer b.close()
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, b.img); err != nil {
		return nil, fmt.Errorf("render: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// drawBoard draws a whole position.
func drawBoard(p game.Position, last game.Square, caption string, showLegal bool) (*board, error) {
	b, err := newBoard(p.Size())
	if err != nil {
		return nil, err
	}
	legal := map[game.Square]bool{}
	if showLegal {
		for _, m := range p.LegalMoves() {
			legal[m] = true
		}
	}
	dot := legalOnBlack
	if p.ToMove() == game.White {
		dot = legalOnWhite
	}
	for row := 0; row < b.n; row++ {
		for col := 0; col < b.n; col++ {
			sq := game.Square{Col: col, Row: row}
			var mark color.Color
			if legal[sq] {
				mark = dot
			}
			b.drawSquare(sq, p.At(sq), sq == last, mark, 1)
		}
	}
	b.drawCaption(caption)
	return b, nil
}

// board is a picture of a board being drawn: its layout, its pixels and
// the faces and rasterizer it draws with. Squares and the caption can be
// drawn again one at a time, which is how the replay animates.
type board struct {
	n, cell, band, pad, captionH int
	left, top, width, height     int
	img                          *image.RGBA
	r                            *vector.Rasterizer
	labels, capFace              font.Face
}

// newBoard lays out a board of n squares a side and draws what never
// changes: the frame, the felt, the grid and the labels.
func newBoard(n int) (*board, error) {
	if err := fonts(); err != nil {
		return nil, fmt.Errorf("render: loading fonts: %w", err)
	}
	b := &board{n: n, cell: max(minCell, min(maxCell, boardPixels/n)), captionH: 40}
	b.band = max(18, b.cell*6/10) // room for the labels
	b.pad = b.band / 2
	b.left, b.top = b.band, b.band
	b.width = b.left + n*b.cell + b.pad
	b.height = b.top + n*b.cell + b.pad + b.captionH
	var err error
	if b.labels, err = opentype.NewFace(regular, &opentype.FaceOptions{Size: float64(b.band) * 0.62, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, err
	}
	if b.capFace, err = opentype.NewFace(bold, &opentype.FaceOptions{Size: 18, DPI: 72, Hinting: font.HintingFull}); err != nil {
		b.labels.Close()
		return nil, err
	}
	b.capFace = withFallback(b.capFace, bold)
	b.img = image.NewRGBA(image.Rect(0, 0, b.width, b.height))
	b.r = vector.NewRasterizer(b.width, b.height)
	img, cell, left, top := b.img, b.cell, b.left, b.top
	draw.Draw(img, img.Bounds(), image.NewUniform(frameColor), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(left, top, left+n*cell, top+n*cell), image.NewUniform(feltColor), image.Point{}, draw.Src)
	for i := 0; i <= n; i++ {
		x, y := left+i*cell, top+i*cell
		draw.Draw(img, image.Rect(x, top, x+1, top+n*cell+1), image.NewUniform(gridColor), image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(left, y, left+n*cell+1, y+1), image.NewUniform(gridColor), image.Point{}, draw.Src)
	}
	for i := 0; i < n; i++ {
		center := float64(i*cell) + float64(cell)/2
		drawText(img, b.labels, string(rune('a'+i)), float64(left)+center, float64(b.band)/2, labelColor)
		drawText(img, b.labels, fmt.Sprint(i+1), float64(b.band)/2, float64(top)+center, labelColor)
	}
	return b, nil
}

func (b *board) close() {
	b.labels.Close()
	b.capFace.Close()
}

// square is the inside of a square, within its grid lines.
func (b *board) square(sq game.Square) image.Rectangle {
	x, y := b.left+sq.Col*b.cell, b.top+sq.Row*b.cell
	return image.Rect(x+1, y+1, x+b.cell, y+b.cell)
}

// drawSquare draws a square afresh: empty (with a dot of colour mark, if
// any) or holding a disc, squeezed to width of its width (a disc turning
// over), with the red dot of the last move. It returns what it drew on.
func (b *board) drawSquare(sq game.Square, v game.Color, last bool, mark color.Color, width float32) image.Rectangle {
	area := b.square(sq)
	draw.Draw(b.img, area, image.NewUniform(feltColor), image.Point{}, draw.Src)
	cx := float32(b.left+sq.Col*b.cell) + float32(b.cell)/2
	cy := float32(b.top+sq.Row*b.cell) + float32(b.cell)/2
	radius := float32(b.cell) * 0.42
	switch v {
	case game.Black, game.White:
		rx := radius * width
		fillEllipse(b.r, b.img, cx+rx*0.08, cy+radius*0.1, rx, radius, image.NewUniform(shadowColor))
		fillEllipse(b.r, b.img, cx, cy, rx, radius, shade(v, cx, cy, radius))
		if last {
			fillCircle(b.r, b.img, cx, cy, radius*0.22, image.NewUniform(lastColor))
		}
	default:
		if mark != nil {
			fillCircle(b.r, b.img, cx, cy, radius*0.22, image.NewUniform(mark))
		}
	}
	return area
}

// drawCaption writes the caption line afresh and returns its strip.
func (b *board) drawCaption(text string) image.Rectangle {
	strip := image.Rect(0, b.top+b.n*b.cell+b.pad, b.width, b.height)
	draw.Draw(b.img, strip, image.NewUniform(frameColor), image.Point{}, draw.Src)
	drawText(b.img, b.capFace, text, float64(b.width)/2, float64(b.top+b.n*b.cell+b.pad)+float64(b.captionH)/2, labelColor)
	return strip
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

// fillCircle fills an anti-aliased circle with src.
func fillCircle(r *vector.Rasterizer, dst draw.Image, cx, cy, radius float32, src image.Image) {
	fillEllipse(r, dst, cx, cy, radius, radius, src)
}

// fillEllipse fills an anti-aliased ellipse with src, rasterizing only its
// bounding box.
func fillEllipse(r *vector.Rasterizer, dst draw.Image, cx, cy, rx, ry float32, src image.Image) {
	const k = 0.5522847 // control-point distance for a quarter circle
	box := image.Rect(int(cx-rx)-1, int(cy-ry)-1, int(cx+rx)+2, int(cy+ry)+2).Intersect(dst.Bounds())
	if box.Empty() {
		return
	}
	r.Reset(box.Dx(), box.Dy())
	x, y := cx-float32(box.Min.X), cy-float32(box.Min.Y) // centre within the box
	kx, ky := k*rx, k*ry
	r.MoveTo(x+rx, y)
	r.CubeTo(x+rx, y+ky, x+kx, y+ry, x, y+ry)
	r.CubeTo(x-kx, y+ry, x-rx, y+ky, x-rx, y)
	r.CubeTo(x-rx, y-ky, x-kx, y-ry, x, y-ry)
	r.CubeTo(x+kx, y-ry, x+rx, y-ky, x+rx, y)
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
