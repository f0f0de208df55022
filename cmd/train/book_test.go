package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"othello-bot/engine/book"
	"othello-bot/game"
)

func buildBook(t *testing.T, dir, out string, positions string, more ...string) string {
	t.Helper()
	var log bytes.Buffer
	args := append([]string{"book", "-data", dir, "-out", out, "-positions", positions, "-depth", "4", "-window", "2"}, more...)
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatalf("book: %v\n%s", err, log.String())
	}
	return log.String()
}

// The book a run writes holds the positions searched, values minimaxed
// over its lines; a run stopped part way (even mid-line) and started again
// writes the same bytes as one that ran straight through.
func TestBookBuildResumesAndMinimaxes(t *testing.T) {
	straight, resumed := t.TempDir(), t.TempDir()
	a, b := filepath.Join(straight, "book.bin"), filepath.Join(resumed, "book.bin")
	log := buildBook(t, straight, a, "30")
	if !strings.Contains(log, "30 positions") || !strings.Contains(log, "leaves the book by move 10") {
		t.Errorf("the report does not say what it built:\n%s", log)
	}
	buildBook(t, resumed, b, "12")
	f, err := os.OpenFile(filepath.Join(resumed, "book.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("8100000000 10") // a line cut by a kill
	f.Close()
	buildBook(t, resumed, b, "30")
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("the resumed run wrote another book")
	}
	bk, err := book.Decode(da)
	if err != nil || bk.Len() != 30 {
		t.Fatalf("%v, %d positions", err, bk.Len())
	}

	// Minimax: at the start, each move is worth minus the best of the
	// position it leads to, when that is in the book.
	start, _ := game.NewPosition(8)
	p, o, _ := start.Bitboards()
	first, ok := bk.Lookup(p, o)
	if !ok {
		t.Fatal("the start is not in the book")
	}
	checked := 0
	for _, m := range first {
		sq := game.Square{Col: m.Square % 8, Row: m.Square / 8}
		next, err := start.Play(sq)
		if err != nil {
			t.Fatal(err)
		}
		nb, nw, _ := next.Bitboards()
		replies, ok := bk.Lookup(nw, nb) // White to move
		if !ok {
			continue
		}
		if m.Value != -replies[0].Value {
			t.Errorf("%s: worth %d, but the best reply is worth %d", sq, m.Value, replies[0].Value)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no first move leads to a book position")
	}
}

// Searchers looking ahead change nothing: the book of three searchers is
// the book of one, and its log holds every position the book does.
func TestBookOfSeveralSearchers(t *testing.T) {
	one, three := t.TempDir(), t.TempDir()
	a, b := filepath.Join(one, "book.bin"), filepath.Join(three, "book.bin")
	buildBook(t, one, a, "40")
	buildBook(t, three, b, "40", "-workers", "3")
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("three searchers wrote another book")
	}
	searched, _, err := readBook(filepath.Join(three, "book.txt"))
	if err != nil || len(searched) < 40 {
		t.Fatalf("the log of three searchers: %d positions (%v)", len(searched), err)
	}
}

// A log scored another way (before its header, or under another) is
// refused, not mixed with this engine's values.
func TestBookLogOfAnotherScoring(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "book.txt"), []byte("810000000 1008000000 0.164 19:-224 26:-224 37:-224 44:-224\n"), 0o644)
	var log bytes.Buffer
	err := run(context.Background(), []string{"book", "-data", dir, "-out", filepath.Join(dir, "b.bin"), "-positions", "3", "-depth", "2"}, &log)
	if err == nil || !strings.Contains(err.Error(), "scored another way") {
		t.Fatalf("an old log was read: %v", err)
	}
}

func TestBookBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"book"}, {"book", "-data", t.TempDir()}, {"book", "-data", t.TempDir(), "-out", "x", "-depth", "0"},
		{"book", "-data", t.TempDir(), "-out", "x", "-ply-cost", "0"},
	} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// follow reports how far the top level follows a book: out of it at once with
// a book of nothing, further with a built one, and never beyond its lines.
func TestFollowBook(t *testing.T) {
	dir := t.TempDir()
	built := filepath.Join(dir, "book.bin")
	buildBook(t, dir, built, "30")
	empty := filepath.Join(dir, "empty.bin")
	data, _ := book.New().MarshalBinary()
	if err := os.WriteFile(empty, data, 0o644); err != nil {
		t.Fatal(err)
	}
	follow := func(path string) string {
		var log bytes.Buffer
		if err := run(context.Background(), []string{"follow", "-book", path, "-games", "8"}, &log); err != nil {
			t.Fatalf("follow: %v\n%s", err, log.String())
		}
		return log.String()
	}
	if got := follow(empty); !strings.Contains(got, "the first move out of the book is move 1 at the median (mean 1.0, from 1 to 1); 1 different book lines") {
		t.Errorf("an empty book:\n%s", got)
	}
	got := follow(built)
	if strings.Contains(got, "is move 1 at the median") || !strings.Contains(got, "8 games of the top level") {
		t.Errorf("a book of 30 positions:\n%s", got)
	}
}
