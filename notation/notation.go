// Package notation reads games written down elsewhere, in the forms
// players paste: a transcript ("f5d6c3d3…", as Othello Quest and most
// programs copy a game; spaces, commas and move numbers allowed), a GGF
// record (GGS, Egaroucid, Edax), a PGN record (PlayOK, FlyOrDie and the
// Othello Quest downloaders write tags, then "1. f5 d6 2. c3 …" with
// "--" for a pass and the score last) and a board with a side to move
// ("---…OX…--- X", 64 cells, or any even square up to 26x26). It knows
// nothing of chat: a text goes in, a start position and its plies (or a
// position alone) come out, or an Error that says what is wrong in a way
// the bot can put in the reader's words.
package notation

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"othello-bot/game"
	"othello-bot/ggf"
)

// MaxLen bounds what Read reads: a 26x26 game's PGN with long names fits
// (Discord's text options stop at 6,000 characters).
const MaxLen = 16 << 10

// Format names the form a record was written in.
type Format string

const (
	Transcript Format = "transcript"
	GGF        Format = "ggf"
	PGN        Format = "pgn"
	Board      Format = "board"
)

// Record is a game (or a position) read from text.
type Record struct {
	Format Format
	Start  game.Position
	// Plies are the moves from Start, passes included; none for a Board.
	Plies []game.Ply
	// Black and White are the players' names where the record gives
	// them, else "".
	Black, White string
}

// Kind says what is wrong with a text.
type Kind string

const (
	Empty     Kind = "empty"      // nothing to read
	TooLong   Kind = "too_long"   // over MaxLen
	Unknown   Kind = "unknown"    // no form this package reads
	NotSquare Kind = "not_square" // a move that is no square: Error.Move, Error.Text
	OffBoard  Kind = "off_board"  // a square past the board: Error.Move, Error.Text, Error.Size
	Illegal   Kind = "illegal"    // a move the game does not allow: Error.Move, Error.Text
	BadBoard  Kind = "bad_board"  // a board whose cells do not make a square board of an even size, or no side to move
	BadGGF    Kind = "bad_ggf"    // a GGF record that does not read (Error.Detail says why, in English, for the log)
)

// Error says why a text was not read.
type Error struct {
	Kind   Kind
	Move   int    // 1-based, passes not counted, where the error is about a move
	Text   string // the move as written, clipped
	Size   int    // the board's size, where it matters
	Detail string // for the log
}

