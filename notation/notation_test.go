package notation

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"othello-bot/game"
	"othello-bot/ggf"
)

// randomGame plays random legal moves to the end; with passes, when
// wantPass, so the readers meet a side that had to pass.
func randomGame(t testing.TB, size int, seed uint64, wantPass bool) *game.Game {
	t.Helper()
	for s := seed; s < seed+10000; s++ {
		rng := rand.New(rand.NewPCG(s, 1))
		start, err := game.NewPosition(size)
		if err != nil {
			t.Fatal(err)
		}
		g := game.NewGame(start)
		for !g.Over() {
			moves := g.Position().LegalMoves()
			if _, err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		if !wantPass || slices.ContainsFunc(g.Plies(), func(p game.Ply) bool { return p.Square.IsPass() }) {
			return g
		}
	}
	t.Fatal("no game with a pass")
	return nil
}

func samePlies(t *testing.T, what string, got *Record, want *game.Game) {
	t.Helper()
	if !got.Start.Equal(want.Start()) {
		t.Errorf("%s: start %v, want %v", what, got.Start.Board64(), want.Start().Board64())
	}
	if !slices.Equal(got.Plies, want.Plies()) {
		t.Errorf("%s: plies\n%v\nwant\n%v", what, got.Plies, want.Plies())
	}
}

// playOK writes a game the way PlayOK's PGN does: tags, then numbered
// moves wrapped near 80 columns, "--" for a pass, the score last.
func playOK(g *game.Game, black, white, variant string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event \"?\"]\n[Site \"PlayOK\"]\n[Date \"2026.11.26\"]\n[Round \"-\"]\n[Black %q]\n[White %q]\n", black, white)
	bl, wh := g.Position().Count()
	fmt.Fprintf(&b, "[Result \"%d-%d\"]\n[Time \"20:13:30\"]\n", bl, wh)
	if variant != "" {
		fmt.Fprintf(&b, "[Variant %q]\n", variant)
	}
	b.WriteString("[TimeControl \"120\"]\n[BlackElo \"1224\"]\n[WhiteElo \"1314\"]\n\n")
	line := ""
	for i, p := range g.Plies() {
		w := p.Square.String()
		if p.Square.IsPass() {
			w = "--"
		}
		if i%2 == 0 {
			w = fmt.Sprintf("%d. %s", i/2+1, w)
		}
		if len(line)+len(w)+1 > 80 {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	fmt.Fprintf(&b, "%s %d-%d\n", line, bl, wh)
	return b.String()
}

func TestTranscriptForms(t *testing.T) {
	g := randomGame(t, 8, 1, true) // a pass, left out of transcripts
	moves := g.Moves()
	var spaced, numbered, commas, oq []string
	for i, m := range moves {
		if m.IsPass() {
			oq = append(oq, "--")
			continue
		}
		spaced = append(spaced, strings.ToUpper(m.String()))
		commas = append(commas, m.String())
		oq = append(oq, m.String())
		if len(numbered)%3 == 0 {
			numbered = append(numbered, fmt.Sprintf("%d.", i/2+1))
		}
		numbered = append(numbered, m.String())
	}
	for name, text := range map[string]string{
		"run together":        g.Transcript(),
		"spaced, upper case":  strings.Join(spaced, " "),
		"commas":              strings.Join(commas, ", "),
		"move numbers":        strings.Join(numbered, " "),
		"Othello Quest, -- ":  strings.Join(oq, ""),
		"lines and a result":  g.Transcript()[:20] + "\n" + g.Transcript()[20:] + "\n33-31",
		"pass written as pa ": strings.ReplaceAll(strings.Join(oq, " "), "--", "PA"),
	} {
		r, err := Read(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if r.Format != Transcript {
			t.Errorf("%s: format %s", name, r.Format)
		}
		samePlies(t, name, r, g)
	}
}

func TestTranscriptSizes(t *testing.T) {
	for _, size := range []int{4, 6, 8, 10, 16, 26} {
		g := randomGame(t, size, uint64(size), false)
		r, err := Read(g.Transcript())
		if err != nil {
			t.Fatalf("%dx%d: %v", size, size, err)
		}
		if r.Start.Size() != size {
			// A small board's game whose squares also fit a larger board
			// must not replay there: the starts differ.
			t.Fatalf("%dx%d game read as %dx%d", size, size, r.Start.Size(), r.Start.Size())
		}
		samePlies(t, fmt.Sprintf("%dx%d", size, size), r, g)
	}
}

func TestPlayOKRecords(t *testing.T) {
	g := randomGame(t, 8, 7, true)
	text := playOK(g, "alcupone", "lk16", "")
	for name, text := range map[string]string{
		"as PlayOK writes it": text,
		// Pasted into a chat's one-line box, the line breaks are gone.
		"on one line":  strings.Join(strings.Fields(text), " "),
		"with comment": strings.Replace(text, "1. ", "{a fine start} 1. ", 1),
	} {
		r, err := Read(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if r.Format != PGN || r.Black != "alcupone" || r.White != "lk16" {
			t.Errorf("%s: %s, black %q, white %q", name, r.Format, r.Black, r.White)
		}
		samePlies(t, name, r, g)
	}
	// An XOT game's record holds every move from the standard start.
	xot := randomGame(t, 8, 99, false)
	r, err := Read(playOK(xot, "a", "b", "xot"))
	if err != nil {
		t.Fatal(err)
	}
	samePlies(t, "xot", r, xot)
	// A quote in a name, escaped as PGN does.
	r, err = Read(`[Black "the \"best\""] [White "w"] ` + g.Transcript())
	if err != nil || r.Black != `the "best"` {
		t.Fatalf("escaped name: %v %+v", err, r)
	}
}

func TestGGFRecords(t *testing.T) {
	g := randomGame(t, 8, 3, true)
	text := ggf.Format(&ggf.Game{Start: g.Start(), Plies: g.Plies(), Black: "ann", White: "bob", Place: "othello-bot"})
	r, err := Read("here it is: " + text)
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != GGF || r.Black != "ann" || r.White != "bob" {
		t.Errorf("%s %q %q", r.Format, r.Black, r.White)
	}
	samePlies(t, "ggf", r, g)
	_, err = Read(strings.Replace(text, "GM[Othello]", "GM[Chess]", 1))
	if e, ok := ErrorOf(err); !ok || e.Kind != BadGGF {
		t.Errorf("a chess GGF: %v", err)
	}
}

func TestBoards(t *testing.T) {
	start, _ := game.NewPosition(8)
	after, err := start.Play(game.Square{Col: 3, Row: 2}) // d3
	if err != nil {
		t.Fatal(err)
	}
	b64 := after.Board64()
	var rows []string
	for i := 0; i < 64; i += 8 {
		rows = append(rows, b64[i:i+8])
	}
	for name, text := range map[string]string{
		"64 and a side":         b64 + " O",
		"Edax's obf":            b64 + " O;",
		"side run on":           b64 + "O",
		"rows on lines":         strings.Join(rows, "\n") + "\nwhite to move",
		"dots and stars, white": strings.NewReplacer("-", ".", "X", "*").Replace(b64) + " W",
	} {
		r, err := Read(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Format != Board || !r.Start.Equal(after) || len(r.Plies) != 0 {
			t.Errorf("%s: %s %v", name, r.Format, r.Start.Board64())
		}
	}
	small, _ := game.NewPosition(4)
	cells := ""
	for _, c := range small.Cells() {
		cells += map[game.Color]string{game.Empty: "-", game.Black: "X", game.White: "O"}[c]
	}
	if r, err := Read(cells + " X"); err != nil || !r.Start.Equal(small) {
		t.Errorf("4x4: %v", err)
	}
	for name, text := range map[string]string{
		"63 cells":    b64[1:] + " X",
		"no side":     b64,
		"66 cells":    b64 + "-- O",
		"side twice?": b64 + " X O",
	} {
		_, err := Read(text)
		if e, ok := ErrorOf(err); !ok || e.Kind != BadBoard {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
		move int
		word string
	}{
		{"", Empty, 0, ""},
		{"   \n ", Empty, 0, ""},
		{strings.Repeat("f5", MaxLen), TooLong, 0, ""},
		{"hello there", Unknown, 0, ""},
		{"1. e4 e5 2. Nf3 Nc6", NotSquare, 3, "nf3"}, // chess
		{"1. e4 e5 2. d4", Illegal, 1, "e4"},         // e4 is taken at the start
		{"f5 d6 c3 Nf3", NotSquare, 4, "nf3"},
		{"f5d6c3c3", Illegal, 4, "c3"},
		{"f5d6z99", OffBoard, 3, "z99"},
		{"f5 d6 @", NotSquare, 3, "@"},
	} {
		_, err := Read(c.text)
		e, ok := ErrorOf(err)
		if !ok {
			t.Errorf("%.20q: %v, want a %s", c.text, err, c.kind)
			continue
		}
		if e.Kind != c.kind || e.Move != c.move || e.Text != c.word {
			t.Errorf("%.20q: %s at %d (%q), want %s at %d (%q)", c.text, e.Kind, e.Move, e.Text, c.kind, c.move, c.word)
		}
		if !errors.Is(err, err) || e.Error() == "" {
			t.Error("an Error says nothing")
		}
	}
}

// FuzzRead: no text makes Read panic, and whatever it reads is a game the
// rules allow, which reads back the same from its transcript and its GGF.
func FuzzRead(f *testing.F) {
	g := randomGame(f, 8, 1, true)
	for _, s := range []string{
		g.Transcript(), playOK(g, "a", "b", ""), ggf.Format(&ggf.Game{Start: g.Start(), Plies: g.Plies()}),
		g.Start().Board64() + " X", "1. f5 -- 2. d6", "f5d6c3d3c4f4f6f3e6e7", "[Black \"x\"] f5", "--", "*", "1/2-1/2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Read(text)
		if err != nil {
			if _, ok := ErrorOf(err); !ok {
				t.Fatalf("not an Error: %v", err)
			}
			return
		}
		replayed, err := game.ReplayPlies(r.Start, r.Plies)
		if err != nil {
			t.Fatalf("read a game the rules refuse: %v", err)
		}
		back, err := Read(ggf.Format(&ggf.Game{Start: r.Start, Plies: r.Plies}))
		if err != nil {
			t.Fatalf("its GGF does not read back: %v", err)
		}
		// Compared as played out: a pass the rules force (even before the
		// first move, from a board whose side to move has none) is
		// written in GGF and only implied in the record read.
		backPlayed, err := game.ReplayPlies(back.Start, back.Plies)
		if err != nil || !back.Start.Equal(r.Start) || !slices.Equal(backPlayed.Plies(), replayed.Plies()) {
			t.Fatalf("its GGF reads back as another game: %v", err)
		}
		if r.Format == Transcript && len(r.Plies) > 0 {
			again, err := Read(replayed.Transcript())
			if err != nil || !again.Start.Equal(r.Start) || !slices.Equal(again.Plies, r.Plies) {
				t.Fatalf("its transcript %q reads back as another game: %v", replayed.Transcript(), err)
			}
		}
	})
}

// A typo past the 8x8 edge (x9) is that move's fault, not a 24x24 board's
// whose first move cannot be played; a game really on a larger board is
// still read as one.
func TestTypoPastTheEdge(t *testing.T) {
	_, err := Read("f5d6c3x9")
	if e, ok := ErrorOf(err); !ok || e.Kind != NotSquare || e.Move != 4 || e.Text != "x9" {
		t.Fatalf("f5d6c3x9: %v", err)
	}
	// A game that is on a larger board reads as one.
	ten, _ := game.NewPosition(10)
	g := game.NewGame(ten)
	var moves []string
	for far := false; !far; { // out to the edge, past where an 8x8 board ends
		legal := g.Position().LegalMoves()
		sq := slices.MaxFunc(legal, func(a, b game.Square) int { return max(a.Col, a.Row) - max(b.Col, b.Row) })
		g.Play(sq)
		moves = append(moves, sq.String())
		far = max(sq.Col, sq.Row) >= 8
	}
	if r, err := Read(strings.Join(moves, " ")); err != nil || r.Start.Size() != 10 {
		t.Fatalf("a 10x10 game %v: %v", moves, err)
	}
}
