package lineio

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestOverlongLineIsSkippedAndReadingGoesOn(t *testing.T) {
	in := "first\r\n" + strings.Repeat("x", 10<<20) + "\nthird\n" + strings.Repeat("y", 100) + "\nlast"
	r := New(strings.NewReader(in), 100)
	var got []string
	for {
		line, err := r.Next()
		var tl *TooLongError
		switch {
		case errors.Is(err, io.EOF):
			want := []string{"first", "<too long>", "third", strings.Repeat("y", 100), "last"}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("got %q", got)
			}
			return
		case errors.As(err, &tl):
			got = append(got, "<too long>")
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, line)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add("a\nbb\n\nccc", 2)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = max%64 + 1
		if max < 1 {
			max = 1
		}
		r := New(strings.NewReader(in), max)
		lines := 0
		for {
			line, err := r.Next()
			var tl *TooLongError
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil && !errors.As(err, &tl) {
				t.Fatal(err)
			}
			if len(line) > max || strings.Contains(line, "\n") {
				t.Fatalf("line %q over %d", line, max)
			}
			if lines++; lines > len(in)+1 {
				t.Fatal("more lines than input")
			}
		}
	})
}