func (e *Error) Error() string {
	s := "notation: " + string(e.Kind)
	if e.Move > 0 {
		s += " at move " + strconv.Itoa(e.Move) + " (" + e.Text + ")"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Read reads a record in any of the forms above, telling them apart by
// their look: "(;" is GGF, a leading [Tag "value"] is PGN, a text of
// board cells is a board, and anything else is read as moves.
func Read(text string) (*Record, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return nil, &Error{Kind: Empty}
	case len(text) > MaxLen:
		return nil, &Error{Kind: TooLong}
	case strings.Contains(text, "(;"):
		g, err := ggf.Parse(text)
		if err != nil {
			return nil, &Error{Kind: BadGGF, Detail: err.Error()}
		}
		return &Record{Format: GGF, Start: g.Start, Plies: g.Plies, Black: g.Black, White: g.White}, nil
	case pgnTag.MatchString(text):
		return readPGN(text)
	}
	if r, ok, err := readBoard(text); ok {
		return r, err
	}
	r, err := readMoves(text)
	if err != nil {
		return nil, err
	}
	r.Format = Transcript
	return r, nil
}

// pgnTag is a PGN tag pair at the start: [Name "value"].
var pgnTag = regexp.MustCompile(`^\[\s*[A-Za-z][A-Za-z0-9_]*\s+"`)

// pgnTags finds every tag pair, on lines of their own or run together (a
// record pasted into one line of chat).
var pgnTags = regexp.MustCompile(`\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]`)

func readPGN(text string) (*Record, error) {
	tags := map[string]string{}
	last := 0
	for _, m := range pgnTags.FindAllStringSubmatchIndex(text, -1) {
		if strings.TrimSpace(text[last:m[0]]) != "" {
			break // the moves have begun
		}
		name, value := text[m[2]:m[3]], text[m[4]:m[5]]
		value = strings.ReplaceAll(strings.ReplaceAll(value, `\"`, `"`), `\\`, `\`)
		tags[strings.ToLower(name)] = strings.TrimSpace(value)
		last = m[1]
	}
	// Comments and the result go; what is left is moves with numbers.
	moves := pgnComment.ReplaceAllString(text[last:], " ")
	r, err := readMoves(moves)
	if err != nil {
		return nil, err
	}
	r.Format = PGN
	r.Black, r.White = tags["black"], tags["white"]
	return r, nil
}

var pgnComment = regexp.MustCompile(`\{[^}]*\}|;[^\n]*`)

// readMoves reads moves: squares run together or apart, move numbers
// ("12." and "12..."), passes written as --, pa, ps or pass (or left out:
// a side with no move passes by itself), and a final result such as
// 47-17, 1-0 or *. The board's size is the smallest that holds every
// square, 8x8 first: a game whose squares fit 8x8 but does not replay
// there is tried on 6x6 and 4x4.
func readMoves(text string) (*Record, error) {
	t := strings.ToLower(text)
	var squares []game.Square
	var written []string
	// notSquare is what stops the reading: text that is no move. Where no
	// move came before it, the text is no record of moves at all.
	notSquare := func(i int) error {
		if len(squares) == 0 {
			return &Error{Kind: Unknown}
		}
		return &Error{Kind: NotSquare, Move: len(squares) + 1, Text: clip(word(t, i))}
	}
	maxLine := 0
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '.':
			i++
			continue
		case c == '*':
			i++
			continue
		case c >= '0' && c <= '9':
			// A move number ("12.") or the result ("47-17", "1/2-1/2").
			j := i
			for j < len(t) && (t[j] >= '0' && t[j] <= '9' || t[j] == '-' || t[j] == '/') {
				j++
			}
			if j < len(t) && t[j] != '.' && !isSep(t[j]) {
				return nil, notSquare(i)
			}
			i = j
			continue
		case c == '-':
			j := i
			for j < len(t) && t[j] == '-' {
				j++
			}
			i = j // a pass: the game passes by itself
			continue
		case c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			if j == i+1 { // letters: a pass, or no move at all
				k := i
				for k < len(t) && t[k] >= 'a' && t[k] <= 'z' {
					k++
				}
				switch t[i:k] {
				case "pa", "ps", "pass":
					i = k
					continue
				}
				return nil, notSquare(i)
			}
			sq, err := game.ParseSquare(t[i:j], game.MaxSize)
			if errors.Is(err, game.ErrOffBoard) {
				return nil, &Error{Kind: OffBoard, Move: len(squares) + 1, Text: clip(t[i:j]), Size: game.MaxSize}
			} else if err != nil {
				return nil, notSquare(i)
			}
			squares = append(squares, sq)
			written = append(written, t[i:j])
			maxLine = max(maxLine, sq.Col+1, sq.Row+1)
			i = j
		default:
			return nil, notSquare(i)
		}
	}
	if len(squares) == 0 {
		return nil, &Error{Kind: Unknown}
	}
	sizes := []int{8, 6, 4}
	if maxLine > 8 {
		n := maxLine + maxLine%2
		if n > game.MaxSize {
			return nil, &Error{Kind: OffBoard, Size: game.MaxSize}
		}
		if typo, ok := typoPast8x8(squares, n); ok {
			// f5d6c3x9: an 8x8 game and a slip of the keyboard, not a
			// 24x24 game whose first move cannot be played.
			return nil, &Error{Kind: NotSquare, Move: typo + 1, Text: clip(written[typo])}
		}
		sizes = []int{n}
	}
	var first error
	for _, n := range sizes {
		if maxLine > n {
			continue
		}
		start, err := game.NewPosition(n)
		if err != nil {
			return nil, err
		}
		g, bad, err := replay(start, squares)
		if err == nil {
			return &Record{Start: start, Plies: g.Plies()}, nil
		}
		if first == nil {
			first = &Error{Kind: Illegal, Move: bad + 1, Text: written[bad], Size: n, Detail: err.Error()}
		}
	}
	return nil, first
}

// typoPast8x8 says whether moves that would make a board of size n read
// better as an 8x8 game with one square off its edge: they do not replay
// on n, and those before the first square past 8x8 replay on 8x8. It
// returns that square's index.
func typoPast8x8(squares []game.Square, n int) (int, bool) {
	k := slices.IndexFunc(squares, func(sq game.Square) bool { return sq.Col >= 8 || sq.Row >= 8 })
	big, _ := game.NewPosition(n)
	if _, _, err := replay(big, squares); err == nil {
		return 0, false
	}
	eight, _ := game.NewPosition(8)
	if _, _, err := replay(eight, squares[:k]); err != nil {
		return 0, false
	}
	return k, true
}

// replay plays squares from start, returning the index of the first one
// refused.
func replay(start game.Position, squares []game.Square) (*game.Game, int, error) {
	g := game.NewGame(start)
	for i, sq := range squares {
		if _, err := g.Play(sq); err != nil {
			return nil, i, err
		}
	}
	return g, 0, nil
}

func isSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','
}

// word is the text from i to the next separator.
func word(t string, i int) string {
	j := i
	for j < len(t) && !isSep(t[j]) {
		j++
	}
	return t[i:j]
}

// clip keeps a quoted piece of the reader's text short (it goes back to
// them in a message).
func clip(s string) string {
	r := []rune(s)
	if len(r) > 12 {
		return string(r[:12]) + "…"
	}
	return s
}

// readBoard reads a board and a side to move: the cells row by row from
// a1 (X or * black, O white, - or . empty; spaces and line breaks
// ignored), then the side: X, *, O, B or W, black or white, with or
// without "to move" and Edax's ";". ok is false when the text does not
// look like a board at all.
func readBoard(text string) (r *Record, ok bool, err error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	lower := strings.ToLower(t)
	lower = strings.TrimSpace(strings.TrimSuffix(lower, "to move"))
	fields := strings.Fields(lower)
	if len(fields) == 0 {
		return nil, false, nil
	}
	var side game.Color
	cells := strings.Join(fields, "")
	last := fields[len(fields)-1]
	switch last {
	case "x", "*", "b", "black":
		side = game.Black
	case "o", "w", "white":
		side = game.White
	}
	if side != game.Empty && len(fields) > 1 {
		cells = strings.Join(fields[:len(fields)-1], "")
	} else if n := len(cells); n > 0 {
		// The side written straight after the cells: "…---X".
		side = game.Empty
		if s, found := sideOf(cells[n-1]); found && !isSquareCount(n) && isSquareCount(n-1) {
			side, cells = s, cells[:n-1]
		}
	}
	for i := 0; i < len(cells); i++ {
		if _, isCell := cellOf(cells[i]); !isCell {
			return nil, false, nil
		}
	}
	if len(cells) < 16 {
		return nil, false, nil
	}
	n := 0
	for s := game.MinSize; s <= game.MaxSize; s += 2 {
		if s*s == len(cells) {
			n = s
		}
	}
	if n == 0 || side == game.Empty {
		return nil, true, &Error{Kind: BadBoard, Size: n}
	}
	list := make([]game.Color, len(cells))
	for i := range len(cells) {
		list[i], _ = cellOf(cells[i])
	}
	pos, err := game.FromCells(n, list, side)
	if err != nil {
		return nil, true, &Error{Kind: BadBoard, Size: n, Detail: err.Error()}
	}
	return &Record{Format: Board, Start: pos}, true, nil
}

func isSquareCount(n int) bool {
	for s := game.MinSize; s <= game.MaxSize; s += 2 {
		if s*s == n {
			return true
		}
	}
	return false
}

func cellOf(b byte) (game.Color, bool) {
	switch b {
	case 'x', '*':
		return game.Black, true
	case 'o':
		return game.White, true
	case '-', '.':
		return game.Empty, true
	}
	return game.Empty, false
}

func sideOf(b byte) (game.Color, bool) {
	switch b {
	case 'x', '*':
		return game.Black, true
	case 'o':
		return game.White, true
	}
	return game.Empty, false
}

// ErrorOf returns the Error inside err, if any.
func ErrorOf(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
