package ggf

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"othello-bot/game"
)

// A record as GGS writes one: dates, ratings and times, evaluations and
// times after the moves, a lower-case square, the board given in BO.
const ggsRecord = `(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alice]PW[bob]RB[2197.72]RW[2574.97]
TI[05:00//02:00]TY[8]RE[-14.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
B[f5//0.01]W[d6/-2.00/0.02]B[C3]W[d3/1.5]B[c4]W[f4]B[f6]W[f3]B[e6]W[e7];)`

func TestParseAGGSRecord(t *testing.T) {
	g, err := Parse(ggsRecord)
	if err != nil {
		t.Fatal(err)
	}
	if g.Black != "alice" || g.White != "bob" || g.Result != "-14.000" || g.Place != "GGS/os" || g.Date != "2003.12.15_13:24:03.MST" {
		t.Fatalf("properties: %+v", g)
	}
	start, _ := game.NewPosition(8)
	if !slices.Equal(g.Start.Cells(), start.Cells()) || g.Start.ToMove() != game.Black {
		t.Fatal("BO is not the standard start")
	}
	if got := game.FormatTranscript(game.MovesOf(g.Plies), 8); got != "f5d6c3d3c4f4f6f3e6e7" {
		t.Fatalf("moves %s", got)
	}
}

// Every game the bot can play goes out and comes back the same: random
// games on boards of several sizes (passes included), from the standard
// start and from a position a few moves in.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{4, 6, 8, 10, 26} {
		for k := range 3 {
			start, _ := game.NewPosition(size)
			pre := game.NewGame(start)
			for range k * 2 { // a later start: BO carries it
				if m := pre.Position().LegalMoves(); len(m) > 0 {
					pre.Play(m[rng.IntN(len(m))])
				}
			}
			g := game.NewGame(pre.Position())
			for i := 0; !g.Over() && i < 200; i++ {
				m := g.Position().LegalMoves()
				g.Play(m[rng.IntN(len(m))])
			}
			in := &Game{Start: g.Start(), Plies: g.Plies(), Black: "al]ice\\", White: "bob", Result: "+2.000"}
			out, err := Parse(Format(in))
			if err != nil {
				t.Fatalf("%dx%d: %v\n%s", size, size, err, Format(in))
			}
			if !slices.Equal(out.Plies, in.Plies) || !slices.Equal(out.Start.Cells(), in.Start.Cells()) ||
				out.Start.ToMove() != in.Start.ToMove() || out.Black != in.Black || out.Result != in.Result {
				t.Fatalf("%dx%d: %s came back as %+v", size, size, Format(in), out)
			}
		}
	}
}

// What is not a game, or not a legal one, is refused with the reason.
func TestRefusals(t *testing.T) {
	for _, c := range []struct{ record, want string }{
		{"f5d6c3", "not a GGF record"},
		{"(;GM[Othello]B[f5]", "not a GGF record"},
		{"(;GM[Chess]B[e4];)", "not Othello"},
		{"(;GM[Othello]B[f5]B[d6];)", "turn"},
		{"(;GM[Othello]B[a1];)", "ply 1"},
		{"(;GM[Othello]B[z9];)", "move 1"},
		{"(;GM[Othello]B[PA];)", "passed"},
		{"(;GM[Othello]BO[8 ---- *]B[f5];)", "cells"},
		{"(;GM[Othello]BO[7 " + strings.Repeat("-", 49) + " *];)", "board size"},
		{"(;GM[Othello]PB[unclosed;)", "never closed"},
		{"(;GM[Othello]pb[x];)", "expected a property"},
	} {
		_, err := Parse(c.record)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.record, err, c.want)
		}
	}
	if _, err := Parse("x"); !errors.Is(err, ErrNotGGF) {
		t.Errorf("plain text: %v", err)
	}
	if _, err := Parse("(;" + strings.Repeat(" ", MaxLen) + ";)"); err == nil {
		t.Error("a record over the limit was read")
	}
}

// No text makes Parse panic, and whatever it reads it writes back to the
// same game.
func FuzzParse(f *testing.F) {
	f.Add(ggsRecord)
	f.Add("(;GM[Othello]TY[6]B[c2]W[b2];)")
	f.Add("(;GM[Othello]BO[4 ---- -O*- -*O- ---- O]W[a3];)")
	f.Add(`(;PB[a\]b]PW[\\];)`)
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(Format(g))
		if err != nil {
			t.Fatalf("%q parsed, but its own record does not: %v\n%s", s, err, Format(g))
		}
		if !slices.Equal(again.Plies, g.Plies) || !slices.Equal(again.Start.Cells(), g.Start.Cells()) || again.Black != g.Black ||
			again.White != g.White || again.Result != g.Result {
			t.Fatalf("%q came back different:\n%+v\n%+v", s, g, again)
		}
	})
}

// TY[-8] is no board size (it was read as 8x8); TY[8r] is 8x8.
func TestTypeMustStartWithASize(t *testing.T) {
	if _, err := Parse("(;GM[Othello]TY[-8]B[f5];)"); err == nil || !strings.Contains(err.Error(), "TY[-8] is not a board size") {
		t.Fatalf("TY[-8]: %v", err)
	}
	if g, err := Parse("(;GM[Othello]TY[8r]B[f5];)"); err != nil || g.Start.Size() != 8 {
		t.Fatalf("TY[8r]: %v", err)
	}
}
