package render

// This file lets captions hold any language: Go's fonts have Latin,
// Greek and Cyrillic, so Japanese (or any rune they lack) is drawn with a
// bitmap font that covers it.

import (
	"image"

	"github.com/hajimehoshi/bitmapfont/v3"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fallbackFace draws a rune with main when main's font has it, else with
// bitmapfont's face (12px, with the JIS X 0208 kanji, kana and more).
type fallbackFace struct {
	main font.Face
	font *opentype.Font
	buf  sfnt.Buffer
}

// withFallback wraps a face of f. Like every face, it is for one
// goroutine at a time.
func withFallback(main font.Face, f *opentype.Font) font.Face {
	return &fallbackFace{main: main, font: f}
}

func (f *fallbackFace) pick(r rune) font.Face {
	if i, err := f.font.GlyphIndex(&f.buf, r); err == nil && i != 0 {
		return f.main
	}
	return bitmapfont.Face
}

func (f *fallbackFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	return f.pick(r).Glyph(dot, r)
}

func (f *fallbackFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return f.pick(r).GlyphBounds(r)
}

func (f *fallbackFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) { return f.pick(r).GlyphAdvance(r) }

func (f *fallbackFace) Kern(r0, r1 rune) fixed.Int26_6 {
	if f.pick(r0) == f.main && f.pick(r1) == f.main {
		return f.main.Kern(r0, r1)
	}
	return 0
}

func (f *fallbackFace) Metrics() font.Metrics { return f.main.Metrics() }

func (f *fallbackFace) Close() error { return f.main.Close() }
