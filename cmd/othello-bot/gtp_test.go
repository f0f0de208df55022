package main

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// `gtp --nodes N` plays level 10 on a work budget: with one seed (the
// book's choices), the same game twice over, whatever else the machine
// does meanwhile (the second run beside a busy loop on every core).
func TestGTPOnAWorkBudget(t *testing.T) {
	// 32 plies: past the opening book, into the searched midgame.
	script := "clear_board\n" + strings.Repeat("genmove b\ngenmove w\n", 16) + "quit\n"
	play := func() string {
		t.Helper()
		var out bytes.Buffer
		if code := run([]string{"gtp", "--nodes", "50000", "--seed", "5"}, strings.NewReader(script), &out, io.Discard); code != 0 {
			t.Fatalf("gtp exited %d:\n%s", code, out.String())
		}
		return out.String()
	}
	first := play()
	stop := busyCores()
	second := play()
	stop()
	if first != second || strings.Count(first, "= ") < 33 {
		t.Fatalf("two games on one budget differ:\n%s\n---\n%s", first, second)
	}
	var out bytes.Buffer
	if code := run([]string{"gtp", "--depth", "-1"}, strings.NewReader(""), &out, &out); code != 2 {
		t.Fatalf("--depth -1: exit %d (%s)", code, out.String())
	}
}

// busyCores keeps every core busy until the returned func is called.
func busyCores() (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	n := runtime.GOMAXPROCS(0)
	for range n {
		go func() {
			for x := 0; ; x++ {
				select {
				case <-done:
					finished <- struct{}{}
					return
				default:
				}
			}
		}()
	}
	return func() {
		close(done)
		for range n {
			<-finished
		}
	}
}
