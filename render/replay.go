package render

// This file draws a game as an animated GIF: the board renderer's own
// pictures, each move placed and its flipped discs turning over, only the
// pixels that change stored in each frame.

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"

	"othello-bot/game"
)

// Frame timing, in hundredths of a second.
const (
	captionDelay = 2   // the caption's own frame, before the move (browsers show 2 as 20 ms; 0 or 1 as 100 ms)
	turnDelay    = 5   // each half of a disc turning over
	finalDelay   = 500 // the pause on the final position
	// A game's moves share about this long in all, each shown between
	// minHold and maxHold.
	replayLength     = 4500
	minHold, maxHold = 8, 60
)

// Replay draws a game as an animated GIF: the start, then each ply (for a
// move four frames: the caption with the move and the score, the disc
// placed with the discs it takes squeezed, the same turned to the mover's
// colour, and all turned; a pass in the caption alone), then the final
// position held for a while under the caption final. The last frame
// is the picture PNG draws of the final position without legal moves.
// caption writes each frame's caption (the words are the caller's, in its
// reader's language).
func Replay(start game.Position, plies []game.Ply, caption Caption, final string) ([]byte, error) {
	pos := start
	b, err := drawBoard(pos, game.Pass, caption(0, nil, pos), false)
	if err != nil {
		return nil, err
	}
	defer b.close()
	a := newAnimation(b)
	a.frame([]image.Rectangle{b.img.Bounds()}, minHold*2)
	hold := min(maxHold, max(minHold, replayLength/max(1, len(plies))))
	last := game.Pass
	for i, ply := range plies {
		if ply.Square.IsPass() {
			pos = pos.Pass()
			a.frame([]image.Rectangle{b.drawCaption(caption(i+1, &ply, pos))}, hold)
			continue
		}
		flips := pos.Flips(ply.Square)
		next, err := pos.Play(ply.Square)
		if err != nil {
			return nil, fmt.Errorf("render: replaying ply %d (%s): %w", i+1, ply, err)
		}
		// The caption first, in a frame of its own: far from most moves, it
		// would make their frames span the board.
		a.frame([]image.Rectangle{b.drawCaption(caption(i+1, &ply, next))}, captionDelay)
		// The new disc lands and the discs it takes start to turn.
		dirty := []image.Rectangle{b.drawSquare(ply.Square, ply.Color, true, nil, 1)}
		if last != game.Pass {
			dirty = append(dirty, b.drawSquare(last, pos.At(last), false, nil, 1))
		}
		for _, sq := range flips {
			dirty = append(dirty, b.drawSquare(sq, ply.Color.Opponent(), false, nil, 0.3))
		}
		a.frame(dirty, turnDelay)
		dirty = dirty[:0]
		for _, sq := range flips {
			dirty = append(dirty, b.drawSquare(sq, ply.Color, false, nil, 0.3))
		}
		a.frame(dirty, turnDelay)
		dirty = dirty[:0]
		for _, sq := range flips {
			dirty = append(dirty, b.drawSquare(sq, ply.Color, false, nil, 1))
		}
		a.frame(dirty, hold)
		pos, last = next, ply.Square
	}
	a.frame([]image.Rectangle{b.drawCaption(final)}, finalDelay)
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, a.gif); err != nil {
		return nil, fmt.Errorf("render: encoding GIF: %w", err)
	}
	return buf.Bytes(), nil
}

// Caption writes a replay frame's caption from the ply just played (n
// counts plies from 1; nil and 0 for the start) and the position after it.
type Caption func(n int, ply *game.Ply, after game.Position) string

// animation collects frames that hold only what changed: the rest of each
// frame is transparent, so the frame before shows through.
type animation struct {
	b       *board
	gif     *gif.GIF
	shown   []uint8 // the palette index every pixel shows so far
	cache   map[color.RGBA]uint8
	changed []change
}

// transparent is the palette index that lets the frame before show.
const transparent = 0

func newAnimation(b *board) *animation {
	w, h := b.img.Bounds().Dx(), b.img.Bounds().Dy()
	shown := make([]uint8, w*h)
	for i := range shown {
		shown[i] = transparent // nothing shown yet: every pixel differs
	}
	return &animation{b: b, shown: shown, cache: map[color.RGBA]uint8{},
		gif: &gif.GIF{Config: image.Config{ColorModel: replayPalette, Width: w, Height: h}}}
}

