package game

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// publishedPerft reads testdata/perft-8x8.txt: depth and leaf count per line.
func publishedPerft(t testing.TB) map[int]uint64 {
	t.Helper()
	f, err := os.Open("testdata/perft-8x8.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var d int
		var n uint64
		if _, err := fmt.Sscan(line, &d, &n); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		out[d] = n
	}
	if len(out) < 9 {
		t.Fatalf("perft table has %d rows", len(out))
	}
	return out
}

func TestPerftPublished8x8(t *testing.T) {
	want := publishedPerft(t)
	start, _ := NewPosition(8)
	for d := 1; d <= 9; d++ {
		if got := Perft(start, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// The bitboards must agree with the plain rules on the grid.
func TestPerftBitboardMatchesGrid(t *testing.T) {
	depths := map[int]int{4: 14, 6: 7, 8: 6}
	if testing.Short() {
		depths = map[int]int{4: 10, 6: 5, 8: 4}
	}
	for _, size := range []int{4, 6, 8} {
		start, _ := NewPosition(size)
		grid := start.toGrid()
		for d := 1; d <= depths[size]; d++ {
			b, g := Perft(start, d), Perft(grid, d)
			if b != g {
				t.Errorf("size %d depth %d: bitboard %d, grid %d", size, d, b, g)
			}
		}
	}
}

// The first plies of 8x8 are known by hand; the same counts must come out of
// the grid, which is what larger boards use.
func TestPerftGridLargeBoards(t *testing.T) {
	for _, size := range []int{10, 12, 26} {
		start, _ := NewPosition(size)
		for d, want := range []uint64{1, 4, 12, 56} {
			if got := Perft(start, d); got != want {
				t.Errorf("size %d perft(%d) = %d, want %d", size, d, got, want)
			}
		}
	}
}

func BenchmarkPerft8x8(b *testing.B) {
	want := publishedPerft(b)
	for _, d := range []int{9, 10, 11} {
		b.Run("depth="+strconv.Itoa(d), func(b *testing.B) {
			start, _ := NewPosition(8)
			var n uint64
			for b.Loop() {
				n = Perft(start, d)
			}
			if n != want[d] {
				b.Fatalf("perft(%d) = %d, want %d", d, n, want[d])
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

func BenchmarkPerftGrid10x10(b *testing.B) {
	start, _ := NewPosition(10)
	for b.Loop() {
		Perft(start, 6)
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	for _, size := range []int{8, 10, 26} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			// A middle-game position: 20 plies of a fixed line of first moves.
			p, _ := NewPosition(size)
			for i := 0; i < 20 && p.HasMoves(); i++ {
				p, _ = p.Play(p.LegalMoves()[0])
				if p.MustPass() {
					p = p.Pass()
				}
			}
			b.ResetTimer()
			for b.Loop() {
				_ = p.LegalMoves()
			}
		})
	}
}
