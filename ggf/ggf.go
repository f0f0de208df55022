// Package ggf reads and writes Othello games in the Generic Game Format of
// the GGS servers, which most Othello programs read and write (Egaroucid,
// Edax, WZebra's exports): a game is "(;" then properties NAME[value] then
// ";)". GM[Othello] names the game, PB and PW the players, DT the date, PC
// the place, TY the board's size, RE the result for Black, BO the initial
// board ("BO[8 ---…--- *]": the size, the cells row by row from a1 — '*'
// black, 'O' white, '-' empty — then the side to move), and each move is
// B[f5] or W[d6], optionally followed by /evaluation/time, with PA for a
// pass.
package ggf

import (
	"errors"
	"fmt"
	"strings"

	"othello-bot/game"
)

// MaxLen bounds the text Parse reads: a 26x26 game with long names and
// every move timed fits well within it.
const MaxLen = 64 << 10

// Game is a game as a record holds it.
type Game struct {
	Start        game.Position
	Plies        []game.Ply // in order, passes as game.Pass
	Black, White string     // the players' names, "" if not given
	Place, Date  string
	Result       string // RE as written ("+10.00", "-4:r"), "" if not given
}

// ErrNotGGF says the text holds no GGF game.
var ErrNotGGF = errors.New("not a GGF record: it should start with (; and end with ;)")

// Parse reads the first game of a GGF text and checks every move by
// replaying it: a move out of turn, an illegal one or a pass with a legal
// move fails, naming the ply.
func Parse(s string) (*Game, error) {
	if len(s) > MaxLen {
		return nil, fmt.Errorf("a GGF record of %d bytes is over the %d this reads", len(s), MaxLen)
	}
	start := strings.Index(s, "(;")
	if start < 0 {
		return nil, ErrNotGGF
	}
	props, err := properties(s[start+2:])
	if err != nil {
		return nil, err
	}
	g := &Game{}
	size := 8
	var board string
	var moves []prop
	for _, p := range props {
		switch p.name {
		case "GM":
			if !strings.EqualFold(strings.TrimSpace(p.value), "othello") {
				return nil, fmt.Errorf("the record is a game of %q, not Othello", p.value)
			}
		case "PB":
			g.Black = strings.TrimSpace(p.value)
		case "PW":
			g.White = strings.TrimSpace(p.value)
		case "PC":
			g.Place = strings.TrimSpace(p.value)
		case "DT":
			g.Date = strings.TrimSpace(p.value)
		case "RE":
			g.Result = strings.TrimSpace(p.value)
		case "TY":
			// TY[8], or a variant (8r: random start, 8k: komi): its size,
			// which comes first (TY[-8] is no size, not 8).
			n := 0
			for _, r := range strings.TrimSpace(p.value) {
				if r < '0' || r > '9' || n > 100 {
					break
				}
				n = n*10 + int(r-'0')
			}
			if n == 0 {
				return nil, fmt.Errorf("TY[%s] is not a board size", p.value)
			}
			size = n
		case "BO":
			board = p.value
		case "B", "W":
			moves = append(moves, p)
		}
	}
	if board != "" {
		if g.Start, err = parseBoard(board); err != nil {
			return nil, err
		}
	} else if g.Start, err = game.NewPosition(size); err != nil {
		return nil, fmt.Errorf("TY: %w", err)
	}
	n := g.Start.Size()
	for i, m := range moves {
		c := game.Black
		if m.name == "W" {
			c = game.White
		}
		text, _, _ := strings.Cut(m.value, "/")
		text = strings.TrimSpace(text)
		sq := game.Pass
		if !strings.EqualFold(text, "pa") && !strings.EqualFold(text, "pass") {
			if sq, err = game.ParseSquare(text, n); err != nil {
				return nil, fmt.Errorf("move %d (%s[%s]): %w", i+1, m.name, m.value, err)
			}
		}
		g.Plies = append(g.Plies, game.Ply{Color: c, Square: sq})
	}
	if _, err := game.ReplayPlies(g.Start, g.Plies); err != nil {
		return nil, fmt.Errorf("the moves do not replay: %w", err)
	}
	return g, nil
}

