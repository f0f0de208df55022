package local_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"othello-bot/engine"
	"othello-bot/game"
	"othello-bot/opening"
)

// The opening trainer: the Tiger played as Black to a wrong move, where it
// says which move left the line; then as White to the line's end.
func TestTrainOpening(t *testing.T) {
	e := open(t, t.TempDir())
	var tiger opening.Opening
	for _, o := range opening.Standard().All() {
		if o.Key == "tiger" {
			tiger = o
		}
	}
	if len(tiger.Moves) < 5 {
		t.Fatalf("no Tiger in the book: %+v", tiger)
	}
	out := e.say("alice #lobby: /train opening name:Tiger")
	expect(t, out, "Opening trainer · Tiger", "Play the Tiger as black from memory")
	out = e.say("alice #lobby: select " + tiger.Moves[0].String())
	expect(t, out, "✅ "+tiger.Moves[0].String()+": the line. I answer "+tiger.Moves[1].String())
	// A legal move that is not the line's next.
	pos, _ := game.Replay(start8(), tiger.Moves[:2])
	var wrong game.Square
	for _, m := range pos.Position().LegalMoves() {
		if m != tiger.Moves[2] {
			wrong = m
			break
		}
	}
	out = e.say("alice #lobby: select " + wrong.String())
	expect(t, out, "You left the Tiger at your move 2: the line plays "+tiger.Moves[2].String()+", you played "+wrong.String(),
		"The Tiger: "+strings.Join(squares(tiger.Moves), " "))

	// As White: the bot opens, alice answers every even ply to the end.
	out = e.say("alice #lobby: /train opening name:tiger color:white")
	expect(t, out, "Play the Tiger as white")
	for ply := 1; ply < len(tiger.Moves); ply += 2 {
		out = e.say("alice #lobby: select " + tiger.Moves[ply].String())
	}
	expect(t, out, "You played the Tiger to its end ("+strconv.Itoa(len(tiger.Moves))+" moves")
	expect(t, e.say("alice #lobby: /train opening name:Nonsense"), "I know no opening called Nonsense")
}

func start8() game.Position {
	p, _ := game.NewPosition(8)
	return p
}

func squares(ms []game.Square) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

var endgameBoard = regexp.MustCompile(`You are (black|white), (\d+) empty squares left; perfect play from the start of this drill ends (\S+) for you`)

// The endgame trainer: 6 empty squares played out by always the worst
// move; every move graded by the solver's count, and the end says how many
// discs were lost in all — the sum of the moves' losses.
func TestTrainEndgame(t *testing.T) {
	e := open(t, t.TempDir())
	eng := engine.New(engine.Options{Searches: 1})
	out := e.say("alice #lobby: /train endgame empties:6")
	m := endgameBoard.FindStringSubmatch(out)
	if m == nil || m[2] != "6" {
		t.Fatalf("no endgame shown:\n%s", out)
	}
	lostSum := 0
	for range 6 {
		if strings.Contains(out, "Final score") {
			break
		}
		p := e.endgamePosition(out)
		scores, err := eng.ScoreMoves(context.Background(), p, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		worst := scores[len(scores)-1]
		lost := (scores[0].Eval.Cents - worst.Eval.Cents) / 100
		lostSum += lost
		out = e.say("alice #lobby: select " + worst.Move.String())
		if lost == 0 {
			expect(t, out, worst.Move.String()+": perfect.")
		} else {
			expect(t, out, worst.Move.String()+" lost "+strconv.Itoa(lost)+" discs")
		}
	}
	expect(t, out, "Final score", strconv.Itoa(lostSum)+" discs lost in all")
	expect(t, e.say("alice #lobby: /train endgame empties:30"), "Pick from 4 to 14 empty squares.")
}

// endgamePosition reads the drill's position from the last board shown
// (the emoji rows) and whose move it says it is.
func (e *env) endgamePosition(out string) game.Position {
	e.t.Helper()
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		r := []rune(strings.TrimSpace(l))
		if len(r) == 11 && r[1] == '\uFE0F' && r[2] == '\u20E3' {
			rows = append(rows, string(r[3:]))
		}
	}
	if len(rows) < 8 {
		e.t.Fatalf("no board in:\n%s", out)
	}
	var cells []game.Color
	for _, row := range rows[len(rows)-8:] {
		for _, c := range row {
			switch c {
			case '⚫', '🖤':
				cells = append(cells, game.Black)
			case '⚪', '🤍':
				cells = append(cells, game.White)
			default:
				cells = append(cells, game.Empty)
			}
		}
	}
	toMove := game.Black
	if m := endgameBoard.FindAllStringSubmatch(out, -1); m != nil && m[len(m)-1][1] == "white" {
		toMove = game.White
	}
	p, err := game.FromCells(8, cells, toMove)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}
