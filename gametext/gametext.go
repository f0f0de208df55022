// Package gametext writes a recorded game in plain words for one reader:
// its sides, its result and each step of its replay. The bot's pictures,
// the replay GIFs and the web page say these the same way.
package gametext

import (
	"strings"

	"othello-bot/catalog"
	"othello-bot/game"
	"othello-bot/opening"
	"othello-bot/record"
)

// Words writes in T's language. Name shortens a person's name for where
// it is shown; nil only folds its whitespace.
type Words struct {
	T    *catalog.Printer
	Name func(record.Player) string
}

// Side names a side: the player, or the bot with its level.
func (w Words) Side(s record.Side) string {
	if s.IsBot() {
		return w.T.T("side.bot", "Level", s.Level)
	}
	if w.Name != nil {
		return w.Name(s.Player)
	}
	return strings.Join(strings.Fields(record.PlainName(s.Player.Name)), " ")
}

// Result says who won a finished game and how ("alice wins by
// resignation"), or that it ended without a result.
func (w Words) Result(g *record.Game) string {
	t, r := w.T, g.Result
	if r == nil {
		return t.T("caption.over")
	}
	switch r.Reason {
	case record.EndAbort:
		return t.T("caption.aborted")
	case record.EndAbandoned:
		return t.T("caption.abandoned")
	case record.EndModerator:
		return t.T("caption.moderator")
	case record.EndResign:
		if r.Withdrawal() {
			return t.T("caption.withdrawal", "Winner", w.Side(g.Side(r.Winner)))
		}
		return t.T("caption.resign", "Winner", w.Side(g.Side(r.Winner)))
	case record.EndTimeout:
		return t.T("caption.timeout", "Winner", w.Side(g.Side(r.Winner)))
	}
	if r.Winner == game.Empty {
		return t.T("caption.draw")
	}
	return t.T("caption.win", "Winner", w.Side(g.Side(r.Winner)))
}

// Frame captions one step of a replay: the start (ply nil), or ply n and
// the position after it.
func (w Words) Frame(n int, ply *game.Ply, after game.Position) string {
	t := w.T
	b, wh := after.Count()
	switch {
	case ply == nil:
		return t.T("caption.start", "Black", b, "White", wh)
	case ply.Square.IsPass():
		return t.T("caption.pass", "N", n, "Color", w.color(ply.Color), "Black", b, "White", wh)
	}
	return t.T("caption.move", "N", n, "Color", w.color(ply.Color), "Square", ply.Square.String(), "Black", b, "White", wh)
}

// color names a colour at the start of a caption.
func (w Words) color(c game.Color) string {
	if c == game.White {
		return w.T.T("caption.white")
	}
	return w.T.T("caption.black")
}

// Opening names the opening a game from the standard 8x8 start has
// reached ("Tiger"); "" for other boards and starts, or no named line.
func (w Words) Opening(start game.Position, moves []game.Square) string {
	if !opening.AppliesTo(start) {
		return ""
	}
	if o, ok := opening.Standard().Name(moves); ok {
		return o.Name(w.T)
	}
	return ""
}

// Framer captions a replay of plies from start as Frame does, each step
// after the game has reached a named opening adding its name (the
// deepest one so far).
func (w Words) Framer(start game.Position, plies []game.Ply) func(n int, ply *game.Ply, after game.Position) string {
	names := make([]string, len(plies)+1)
	if opening.AppliesTo(start) {
		moves := game.MovesOf(plies)
		m := opening.Standard().Recognise(moves)
		if m.Named {
			// Names by move count: walk again only up to the match.
			name := ""
			for k := 1; k <= len(moves) && k <= m.Ply; k++ {
				if o, ok := opening.Standard().Name(moves[:k]); ok {
					name = o.Name(w.T)
				}
				names[plyOf(plies, k)] = name
			}
			for n := plyOf(plies, m.Ply) + 1; n < len(names); n++ {
				names[n] = name
			}
		}
	}
	return func(n int, ply *game.Ply, after game.Position) string {
		c := w.Frame(n, ply, after)
		if n >= 0 && n < len(names) && names[n] != "" {
			return w.T.T("caption.with_opening", "Caption", c, "Opening", names[n])
		}
		return c
	}
}

// plyOf is the ply number (passes counted) of the k-th move.
func plyOf(plies []game.Ply, k int) int {
	moves := 0
	for i, p := range plies {
		if !p.Square.IsPass() {
			moves++
			if moves == k {
				return i + 1
			}
		}
	}
	return len(plies)
}