// frame adds a frame holding the board's pixels in the dirty rectangles
// that differ from what is shown: the frame is just large enough for them.
func (a *animation) frame(dirty []image.Rectangle, delay int) {
	w := a.b.img.Bounds().Dx()
	a.changed = a.changed[:0]
	var bounds image.Rectangle
	var prev color.RGBA
	var prevIdx uint8
	for _, r := range dirty {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				i := a.b.img.PixOffset(x, y)
				c := color.RGBA{a.b.img.Pix[i], a.b.img.Pix[i+1], a.b.img.Pix[i+2], 0xff}
				idx := prevIdx
				if c != prev || idx == transparent {
					var ok bool
					if idx, ok = a.cache[c]; !ok {
						idx = uint8(nearest(c))
						a.cache[c] = idx
					}
					prev, prevIdx = c, idx
				}
				if a.shown[y*w+x] != idx {
					a.shown[y*w+x] = idx
					a.changed = append(a.changed, change{int32(x), int32(y), idx})
					bounds = bounds.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
	}
	if bounds.Empty() {
		bounds = image.Rect(0, 0, 1, 1) // a frame that only waits
	}
	f := image.NewPaletted(bounds, replayPalette) // all transparent
	for _, c := range a.changed {
		f.Pix[f.PixOffset(int(c.x), int(c.y))] = c.idx
	}
	a.gif.Image = append(a.gif.Image, f)
	a.gif.Delay = append(a.gif.Delay, delay)
	a.gif.Disposal = append(a.gif.Disposal, gif.DisposalNone)
}

type change struct {
	x, y int32
	idx  uint8
}

// replayPalette holds every colour the board is drawn with and the blends
// its anti-aliasing makes: greys for the shaded discs, ramps from the felt
// to the discs and the shadow, from the frame to the labels, from the red
// dot to the discs. Index 0 is transparent.
var replayPalette = func() color.Palette {
	p := color.Palette{color.RGBA{}}
	add := func(c color.RGBA) { p = append(p, c) }
	for v := 0; v < 256; v += 4 {
		add(color.RGBA{uint8(v), uint8(v), uint8(v), 0xff})
	}
	add(color.RGBA{0xff, 0xff, 0xff, 0xff})
	for _, c := range []color.RGBA{feltColor, gridColor, frameColor, labelColor, lastColor} {
		add(c)
	}
	ramp := func(from, to color.RGBA, steps int) {
		for i := 1; i < steps; i++ {
			mix := func(a, b uint8) uint8 { return uint8((int(a)*(steps-i) + int(b)*i) / steps) }
			add(color.RGBA{mix(from.R, to.R), mix(from.G, to.G), mix(from.B, to.B), 0xff})
		}
	}
	shadowOnFelt := over(shadowColor, feltColor)
	for _, c := range []color.RGBA{{0x0a, 0x0a, 0x0a, 0xff}, {0x5a, 0x5a, 0x5a, 0xff}, {0xff, 0xff, 0xff, 0xff}, {0xc8, 0xc8, 0xc8, 0xff}} {
		ramp(feltColor, c, 12)
		ramp(shadowOnFelt, c, 8)
		ramp(lastColor, c, 8)
	}
	ramp(feltColor, shadowOnFelt, 8)
	ramp(frameColor, labelColor, 16)
	return p
}()

// over composes a translucent colour over an opaque one.
func over(c color.NRGBA, bg color.RGBA) color.RGBA {
	a := int(c.A)
	mix := func(f, b uint8) uint8 { return uint8((int(f)*a + int(b)*(255-a)) / 255) }
	return color.RGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 0xff}
}

// nearest is the palette index closest to c (never the transparent one).
func nearest(c color.RGBA) int {
	best, bestD := 1, -1
	for i := 1; i < len(replayPalette); i++ {
		p := replayPalette[i].(color.RGBA)
		dr, dg, db := int(c.R)-int(p.R), int(c.G)-int(p.G), int(c.B)-int(p.B)
		if d := dr*dr + dg*dg + db*db; bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
