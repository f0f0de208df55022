package termgame

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"othello-bot/catalog"
	"othello-bot/game"
)

// The questions as DESIGN.md gives them: the classic game's words.
const (
	askSize   = "How wide should the board be? (even numbers between 4 and 26, inclusive)"
	askLetter = "Pick your letter: X (black) or O (white)"
	askMove   = "What's your move?"
	askEnter  = "Press <ENTER> to show computer's move..."
)

// firstMove is a predictable opponent: the first legal move, row by row.
var firstMove = OpponentFunc(func(_ context.Context, p game.Position) (game.Square, error) {
	return p.LegalMoves()[0], nil
})

func play(t *testing.T, input string, opts Options) (string, error) {
	t.Helper()
	if opts.Opponent == nil {
		opts.Opponent = firstMove
	}
	var out strings.Builder
	err := Run(context.Background(), strings.NewReader(input), &out, opts)
	return out.String(), err
}

func TestAsksUntilValid(t *testing.T) {
	out, err := play(t, "blah\n3\n-12\n4\nx\nX\n", Options{})
	if !errors.Is(err, ErrNoInput) {
		t.Fatalf("err = %v", err)
	}
	if n := strings.Count(out, askSize+"\n"); n != 4 {
		t.Errorf("size asked %d times, want 4", n)
	}
	if n := strings.Count(out, askLetter+"\n"); n != 2 {
		t.Errorf("letter asked %d times, want 2", n)
	}
	want := "Player is X\n" + `     A   B   C   D
   +---+---+---+---+
 1 |   |   |   |   |
   +---+---+---+---+
 2 |   | O | X |   |
   +---+---+---+---+
 3 |   | X | O |   |
   +---+---+---+---+
 4 |   |   |   |   |
   +---+---+---+---+
` + askMove + "\nNo more input; the game is left unfinished.\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("output ends:\n%s\nwant:\n%s", out, want)
	}
}