type prop struct{ name, value string }

// properties reads NAME[value] pairs up to ";)"; in a value, \] and \\
// stand for ] and \.
func properties(s string) ([]prop, error) {
	var out []prop
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return nil, ErrNotGGF
		}
		if strings.HasPrefix(s[i:], ";)") {
			return out, nil
		}
		j := i
		for j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
			j++
		}
		if j == i || j >= len(s) || s[j] != '[' || j-i > 8 {
			return nil, fmt.Errorf("GGF: expected a property like PB[name] at %q", clip(s[i:]))
		}
		name := s[i:j]
		var v strings.Builder
		k := j + 1
		for ; k < len(s) && s[k] != ']'; k++ {
			if s[k] == '\\' && k+1 < len(s) {
				k++
			}
			v.WriteByte(s[k])
		}
		if k >= len(s) {
			return nil, fmt.Errorf("GGF: %s[ is never closed", name)
		}
		out = append(out, prop{name, v.String()})
		i = k + 1
	}
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// parseBoard reads BO: the size, the cells, the side to move.
func parseBoard(v string) (game.Position, error) {
	f := strings.Fields(v)
	if len(f) < 2 {
		return game.Position{}, fmt.Errorf("BO[%s]: want the size, the cells and the side to move", clip(v))
	}
	size := 0
	if _, err := fmt.Sscanf(f[0], "%d", &size); err != nil || !game.ValidSize(size) {
		return game.Position{}, fmt.Errorf("BO: %q is not a board size", f[0])
	}
	cells := strings.Join(f[1:len(f)-1], "")
	if len(cells) != size*size {
		return game.Position{}, fmt.Errorf("BO: a %dx%d board has %d cells, not %d", size, size, size*size, len(cells))
	}
	list := make([]game.Color, len(cells))
	for i := range len(cells) {
		c, ok := cellOf(cells[i])
		if !ok {
			return game.Position{}, fmt.Errorf("BO: %q is not a cell (*, O or -)", cells[i])
		}
		list[i] = c
	}
	toMove, ok := cellOf(f[len(f)-1][0])
	if !ok || toMove == game.Empty || len(f[len(f)-1]) != 1 {
		return game.Position{}, fmt.Errorf("BO: %q is not the side to move (* or O)", f[len(f)-1])
	}
	return game.FromCells(size, list, toMove)
}

func cellOf(b byte) (game.Color, bool) {
	switch b {
	case '*', 'X', 'x', 'B', 'b':
		return game.Black, true
	case 'O', 'o', 'W', 'w':
		return game.White, true
	case '-', '.':
		return game.Empty, true
	}
	return game.Empty, false
}

// Format writes a game as GGF, on one line.
func Format(g *Game) string {
	var b strings.Builder
	b.WriteString("(;GM[Othello]")
	for _, p := range []prop{{"PC", g.Place}, {"DT", g.Date}, {"PB", g.Black}, {"PW", g.White}} {
		if p.value != "" {
			b.WriteString(p.name + "[" + escape(p.value) + "]")
		}
	}
	n := g.Start.Size()
	fmt.Fprintf(&b, "TY[%d]", n)
	if g.Result != "" {
		b.WriteString("RE[" + escape(g.Result) + "]")
	}
	fmt.Fprintf(&b, "BO[%d", n)
	cells := g.Start.Cells()
	for r := range n {
		b.WriteByte(' ')
		for c := range n {
			b.WriteByte(cellByte(cells[r*n+c]))
		}
	}
	b.WriteString(" " + string(cellByte(g.Start.ToMove())) + "]")
	for _, p := range g.Plies {
		name := "B"
		if p.Color == game.White {
			name = "W"
		}
		move := "PA"
		if !p.Square.IsPass() {
			move = p.Square.String()
		}
		b.WriteString(name + "[" + move + "]")
	}
	b.WriteString(";)")
	return b.String()
}

func cellByte(c game.Color) byte {
	switch c {
	case game.Black:
		return '*'
	case game.White:
		return 'O'
	}
	return '-'
}

func escape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, "]", `\]`)
}
