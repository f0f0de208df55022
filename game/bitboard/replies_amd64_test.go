//go:build !purego

package bitboard

import "testing"

// Without AVX2 and BMI the assembly goes on in the portable code: its tail
// jumps must hand over the arguments and the result intact.
func TestAssemblyWithoutAVX2(t *testing.T) {
	saved := hasAVX2
	hasAVX2 = false
	defer func() { hasAVX2 = saved }()
	tb := For(8)
	p, o := uint64(1<<28|1<<35), uint64(1<<27|1<<36)
	// Published perft counts from the standard start (passes count as a ply).
	for depth, want := range []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216} {
		if got := tb.Perft(p, o, depth); got != want {
			t.Errorf("perft %d without AVX2: %d, want %d", depth, got, want)
		}
	}
}