// A whole game where both the player (through its input) and the computer
// play the first legal move; the transcript of the output must agree with
// the same game played directly on the rules.
func TestWholeGame(t *testing.T) {
	for _, tc := range []struct {
		size   int
		letter string
	}{{4, "X"}, {6, "O"}, {8, "X"}} {
		t.Run(fmt.Sprintf("%dx%d-%s", tc.size, tc.size, tc.letter), func(t *testing.T) {
			player := game.Black
			if tc.letter == "O" {
				player = game.White
			}
			start, _ := game.NewPosition(tc.size)
			g := game.NewGame(start)
			input := fmt.Sprintf("%d\n%s\n", tc.size, tc.letter)
			for !g.Over() {
				m := g.Position().LegalMoves()[0]
				if g.Position().ToMove() == player {
					input += strings.ToUpper(m.String()) + "\n"
				} else {
					input += "\n"
				}
				if _, err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			out, err := play(t, input, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			b, w := g.Position().Count()
			if !strings.Contains(out, fmt.Sprintf("Game over. Final score: X %d, O %d.\n", b, w)) {
				t.Errorf("wrong result, want X %d O %d:\n%s", b, w, out)
			}
			if !strings.HasSuffix(out, g.Position().ASCII()+fmt.Sprintf("Score: X %d, O %d\nGame over. Final score: X %d, O %d.\n", b, w, b, w)+verdict(g.Position().Winner(), player)+"\n") {
				t.Errorf("final board or verdict wrong:\n%s", out[max(0, len(out)-800):])
			}
			if n := strings.Count(out, askEnter); n != countTurns(g, player.Opponent()) {
				t.Errorf("computer turns prompted %d times, want %d", n, countTurns(g, player.Opponent()))
			}
		})
	}
}

func verdict(winner, player game.Color) string {
	switch winner {
	case game.Empty:
		return "It's a draw."
	case player:
		return "You win!"
	}
	return "The computer wins."
}

func countTurns(g *game.Game, side game.Color) int {
	n := 0
	for _, p := range g.Plies() {
		if p.Color == side && !p.Square.IsPass() {
			n++
		}
	}
	return n
}

func TestBadMovesExplained(t *testing.T) {
	out, err := play(t, "8\nX\ne4\nc3\nd9\n3d\nd3\n", Options{})
	if !errors.Is(err, ErrNoInput) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		"e4 is taken. Legal moves: d3, c4, f5, e6.",
		"c3 flips nothing. Legal moves: d3, c4, f5, e6.",
		"d9 is off the 8x8 board. Legal moves",
		"3d is not a square (use a letter then a number, like d3). Legal moves",
		"Score: X 4, O 1\n" + askEnter,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPresetScriptedMoves(t *testing.T) {
	board := make([]string, 16)
	for i := range board {
		board[i] = " "
	}
	board[5], board[10] = "O", "O" // b2, c3
	board[6], board[9] = "X", "X"  // c2, b3
	preset, err := ParsePreset([]byte(fmt.Sprintf(`{"boardPreset": {"playerLetter": "X", "board": %s},
		"scriptedMoves": {"player": ["a1", "A2"], "computer": ["c2", "A1"]}}`, jsonList(board))))
	if err != nil {
		t.Fatal(err)
	}
	out, err := play(t, "\n", Options{Preset: preset})
	if !errors.Is(err, ErrNoInput) {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Scripted move a1 skipped: a1 flips nothing.",
		"Player plays a2 (scripted).",
		"Scripted move c2 skipped: c2 is taken.",
		"Computer plays a1 (scripted).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The player's script is used up: the next player turn asks.
	if !strings.Contains(out, askMove) {
		t.Errorf("never asked once the script ran out:\n%s", out)
	}
}

func jsonList(cells []string) string {
	q := make([]string, len(cells))
	for i, c := range cells {
		q[i] = `"` + c + `"`
	}
	return "[" + strings.Join(q, ",") + "]"
}

func TestPresetErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"boardPreset": {"playerLetter": "x", "board": []}}`:        `boardPreset.playerLetter must be "X" or "O", not "x"`,
		`{"boardPreset": {"playerLetter": "X", "board": [" "]}}`:     "boardPreset.board: a board of 1 cells is not square",
		`{"boardPreset": {"playerLetter": "X", "board": []}, "x":1}`: `unknown field "x"`,
		`{"boardPreset": `: "not a valid preset",
	} {
		_, err := ParsePreset([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func FuzzParsePreset(f *testing.F) {
	f.Add([]byte(`{"boardPreset": {"playerLetter": "X", "board": [" "," "," "," "," ","O","X"," "," ","X","O"," "," "," "," "," "]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePreset(data)
		if err != nil {
			return
		}
		// A preset that parses must give a game that runs to the end or to
		// the end of input without error.
		_, err = play(t, "", Options{Preset: p})
		if err != nil && !errors.Is(err, ErrNoInput) {
			t.Fatal(err)
		}
	})
}

// A 10 MB answer is refused with a reason and the question asked again.
func TestLongLineIsRefusedAndAskedAgain(t *testing.T) {
	out, err := play(t, strings.Repeat("4", 10<<20)+"\n4\nX\n", Options{})
	if !errors.Is(err, ErrNoInput) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(out, "Sorry, that line is longer than") || strings.Count(out, askSize+"\n") != 2 || !strings.Contains(out, "Player is X") {
		t.Fatalf("output:\n%.500s", out)
	}
}

// A Japanese player reads the whole game in Japanese: questions, refusals,
// passes and the result, with the board as it always is.
func TestJapanesePlayer(t *testing.T) {
	ja := catalog.For(catalog.Japanese)
	out, err := play(t, "9\n4\nx\nX\nzz\nb1\n"+strings.Repeat("a1\nb1\nc1\nd1\na2\nb2\nc2\nd2\na3\nb3\nc3\nd3\na4\nb4\nc4\nd4\n\n", 4), Options{Words: ja})
	if err != nil && !errors.Is(err, ErrNoInput) {
		t.Fatal(err)
	}
	for _, want := range []string{ja.T("term.ask_size"), ja.T("term.bad_size", "Size", 9), ja.T("term.bad_letter"), ja.T("term.player_is", "Letter", "X"),
		ja.T("move.not_square", "Input", "zz"), ja.T("term.game_over", "Black", "", "White", "")[:len("終局")]} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "+---") || strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "A ") {
			continue // the board
		}
		if english.MatchString(strings.NewReplacer("<ENTER>", "", "zz", "").Replace(line)) { // a key's name, and what was typed
			t.Errorf("English in a Japanese player's line: %q", line)
		}
	}
}

// english is two Latin letters in a row: a word, not a square or X/O.
var english = regexp.MustCompile(`[A-Za-z]{2,}`)
