package render

// This file draws the evaluation graph of an analysed game.

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/vector"
)

// Graph sizes, in pixels.
const (
	graphW, graphH = 800, 320
	graphLeft      = 56
	graphRight     = 16
	graphTop       = 16
	graphBottom    = 40
)

var (
	blackArea = color.RGBA{0x21, 0x21, 0x21, 0xff}
	whiteArea = color.RGBA{0xee, 0xee, 0xee, 0xff}
	axisColor = color.RGBA{0x9e, 0x9e, 0x9e, 0xff}
)

// Graph draws a game's evaluation, Black's final margin in discs before
// each move and at the end: dark above the middle line where Black leads,
// light below where White does, scaled to the largest margin (at least 8).
func Graph(curve []float64, label string) ([]byte, error) {
	if len(curve) < 2 {
		return nil, fmt.Errorf("render: a graph needs at least 2 points, not %d", len(curve))
	}
	if err := fonts(); err != nil {
		return nil, fmt.Errorf("render: loading fonts: %w", err)
	}
	face, err := opentype.NewFace(regular, &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	face = withFallback(face, regular)
	defer face.Close()
	img := image.NewRGBA(image.Rect(0, 0, graphW, graphH))
	draw.Draw(img, img.Bounds(), image.NewUniform(frameColor), image.Point{}, draw.Src)
	plot := image.Rect(graphLeft, graphTop, graphW-graphRight, graphH-graphBottom)
	draw.Draw(img, plot, image.NewUniform(feltColor), image.Point{}, draw.Src)
	top := 8.0
	for _, v := range curve {
		top = max(top, v, -v)
	}
	mid := float32(plot.Min.Y+plot.Max.Y) / 2
	x := func(i int) float32 {
		return float32(plot.Min.X) + float32(i)*float32(plot.Dx())/float32(len(curve)-1)
	}
	y := func(v float64) float32 { return mid - float32(v/top)*float32(plot.Dy())/2 }
	// The areas between the curve and the middle line, one colour each side.
	for _, side := range []struct {
		sign float64
		c    color.RGBA
	}{{1, blackArea}, {-1, whiteArea}} {
		r := vector.NewRasterizer(graphW, graphH)
		r.MoveTo(x(0), mid)
		for i, v := range curve {
			r.LineTo(x(i), y(max(0, side.sign*v)*side.sign))
		}
		r.LineTo(x(len(curve)-1), mid)
		r.ClosePath()
		r.Draw(img, img.Bounds(), image.NewUniform(side.c), image.Point{})
	}
	draw.Draw(img, image.Rect(plot.Min.X, int(mid), plot.Max.X, int(mid)+1), image.NewUniform(axisColor), image.Point{}, draw.Src)
	// Labels: the margin at the top and bottom, move numbers below.
	drawText(img, face, fmt.Sprintf("+%.0f", top), float64(graphLeft)/2, float64(plot.Min.Y)+6, labelColor)
	drawText(img, face, "0", float64(graphLeft)/2, float64(mid), labelColor)
	drawText(img, face, fmt.Sprintf("-%.0f", top), float64(graphLeft)/2, float64(plot.Max.Y)-6, labelColor)
	step := max(1, (len(curve)-1)/10)
	for i := 0; i < len(curve); i += step {
		drawText(img, face, fmt.Sprint(i+1), float64(x(i)), float64(plot.Max.Y)+14, labelColor)
	}
	drawText(img, face, label, float64(graphW)/2, float64(graphH)-10, labelColor)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encoding graph: %w", err)
	}
	return buf.Bytes(), nil
}
