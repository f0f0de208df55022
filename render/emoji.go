// Package render draws games for chat and pages: boards as emoji text for
// boards small enough to read that way and as PNG pictures for any size,
// replays as animated GIFs, and an analysis's evaluation as a graph.
package render

import (
	"strings"

	"othello-bot/game"
)

// The emoji of the text board.
const (
	Black     = "⚫"
	White     = "⚪"
	Empty     = "🟩"
	Legal     = "🟨" // a legal move of the side to move
	LastBlack = "🖤" // the disc just played, black
	LastWhite = "🤍" // the disc just played, white
	corner    = "⬛"
	zwsp      = "\u200b" // keeps neighbouring letters from forming a flag
)

// MaxEmojiSize is the largest board the emoji renderer draws: beyond ten
// rows there are no keycap numbers, and on a phone the board stops being
// readable anyway.
const MaxEmojiSize = 10

// regional returns the regional-indicator letter for column c (0 = A).
func regional(c int) string { return string(rune(0x1F1E6 + c)) }

// keycap returns the keycap emoji of row number n (1..10).
func keycap(n int) string {
	if n == 10 {
		return "🔟"
	}
	return string(rune('0'+n)) + "\ufe0f\u20e3"
}

// Emoji draws p as emoji text: column letters on top, row numbers on the
// left, the last move (if not Pass) marked, and with showLegal the side to
// move's legal moves (a finished game has none to show). It returns "" for
// boards larger than MaxEmojiSize.
func Emoji(p game.Position, last game.Square, showLegal bool) string {
	n := p.Size()
	if n > MaxEmojiSize {
		return ""
	}
	legal := map[game.Square]bool{}
	if showLegal {
		for _, m := range p.LegalMoves() {
			legal[m] = true
		}
	}
	var b strings.Builder
	b.WriteString(corner)
	for c := 0; c < n; c++ {
		b.WriteString(zwsp)
		b.WriteString(regional(c))
	}
	b.WriteByte('\n')
	for r := 0; r < n; r++ {
		b.WriteString(keycap(r + 1))
		for c := 0; c < n; c++ {
			sq := game.Square{Col: c, Row: r}
			switch v := p.At(sq); {
			case v == game.Black && sq == last:
				b.WriteString(LastBlack)
			case v == game.White && sq == last:
				b.WriteString(LastWhite)
			case v == game.Black:
				b.WriteString(Black)
			case v == game.White:
				b.WriteString(White)
			case legal[sq]:
				b.WriteString(Legal)
			default:
				b.WriteString(Empty)
			}
		}
		if r < n-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Disc returns the emoji of a colour.
func Disc(c game.Color) string {
	if c == game.White {
		return White
	}
	return Black
}
