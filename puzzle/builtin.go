package puzzle

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strconv"

	"othello-bot/game"
	"othello-bot/internal/datafile"
)

// builtin.txt is the set a server without puzzles of its own starts from:
// puzzles found by `go run ./cmd/puzzles` in games our engine played
// against itself at mixed levels, each verified by a second solve before
// it was written (its header says with which settings).
//
//go:embed builtin.txt
var builtinData string

// Builtin returns the built-in set by key.
func Builtin() (map[string]Puzzle, error) { return ParseSet(builtinData) }

// Key names a puzzle by its position and line, the same on every machine.
func Key(p Puzzle) string {
	h := sha256.Sum256([]byte(p.Start.Board64() + " " + p.Start.ToMove().Letter() + " " + game.FormatTranscript(p.Line, 8)))
	return hex.EncodeToString(h[:6])
}

// FormatSet writes one line of a set: key, cells, side to move, line,
// result, cost and the game's move.
func FormatSet(p Puzzle) string {
	return fmt.Sprintf("%s %s %s %s %d %d %s", Key(p), p.Start.Board64(), p.Start.ToMove().Letter(),
		game.FormatTranscript(p.Line, 8), p.Result, p.Cost, p.Played)
}

// ParseSet reads a set's lines ('#' starts a comment); every puzzle's line
// must be playable and its key right.
func ParseSet(text string) (map[string]Puzzle, error) {
	out := map[string]Puzzle{}
	for _, l := range datafile.Lines(text) {
		n, f := l.N-1, l.Fields
		if len(f) != 7 || len(f[1]) != 64 {
			return nil, fmt.Errorf("line %d: want 7 fields and 64 cells", n+1)
		}
		toMove, ok := game.ParseColor(f[2])
		if !ok {
			return nil, fmt.Errorf("line %d: side %q", n+1, f[2])
		}
		start, err := game.ParseBoard64(f[1], toMove)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		moves, err := game.ParseTranscript(f[3], 8)
		if err != nil || len(moves) == 0 {
			return nil, fmt.Errorf("line %d: line %q: %v", n+1, f[3], err)
		}
		result, err1 := strconv.Atoi(f[4])
		cost, err2 := strconv.Atoi(f[5])
		played, err3 := game.ParseSquare(f[6], 8)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("line %d: result, cost or move unreadable", n+1)
		}
		p := Puzzle{Start: start, Line: moves, Result: result, Cost: cost, Played: played}
		for step := 0; step <= len(moves); step++ {
			if _, err := p.Position(step); err != nil {
				return nil, fmt.Errorf("line %d: the line does not play: %w", n+1, err)
			}
		}
		if Key(p) != f[0] {
			return nil, fmt.Errorf("line %d: key %s, the puzzle's is %s", n+1, f[0], Key(p))
		}
		out[f[0]] = p
	}
	return out, nil
}
